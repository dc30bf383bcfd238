package io.rdmatrace.analyzer;

import static io.rdmatrace.analyzer.AnalysisDatabaseStartTest.assertLoadsBothHosts;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
