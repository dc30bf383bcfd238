package io.rdmatrace.analyzer;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.load.Schema;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;
import io.rdmatrace.analyzer.rule.RuleRunner;
import io.rdmatrace.analyzer.rule.RuleSet;

/**
 * The analysis template (JFR's converter shape): load, then run every rule over the loaded
 * database, then collect what the report needs.
 */
public final class Analyzer {
    private Analyzer() {
    }

    /** Runs {@code rules} over a database whose loading is finished. */
    public static AnalysisResult analyze(AnalysisDatabase database, LoadReport load, RuleSet rules) throws SQLException {
        RuleRunner runner = new RuleRunner(database.connection());
        long start = System.nanoTime();
        List<RuleOutcome> outcomes = runner.runAll(rules.rules());
        long ruleNanos = System.nanoTime() - start;
        List<RuleProblem> problems = new ArrayList<>(rules.problems());
        outcomes.stream().filter(RuleOutcome::failed).map(RuleOutcome::problem).forEach(problems::add);
        return new AnalysisResult(load, connections(database), outcomes, problems, ruleNanos, clocks(database),
                wire(database), endings(database));
    }

    /** The names the queries of {@code rules} (their SQL and gates) and of the report mention: what they need computed. */
    static Set<String> reads(RuleSet rules) {
        Set<String> names = new HashSet<>();
        for (String sql : List.of(CONNECTIONS_SQL, WIRE_SQL, ENDINGS_SQL, CLOCKS_SQL)) {
            names.addAll(Schema.namesIn(sql));
        }
        for (Rule rule : rules.rules()) {
            names.addAll(Schema.namesIn(rule.sql()));
            names.addAll(Schema.namesIn(rule.when()));
        }
        return names;
    }

    // The report's queries run as plain statements: DuckDB's driver plans a prepared statement twice (when
    // prepared and when executed; see RuleRunner#run), and these have no parameters.
    private static final String CONNECTIONS_SQL = """
            SELECT p.pair_id, p.host_a, p.qp_a, p.host_b, p.qp_b, p.matched_by,
                   coalesce(qp_type_name(coalesce(a.qp_type, b.qp_type)), '?') AS qp_type,
                   coalesce(a.states_reached, []) AS states_a,
                   coalesce(b.states_reached, []) AS states_b,
                   fa.state_name, fa.seq, fa.source, fa.what,
                   fb.state_name, fb.seq, fb.source, fb.what
            FROM connection_pairs p
            LEFT JOIN qp_settings a ON a.host = p.host_a AND a.handle = p.handle_a
            LEFT JOIN qp_settings b ON b.host = p.host_b AND b.handle = p.handle_b
            LEFT JOIN qp_final_state fa ON fa.host = p.host_a AND fa.handle = p.handle_a
            LEFT JOIN qp_final_state fb ON fb.host = p.host_b AND fb.handle = p.handle_b
            ORDER BY p.pair_id
            """;

    private static final String WIRE_SQL = "SELECT host, seq, counter, delta, role, meaning FROM wire_counters ORDER BY host, counter";

    private static final String ENDINGS_SQL = "SELECT host, ending, exit_status, signal, recorder_signal, ending_detail,"
            + " ending_text FROM hosts WHERE ending IS NOT NULL ORDER BY host";

    private static List<HostEnding> endings(AnalysisDatabase database) throws SQLException {
        List<HostEnding> endings = new ArrayList<>();
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery(ENDINGS_SQL)) {
            while (rs.next()) {
                endings.add(new HostEnding(rs.getString(1), rs.getString(2), (Integer) rs.getObject(3),
                        (Integer) rs.getObject(4), (Integer) rs.getObject(5), rs.getString(6), rs.getString(7)));
            }
        }
        return endings;
    }

    private static List<WireCounter> wire(AnalysisDatabase database) throws SQLException {
        List<WireCounter> wire = new ArrayList<>();
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery(WIRE_SQL)) {
            while (rs.next()) {
                wire.add(new WireCounter(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                        rs.getString(6)));
            }
        }
        return wire;
    }

    private static QpFinalState finalState(ResultSet rs, int column) throws SQLException {
        String state = rs.getString(column);
        return state == null ? null : new QpFinalState(state, rs.getLong(column + 1), rs.getString(column + 2),
                rs.getString(column + 3));
    }

    private static List<ConnectionSummary> connections(AnalysisDatabase database) throws SQLException {
        List<ConnectionSummary> connections = new ArrayList<>();
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery(CONNECTIONS_SQL)) {
            while (rs.next()) {
                connections.add(new ConnectionSummary(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                        rs.getLong(5), rs.getString(7), rs.getString(6), states(rs.getArray(8)), states(rs.getArray(9)),
                        finalState(rs, 10), finalState(rs, 14)));
            }
        }
        return connections;
    }

    private static final String CLOCKS_SQL = """
            SELECT host, reference_host, offset_ns, uncertainty_ns, samples, method
            FROM host_clock_offset WHERE method IN ('oob-ntp', 'causality') ORDER BY host
            """;

    private static List<ClockEstimate> clocks(AnalysisDatabase database) throws SQLException {
        List<ClockEstimate> clocks = new ArrayList<>();
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery(CLOCKS_SQL)) {
            while (rs.next()) {
                clocks.add(new ClockEstimate(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        rs.getString(6)));
            }
        }
        return clocks;
    }

    /** The states a QP went through; every QP starts in RESET, whether or not a modify says so. */
    private static List<String> states(Array array) throws SQLException {
        List<String> values = new ArrayList<>();
        values.add("RESET");
        if (array != null) {
            for (Object value : (Object[]) array.getArray()) {
                if (!values.get(values.size() - 1).equals(String.valueOf(value))) {
                    values.add(String.valueOf(value));
                }
            }
        }
        return values;
    }
}
