package io.rdmatrace.analyzer.rule;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.duckdb.DuckDBConnection;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;

/**
 * Runs rules against a loaded database over plain JDBC (jOOQ's first fetch, its set-up, cost a
 * cold analysis ~0.5 s for 38 tiny results). Every rule must return exactly the
 * columns of {@link #OUTPUT} (checked by binding it first, so a typo names the file); its rows
 * become {@link Finding}s. A failing rule yields a {@link RuleProblem}, never an exception.
 */
public final class RuleRunner {
    /** The output contract of every rule: column name and DuckDB type, in order. */
    public static final List<String[]> OUTPUT = List.of(
            new String[] {"host", "VARCHAR"},
            new String[] {"qp", "BIGINT"},
            new String[] {"evidence", "STRUCT(host VARCHAR, seq BIGINT)[]"},
            new String[] {"message", "VARCHAR"});
    /** Columns a rule may add after {@link #OUTPUT}, in this order. */
    public static final List<String[]> OPTIONAL_OUTPUT = List.<String[]>of(
            new String[] {"expected", "BOOLEAN"});

    /** Connections running rules at once, at most (more only queue on a small machine's cores). */
    private static final int MAX_WORKERS = 4;

    private final Connection connection;

    public RuleRunner(Connection connection) {
        this.connection = connection;
    }

    /** Binds the rule's SELECT (and its {@code when}) against the current schema; empty when it fits the output contract. */
    public Optional<String> bindCheck(Rule rule) {
        if (!rule.when().isEmpty()) {
            try (PreparedStatement statement = connection.prepareStatement(rule.when())) {
                statement.getMetaData();
            } catch (SQLException e) {
                return Optional.of("when: " + firstLine(e.getMessage()));
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(rule.sql())) {
            return unfit(statement.getMetaData());
        } catch (SQLException e) {
            return Optional.of(firstLine(e.getMessage()));
        }
    }

    private static Optional<String> unfit(ResultSetMetaData meta) throws SQLException {
        List<String> actual = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            actual.add(meta.getColumnName(i) + " " + meta.getColumnTypeName(i));
        }
        List<String> expected = OUTPUT.stream().map(c -> c[0] + " " + c[1]).toList();
        List<String> optional = OPTIONAL_OUTPUT.stream().map(c -> c[0] + " " + c[1]).toList();
        boolean fits = actual.size() >= expected.size() && actual.size() <= expected.size() + optional.size()
                && actual.subList(0, expected.size()).equals(expected)
                && actual.subList(expected.size(), actual.size()).equals(optional.subList(0, actual.size() - expected.size()));
        if (!fits) {
            return Optional.of("returns (" + String.join(", ", actual) + "); a rule must return ("
                    + String.join(", ", expected) + ") and may add (" + String.join(", ", optional) + ")");
        }
        return Optional.empty();
    }

    /**
     * Runs every rule; each one's failure is contained in its own outcome. Outcomes come in the
     * order of {@code rules}. On a DuckDB connection the rules run on several connections to the
     * same database at once: on a small trace a rule's time is mostly planning, which DuckDB does
     * on the calling thread, so one connection keeps one core busy however many there are.
     */
    public List<RuleOutcome> runAll(List<Rule> rules) {
        int workers = Math.min(Runtime.getRuntime().availableProcessors(), Math.min(MAX_WORKERS, rules.size() / 4));
        if (workers <= 1 || !(connection instanceof DuckDBConnection duckdb)) {
            List<RuleOutcome> outcomes = new ArrayList<>();
            for (Rule rule : rules) {
                outcomes.add(run(rule));
            }
            return outcomes;
        }
        RuleOutcome[] outcomes = new RuleOutcome[rules.size()];
        int[] order = startOrder(rules);
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (int w = 0; w < workers; w++) {
            boolean first = w == 0;
            Thread thread = new Thread(() -> {
                // the first worker is this runner; the others get their own connection
                try (Connection own = first ? null : duckdb.duplicate()) {
                    RuleRunner runner = own == null ? this : new RuleRunner(own);
                    for (int k = next.getAndIncrement(); k < order.length; k = next.getAndIncrement()) {
                        outcomes[order[k]] = runner.run(rules.get(order[k]));
                    }
                } catch (SQLException e) {
                    // no second connection: the rules it would have run are run below
                } catch (RuntimeException | Error e) {
                    failures.add(e);
                }
            }, "rdmatrace-rules");
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running rules", e);
            }
        }
        if (!failures.isEmpty()) {
            Throwable failure = failures.get(0);
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        }
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i] == null) {
                // a worker could not open its connection: what it would have run, run here
                outcomes[i] = run(rules.get(i));
            }
        }
        return List.of(outcomes);
    }

    /**
     * The order the connections take the rules in: longest SQL first (then file order). On a small trace a
     * rule's time follows the length of its SQL (a two-host bring-up: completion-error's 14k characters and
     * verb-failed's 6.6k took ~0.1 s each, the median rule 13 ms); taken last in file order, verb-failed kept
     * one connection busy ~0.1 s after the other had run out of rules.
     */
    static int[] startOrder(List<Rule> rules) {
        return IntStream.range(0, rules.size()).boxed()
                .sorted(Comparator.comparingInt((Integer i) -> -rules.get(i).sql().length()).thenComparingInt(i -> i))
                .mapToInt(Integer::intValue).toArray();
    }

    /**
     * Runs the rule as a plain statement, checks its columns and reads the rows. Not a prepared statement:
     * DuckDB's driver plans a prepared statement when it is prepared and again when it is executed, and
     * planning is most of a rule's cost on small traces (a two-host bring-up's 38 rules on one connection:
     * prepare 0.33 s + execute 0.33 s, plain 0.39 s). A rule whose columns do not fit has then run for
     * nothing, which only a broken rule pays. DuckDB closes a statement after an error, so each rule gets
     * its own.
     */
    public RuleOutcome run(Rule rule) {
        long start = System.nanoTime();
        if (!rule.when().isEmpty()) {
            // a rule's planning is most of its cost on a small trace: its gate, a short query, spares it
            // when the rows it starts from are not there (completion-error without an error completion)
            try (Statement statement = connection.createStatement(); ResultSet gate = statement.executeQuery(rule.when())) {
                if (!gate.next()) {
                    return new RuleOutcome(rule, List.of(), null, System.nanoTime() - start);
                }
            } catch (SQLException e) {
                return new RuleOutcome(rule, List.of(), new RuleProblem(fileOf(rule), "when: " + firstLine(e.getMessage())),
                        System.nanoTime() - start);
            }
        }
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(rule.sql())) {
            ResultSetMetaData meta = rows.getMetaData();
            Optional<String> unfit = unfit(meta);
            if (unfit.isPresent()) {
                return new RuleOutcome(rule, List.of(), new RuleProblem(fileOf(rule), unfit.get()), System.nanoTime() - start);
            }
            List<Finding> findings = new ArrayList<>();
            boolean hasExpected = meta.getColumnCount() > OUTPUT.size();
            while (rows.next()) {
                long qpNum = rows.getLong(2);
                Long qp = rows.wasNull() ? null : qpNum;
                boolean expected = hasExpected && rows.getBoolean(5);
                findings.add(new Finding(rule.id(), rule.severity(), rows.getString(1), qp, evidence(rows.getObject(3)),
                        rows.getString(4), rule.role(), expected));
            }
            findings.sort(FINDING_ORDER);
            return new RuleOutcome(rule, findings, null, System.nanoTime() - start);
        } catch (SQLException e) {
            return new RuleOutcome(rule, List.of(), new RuleProblem(fileOf(rule), firstLine(e.getMessage())),
                    System.nanoTime() - start);
        }
    }

    /** Rows in a stable order whatever the SQL's: host (capture-wide first), QP, message. */
    private static final Comparator<Finding> FINDING_ORDER = Comparator
            .comparing((Finding f) -> f.host() == null ? "" : f.host())
            .thenComparing(f -> f.qp() == null ? -1L : f.qp())
            .thenComparing(Finding::message);

    /** "rules/<id>.sql" for built-in rules, the path for user rules. */
    public static String fileOf(Rule rule) {
        return "builtin".equals(rule.origin()) ? BundledFiles.ROOT + "/" + rule.id() + ".sql" : rule.origin();
    }

    private static List<Evidence> evidence(Object value) throws SQLException {
        List<Evidence> refs = new ArrayList<>();
        if (value instanceof Array array) {
            for (Object element : (Object[]) array.getArray()) {
                if (element instanceof Struct struct) {
                    Object[] fields = struct.getAttributes();
                    if (fields[0] != null && fields[1] != null) {
                        refs.add(new Evidence(fields[0].toString(), ((Number) fields[1]).longValue()));
                    }
                }
            }
        }
        refs.sort(null);
        return refs.stream().distinct().toList();
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown SQL error";
        }
        String[] lines = message.strip().split("\n");
        StringBuilder out = new StringBuilder(lines[0]);
        for (int i = 1; i < lines.length && i < 4; i++) {
            if (lines[i].startsWith("LINE ")) {
                out.append(" (").append(lines[i].strip()).append(')');
                break;
            }
        }
        return out.toString();
    }
}
