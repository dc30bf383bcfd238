package io.rdmatrace.analyzer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.trace.synth.SyntheticTrace;

/** DuckDB starts on a thread of its own: its first use waits for it, and a start that failed says why then. */
class AnalysisDatabaseStartTest {
    @TempDir
    Path dir;

    @Test
    void inMemory_loadWaitsForTheStart_andEveryHostLoads() throws Exception {
        Path trace = dir.resolve("trace");
        SyntheticTrace.write(SyntheticTrace.Spec.of(trace, 1, 30));
        try (AnalysisDatabase database = AnalysisDatabase.inMemory()) {
            assertLoadsBothHosts(database, trace);
        }
    }

    /** {@code trace}'s two hosts load clean into {@code database} and are in its {@code _host} table. */
    static void assertLoadsBothHosts(AnalysisDatabase database, Path trace) throws Exception {
        LoadReport load = database.load(List.of(trace));
        assertThat(load.hosts()).hasSize(2).allSatisfy(h -> assertThat(h.status()).isEqualTo("CLEAN"));
        try (Statement statement = database.connection().createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*) FROM _host")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }

    @Test
    void inFile_aStartThatFailed_isReportedAtFirstUse_andCloseIsQuiet() throws Exception {
        // a file name longer than any file system allows: DuckDB cannot create the database
        Path file = dir.resolve("x".repeat(300) + ".duckdb");
        AnalysisDatabase database = AnalysisDatabase.inFile(file);
        assertThatThrownBy(database::connection).isInstanceOf(SQLException.class)
                .hasMessageContaining("x".repeat(40));
        assertThatThrownBy(() -> database.load(List.of(dir))).isInstanceOf(SQLException.class);
        database.close();
    }
}
