package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.trace.synth.SyntheticTrace;

/** The database begun before a command line is parsed is the one the command takes, once; the rest start anew. */
class AnalysisWarmUpTest {
    @TempDir
    Path dir;

    @Test
    void start_theFirstDatabaseTakenIsTheEarlyOne_andEachLoadsTheTrace() throws Exception {
        Path trace = trace();
        AnalysisWarmUp warmUp = AnalysisWarmUp.start();
        warmUp.await();
        assertThat(warmUp.holdsDatabase()).isTrue();
        try (AnalysisDatabase early = warmUp.inMemoryDatabase(); AnalysisDatabase later = warmUp.inMemoryDatabase()) {
            assertThat(warmUp.holdsDatabase()).isFalse();
            assertThat(later).isNotSameAs(early);
            assertLoadsBothHosts(early, trace);
            assertLoadsBothHosts(later, trace);
        }
    }

    @Test
    void discardDatabase_closesTheEarlyOne_andADatabaseTakenAfterStartsAnew() throws Exception {
        Path trace = trace();
        AnalysisWarmUp warmUp = AnalysisWarmUp.start();
        warmUp.discardDatabase();
        assertThat(warmUp.holdsDatabase()).isFalse();
        warmUp.discardDatabase(); // nothing left to close
        try (AnalysisDatabase database = warmUp.inMemoryDatabase()) {
            assertLoadsBothHosts(database, trace);
        }
    }

    @Test
    void none_awaitsNothing_andStartsADatabaseWhenOneIsTaken() throws Exception {
        Path trace = trace();
        AnalysisWarmUp none = AnalysisWarmUp.none();
        none.await();
        assertThat(none.holdsDatabase()).isFalse();
        try (AnalysisDatabase database = none.inMemoryDatabase()) {
            assertLoadsBothHosts(database, trace);
        }
    }

    private Path trace() throws Exception {
        Path trace = dir.resolve("trace");
        SyntheticTrace.write(SyntheticTrace.Spec.of(trace, 1, 30));
        return trace;
    }

    private static void assertLoadsBothHosts(AnalysisDatabase database, Path trace) throws Exception {
        LoadReport load = database.load(List.of(trace));
        assertThat(load.hosts()).hasSize(2).allSatisfy(h -> assertThat(h.status()).isEqualTo("CLEAN"));
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM _host")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }
}
