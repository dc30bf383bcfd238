package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.rdmatrace.abi.IbvEnum;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.names.ErrnoNames;
import io.rdmatrace.trace.model.QpFieldAttrs;
import io.rdmatrace.trace.model.Verb;

/**
 * Name tables and name macros for SQL, generated from the trace model's own dictionaries so
 * the SQL side never keeps a second copy that could drift: verbs, attributes, enum/flag names,
 * errno names. The macros hold their names as literals (no table lookup), so using them in a
 * rule costs no join and works inside lambdas.
 */
final class ReferenceTables {
    private static final int MAX_ERRNO = 140;

    private ReferenceTables() {
    }

    /**
     * Creates and fills the tables and macros in one round trip: a batch of prepared inserts is
     * one DuckDB execution per row (~700 rows), which cost more than the rest of the schema.
     */
    static void create(Connection connection) throws SQLException {
        List<String> verbs = new ArrayList<>();
        for (Verb verb : Verb.values()) {
            verbs.add(verb.code() + ", " + literal(verb.function()));
        }
        List<String> attrs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Attr attr : Attr.values()) {
            attrs.add(literal(attr.column()) + ", " + attr.code() + ", " + literal(attr.kind().name()) + ", "
                    + literal(SqlType.of(attr).name()) + ", " + literal(attr.description()));
            if (attr.names() != null) {
                for (Map.Entry<Long, String> entry : attr.names().entries().entrySet()) {
                    names.add(literal(attr.column()) + ", " + entry.getKey() + ", " + literal(entry.getValue()) + ", "
                            + attr.names().isFlags());
                }
            }
        }
        List<String> errnos = new ArrayList<>();
        for (int errno = 0; errno <= MAX_ERRNO; errno++) {
            String name = ErrnoNames.name(errno);
            if (!name.startsWith("errno ")) {
                errnos.add(errno + ", " + literal(name));
            }
        }
        StringBuilder sql = new StringBuilder();
        sql.append("CREATE TABLE _verb (code SMALLINT PRIMARY KEY, name VARCHAR);\n");
        sql.append("CREATE TABLE _attr (name VARCHAR PRIMARY KEY, code INTEGER, kind VARCHAR, sql_type VARCHAR, description VARCHAR);\n");
        sql.append("CREATE TABLE _value_name (attr VARCHAR, value BIGINT, name VARCHAR, is_flag BOOLEAN);\n");
        sql.append("CREATE TABLE _errno (errno INTEGER PRIMARY KEY, name VARCHAR);\n");
        insert(sql, "_verb", verbs);
        insert(sql, "_attr", attrs);
        insert(sql, "_value_name", names);
        insert(sql, "_errno", errnos);
        for (String macro : nameMacros()) {
            sql.append(macro).append(";\n");
        }
        sql.append(errnoNameMacro()).append(";\n");
        sql.append(qpAttrFieldsMacro()).append(";\n");
        sql.append(mtuBytesMacro()).append(";\n");
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql.toString());
        }
    }

    private static void insert(StringBuilder sql, String table, List<String> rows) {
        if (!rows.isEmpty()) {
            sql.append("INSERT INTO ").append(table).append(" VALUES (").append(String.join("), (", rows)).append(");\n");
        }
    }

    /**
     * {@code _qp_attr_fields()}: the recorded ibv_qp_attr fields of the verbs ABI model as a regex
     * alternation ({@code qp_state|cur_qp_state|...}), for {@code COLUMNS('^in_(' || _qp_attr_fields() || ')$')}:
     * the QP state timeline carries a field added to the model without an edit of its SQL.
     */
    static String qpAttrFieldsMacro() {
        return "CREATE MACRO _qp_attr_fields() AS " + literal(String.join("|", QpFieldAttrs.columns()));
    }

    /** {@code mtu_bytes(m)}: enum ibv_mtu → bytes (3 → 1024) from the verbs ABI model's MTU table; NULL out of range. */
    static String mtuBytesMacro() {
        long min = IbvEnum.MTU.entries().keySet().stream().mapToLong(Long::longValue).min().orElseThrow();
        long max = IbvEnum.MTU.entries().keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        List<String> bytes = new ArrayList<>();
        for (long m = min; m <= max; m++) {
            bytes.add(Integer.toString(IbvEnum.mtuBytes(m)));
        }
        String index = min == 1 ? "m" : "m - " + (min - 1);   // DuckDB lists count from 1
        return "CREATE MACRO mtu_bytes(m) AS CASE WHEN m BETWEEN " + min + " AND " + max + " THEN (["
                + String.join(", ", bytes) + "][" + index + "])::INTEGER END";
    }

    /**
     * Per attribute with a name table: {@code enum_<attr>(v)} (e.g. enum_qp_state(3) ->
     * 'IBV_QPS_RTS', unknown -> 'UNKNOWN(n)') or {@code flags_<attr>(v)} (e.g. flags_access(3) ->
     * 'IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE', 0 -> '0', unnamed bits appended in hex);
     * then the generic value_name(attr, v) and flag_names(attr, v) dispatching to them.
     */
    static List<String> nameMacros() {
        List<String> macros = new ArrayList<>();
        StringBuilder enums = new StringBuilder();
        StringBuilder flags = new StringBuilder();
        for (Attr attr : Attr.values()) {
            if (attr.names() == null) {
                continue;
            }
            Map<Long, String> entries = attr.names().entries();
            if (attr.names().isFlags()) {
                macros.add(flagsMacro(attr.column(), entries));
                flags.append(" WHEN ").append(literal(attr.column())).append(" THEN flags_").append(attr.column()).append("(v)");
            } else {
                macros.add(enumMacro(attr.column(), entries));
                enums.append(" WHEN ").append(literal(attr.column())).append(" THEN enum_").append(attr.column()).append("(v)");
            }
        }
        macros.add("CREATE MACRO value_name(a, v) AS CASE a" + enums + " END");
        macros.add("CREATE MACRO flag_names(a, v) AS CASE a" + flags + " END");
        return macros;
    }

    private static String enumMacro(String column, Map<Long, String> entries) {
        long min = entries.keySet().stream().mapToLong(Long::longValue).min().orElse(0);
        long max = entries.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
        String lookup;
        if (min >= 0 && max < 256) {
            // a list indexed by value: the cheapest lookup for DuckDB to plan
            List<String> byValue = new ArrayList<>();
            for (long v = 0; v <= max; v++) {
                String name = entries.get(v);
                byValue.add(name == null ? "NULL" : literal(name));
            }
            lookup = "CASE WHEN v BETWEEN 0 AND " + max + " THEN [" + String.join(", ", byValue) + "][v + 1] END";
        } else {
            List<String> keys = new ArrayList<>();
            List<String> names = new ArrayList<>();
            entries.forEach((value, name) -> {
                keys.add(value + "::BIGINT");
                names.add(literal(name));
            });
            lookup = "map([" + String.join(", ", keys) + "], [" + String.join(", ", names) + "])[v::BIGINT]";
        }
        return "CREATE MACRO enum_" + column + "(v) AS CASE WHEN v IS NULL THEN NULL ELSE coalesce(" + lookup
                + ", 'UNKNOWN(' || v || ')') END";
    }

    private static String flagsMacro(String column, Map<Long, String> entries) {
        int highest = 63 - Long.numberOfLeadingZeros(entries.keySet().stream().mapToLong(Long::longValue).max().orElse(1));
        List<String> byBit = new ArrayList<>();
        long known = 0;
        for (int bit = 0; bit <= highest; bit++) {
            String name = entries.get(1L << bit);
            byBit.add(name == null ? "NULL" : literal(name));
            known |= name == null ? 0 : 1L << bit;
        }
        return "CREATE MACRO flags_" + column + "(v) AS CASE WHEN v IS NULL THEN NULL WHEN v = 0 THEN '0' ELSE "
                + "concat_ws('|', nullif(array_to_string(list_filter(list_transform(range(0, " + (highest + 1)
                + "), lambda i: CASE WHEN (v >> i) & 1 = 1 THEN [" + String.join(", ", byBit) + "][i + 1] END), "
                + "lambda n: n IS NOT NULL), '|'), ''), "
                + "CASE WHEN (v & ~" + known + "::BIGINT) <> 0 THEN '0x' || lower(hex(v & ~" + known + "::BIGINT)) END) END";
    }

    /** errno_name(22) -> 'EINVAL'; unknown -> 'errno n'. */
    static String errnoNameMacro() {
        List<String> names = new ArrayList<>();
        for (int errno = 0; errno <= MAX_ERRNO; errno++) {
            String name = ErrnoNames.name(errno);
            names.add(name.startsWith("errno ") ? "NULL" : literal(name));
        }
        return "CREATE MACRO errno_name(e) AS CASE WHEN e IS NULL THEN NULL ELSE coalesce(CASE WHEN e BETWEEN 0 AND "
                + MAX_ERRNO + " THEN [" + String.join(", ", names) + "][e + 1] END, 'errno ' || e) END";
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
