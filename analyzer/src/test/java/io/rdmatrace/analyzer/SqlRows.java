package io.rdmatrace.analyzer;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Query results as `a|b|c` strings, one per row, so tests can assert whole rows at once. */
public final class SqlRows {
    private SqlRows() {
    }

    public static List<String> query(AnalysisDatabase db, String sql) throws Exception {
        return query(db.connection(), sql);
    }

    public static List<String> query(Connection c, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
