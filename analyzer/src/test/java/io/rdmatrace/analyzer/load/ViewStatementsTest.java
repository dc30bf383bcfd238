package io.rdmatrace.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.rule.BundledFiles;

/** The view scripts cut into statements, what each must wait for, and running them on several connections. */
class ViewStatementsTest {
    @Test
    void split_cutsAtSemicolonsOutsideStringsIdentifiersAndComments() {
        assertThat(ViewStatements.split("""
                CREATE TABLE a AS SELECT 'x;y' AS s, "odd;name" FROM t; -- a comment; with a semicolon
                /* block; comment */ CREATE VIEW b AS SELECT 'it''s;' AS q;
                ;
                -- only a comment
                """)).containsExactly("CREATE TABLE a AS SELECT 'x;y' AS s, \"odd;name\" FROM t",
                "-- a comment; with a semicolon\n/* block; comment */ CREATE VIEW b AS SELECT 'it''s;' AS q");
    }

    @Test
    void of_aStatementWaitsForWhatCreatesOrFillsANameItMentions_andFillsWaitForEarlierReaders() {
        Map<String, String> scripts = new TreeMap<>(Map.of(
                "10_a.sql", "CREATE TABLE a (x INT); CREATE MACRO m(v) AS v + 1;",
                "20_b.sql", "CREATE TABLE b AS SELECT m(x) FROM a; CREATE TABLE c AS SELECT 'a' AS s FROM base;",
                "30_fill.sql", "INSERT INTO a VALUES (1); CREATE VIEW d AS SELECT * FROM b JOIN c ON true;"));
        List<ViewStatements.Statement> s = ViewStatements.of(scripts);
        assertThat(s).extracting(ViewStatements.Statement::file).containsExactly("10_a.sql", "10_a.sql", "20_b.sql",
                "20_b.sql", "30_fill.sql", "30_fill.sql");
        assertThat(s.get(0).needs()).isEmpty();
        assertThat(s.get(1).needs()).isEmpty();
        assertThat(s.get(2).needs()).isEqualTo(Set.of(0, 1));  // reads a, calls m
        assertThat(s.get(3).needs()).isEmpty();                // 'a' is a string; base is not the scripts'
        assertThat(s.get(4).needs()).isEqualTo(Set.of(0, 2));  // fills a: after its creation and its reader b
        assertThat(s.get(5).needs()).isEqualTo(Set.of(2, 3));
    }

    @Test
    void of_names_keepsWhatTheyNeedInFileOrder_withNeedsAmongTheKept() {
        Map<String, String> scripts = new TreeMap<>(Map.of(
                "10_a.sql", "CREATE TABLE a (x INT); CREATE MACRO m(v) AS v + 1;",
                "20_b.sql", "CREATE TABLE b AS SELECT m(x) FROM a; CREATE TABLE c AS SELECT 'a' AS s FROM base;",
                "30_fill.sql", "INSERT INTO a VALUES (1); CREATE VIEW d AS SELECT * FROM b JOIN c ON true;"));
        // d reads b and c; b was made before a's fill, so the fill is not needed
        List<ViewStatements.Statement> d = ViewStatements.of(scripts, Set.of("D"));
        assertThat(d).extracting(ViewStatements.Statement::sql).containsExactly("CREATE TABLE a (x INT)",
                "CREATE MACRO m(v) AS v + 1", "CREATE TABLE b AS SELECT m(x) FROM a",
                "CREATE TABLE c AS SELECT 'a' AS s FROM base", "CREATE VIEW d AS SELECT * FROM b JOIN c ON true");
        assertThat(d.get(2).needs()).isEqualTo(Set.of(0, 1));
        assertThat(d.get(4).needs()).isEqualTo(Set.of(2, 3));
        // a is what its creation and its fill make: b, its reader, is left out
        List<ViewStatements.Statement> a = ViewStatements.of(scripts, Set.of("a"));
        assertThat(a).extracting(ViewStatements.Statement::sql).containsExactly("CREATE TABLE a (x INT)",
                "INSERT INTO a VALUES (1)");
        assertThat(a.get(1).needs()).isEqualTo(Set.of(0));
        assertThat(ViewStatements.of(scripts, null)).hasSize(6);
    }

    @Test
    void of_names_keepsTheBarriersBeforeTheLastKeptStatement() {
        List<ViewStatements.Statement> s = ViewStatements.of(new TreeMap<>(Map.of(
                "1.sql", "CREATE TABLE a (x INT); SET threads = 1; CREATE TABLE b (y INT); SET threads = 2;")), Set.of("b"));
        assertThat(s).extracting(ViewStatements.Statement::sql).containsExactly("SET threads = 1", "CREATE TABLE b (y INT)");
        assertThat(s.get(1).needs()).isEqualTo(Set.of(0));
    }

    @Test
    void of_aStatementThatCreatesNothingIsABarrier() {
        List<ViewStatements.Statement> s = ViewStatements.of(new TreeMap<>(Map.of(
                "1.sql", "CREATE TABLE a (x INT); SET threads = 1; CREATE TABLE b (y INT);")));
        assertThat(s.get(1).needs()).isEqualTo(Set.of(0));
        assertThat(s.get(2).needs()).isEqualTo(Set.of(1));
    }

    @Test
    void of_aRenameProvidesBothNames_andADropIsNoBarrier() {
        List<ViewStatements.Statement> s = ViewStatements.of(new TreeMap<>(Map.of(
                "1.sql", "CREATE TABLE a (x INT); CREATE TABLE r AS SELECT x FROM a; CREATE TABLE n (y INT); "
                        + "ALTER TABLE a RENAME TO b; CREATE VIEW v AS SELECT * FROM b; DROP TABLE IF EXISTS n; "
                        + "CREATE TABLE other (z INT);")));
        assertThat(s.get(3).needs()).isEqualTo(Set.of(0, 1));  // after a's creation and its reader r
        assertThat(s.get(4).needs()).isEqualTo(Set.of(3));     // reads b: after the rename
        assertThat(s.get(5).needs()).isEqualTo(Set.of(2));     // drops n: after its creation only
        assertThat(s.get(6).needs()).isEmpty();
    }

    /** Perfetto's INCLUDE, checked: every shipped view script names exactly the scripts it reads from. */
    @Test
    void undeclaredNeeds_shippedViewsNameExactlyTheScriptsTheyReadFrom() {
        Map<String, String> views = BundledFiles.sqlFiles(Schema.VIEWS);
        assertThat(ViewStatements.undeclaredNeeds(views)).isEmpty();
        assertThat(ViewStatements.declaredNeeds(views.get("60_qp_state.sql")))
                .containsExactly("00_macros", "40_calls", "50_objects");
    }

    @Test
    void undeclaredNeeds_namesWhatAScriptReadsWithoutDeclaring_andWhatItDeclaresWithoutReading() {
        Map<String, String> scripts = new TreeMap<>(Map.of(
                "10_a.sql", "CREATE TABLE a (x INT); CREATE MACRO m(v) AS v + 1;",
                "20_b.sql", "-- needs: 10_a\nCREATE TABLE b AS SELECT m(x) FROM a;",
                "30_c.sql", "-- needs: 10_a\n-- 'a' in a comment or a string is no read: 'a'\nCREATE TABLE c AS SELECT 'a' FROM b;",
                "40_d.sql", "-- needs: 20_b, 30_c\nCREATE VIEW d AS SELECT * FROM b, c, base;"));
        assertThat(ViewStatements.undeclaredNeeds(scripts)).containsExactly(
                "30_c.sql reads from 20_b, which its '-- needs:' line does not name (it reads from 20_b)",
                "30_c.sql names 10_a in its '-- needs:' line but reads nothing those scripts create before it");
    }

    /** The shipped views on four connections make the same relations, with the same columns, as on one. */
    @Test
    void createViews_onSeveralConnections_sameSchemaAsOnOne() throws Exception {
        assertThat(ViewStatements.of(BundledFiles.sqlFiles(Schema.VIEWS))).hasSizeGreaterThan(50);
        assertThat(columns(4)).isEqualTo(columns(1)).isNotEmpty();
    }

    @Test
    void run_aFailingStatementNamesItsScript_andLaterStatementsDoNotRun() throws Exception {
        Map<String, String> scripts = new LinkedHashMap<>();
        scripts.put("10_ok.sql", "CREATE TABLE a (x INT);");
        scripts.put("20_bad.sql", "CREATE TABLE b AS SELECT no_such_column FROM a;");
        scripts.put("30_after.sql", "CREATE TABLE c AS SELECT * FROM b;");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> ViewRunner.run(connection, ViewStatements.of(scripts), 3, "views"))
                    .isInstanceOf(SQLException.class).hasMessageStartingWith("views/20_bad.sql: ")
                    .hasMessageContaining("no_such_column");
            assertThat(tables(connection)).containsExactly("a");
        }
    }

    private static List<String> columns(int workers) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createBaseTables(connection);
            Schema.createViews(connection, workers);
            List<String> columns = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT table_name || '.' || column_name || ' ' || data_type "
                            + "FROM duckdb_columns() ORDER BY table_name, column_index")) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT DISTINCT function_name FROM duckdb_functions() "
                            + "WHERE function_type = 'macro' AND NOT internal ORDER BY 1")) {
                while (rs.next()) {
                    columns.add("macro " + rs.getString(1));
                }
            }
            return columns;
        }
    }

    private static List<String> tables(Connection connection) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT table_name FROM duckdb_tables() ORDER BY 1")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
