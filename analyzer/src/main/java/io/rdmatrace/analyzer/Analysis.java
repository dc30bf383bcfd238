package io.rdmatrace.analyzer;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleSet;

/**
 * One analysis session, the sequence every verb follows: open a database, load the inputs (trace
 * folders, packed folders, bundles), check that something was readable, finish loading (the derived
 * relations), then run rules or queries. Closing the session closes its database.
 *
 * <pre>
 * try (Analysis a = Analysis.open(List.of(folder))) {
 *     if (!a.load().anyReadable()) { ... }   // each verb words its own refusal
 *     AnalysisResult r = a.analyze(rules);   // finishes loading first
 * }
 * </pre>
 */
public final class Analysis implements AutoCloseable {
    private final AnalysisDatabase database;
    private final LoadReport load;
    private boolean finished;
    /** Whether only some relations were computed ({@link #connectionFor}): rules cannot run then. */
    private boolean partial;

    private Analysis(AnalysisDatabase database, LoadReport load) {
        this.database = database;
        this.load = load;
    }

    /** An in-memory database with {@code inputs} loaded (loading not yet finished). */
    public static Analysis open(List<Path> inputs) throws SQLException {
        return open(AnalysisDatabase.inMemory(), inputs);
    }

    /** {@code database} (owned by the session from now on) with {@code inputs} loaded. */
    public static Analysis open(AnalysisDatabase database, List<Path> inputs) throws SQLException {
        try {
            return new Analysis(database, database.load(inputs));
        } catch (SQLException | RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * A session over {@code database}, which the caller loaded itself ({@code load} says with what): export's
     * redacted load, which plans pseudonyms over every host before loading any. The session owns the database.
     */
    public static Analysis of(AnalysisDatabase database, LoadReport load) {
        return new Analysis(database, load);
    }

    /** What loading the inputs found: hosts, their status, problems with the inputs themselves. */
    public LoadReport load() {
        return load;
    }

    /** The database, for extra inputs (packet captures, export's table list) before {@link #finish()}. */
    public AnalysisDatabase database() {
        return database;
    }

    /** Finishes loading: computes the relations rules and queries read. Idempotent. */
    public Analysis finish() throws SQLException {
        if (!finished) {
            database.finishLoading();
            finished = true;
        }
        return this;
    }

    /** Finishes loading if needed, then runs {@code rules}. */
    public AnalysisResult analyze(RuleSet rules) throws SQLException {
        finish();
        if (partial) {
            throw new IllegalStateException("only some relations were computed (connectionFor): rules need them all");
        }
        return Analyzer.analyze(database, load, rules);
    }

    /**
     * Runs {@code rules}, a few of the catalog's, with only the relations they and the report read computed
     * (what their SQL mentions, and what that needs; {@link io.rdmatrace.analyzer.load.Schema#createViews}): one
     * rule of a two-host trace needs about half of the view statements. The database then holds only those,
     * so no other rule can run on it. On a session already finished in full, the same as {@link #analyze}.
     */
    public AnalysisResult analyzeOnly(RuleSet rules) throws SQLException {
        if (finished) {
            return analyze(rules);
        }
        database.finishLoading(Analyzer.reads(rules));
        finished = true;
        partial = true;
        return Analyzer.analyze(database, load, rules);
    }

    /**
     * The database's connection for queries of the relations {@code names} only: when loading is not finished
     * yet, it computes what they need and nothing else (a reader of a few relations, such as {@code show}), and
     * {@link #analyze} can no longer run.
     */
    public Connection connectionFor(Set<String> names) throws SQLException {
        if (!finished) {
            database.finishLoading(names);
            finished = true;
            partial = true;
        }
        return database.connection();
    }

    /** The finished database's connection, for queries. */
    public Connection connection() throws SQLException {
        return finish().database.connection();
    }

    @Override
    public void close() throws SQLException {
        database.close();
    }
}
