package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.rdmatrace.trace.store.TraceSet;

/** `rdmatrace replay` on real softverbs captures, run through the command line. */
class ReplayCommandTest {
    @TempDir
    Path dir;

    @Test
    void replay_cleanCapture_matchesAndExitsZero() throws Exception {
        Path recorded = RecordedPair.record(dir.resolve("trace"), "");
        MainTest.Run run = MainTest.run("replay", recorded.toString(), "--soft", "--out", dir.resolve("again").toString());

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("softverbs (bundled), the reference").contains("host-a on pairA: ").contains("host-b on pairB: ")
                .contains("no divergence").contains("result: the replay matches the recording");
        assertThat(TraceSet.discover(dir.resolve("again")).hostIds()).containsExactly("host-a", "host-b");

        // the same --out again: refused before anything runs, nothing lost
        MainTest.Run again = MainTest.run("replay", recorded.toString(), "--soft", "--out", dir.resolve("again").toString());
        assertThat(again.code()).isEqualTo(ExitCode.USAGE);
        assertThat(again.err()).startsWith("rdmatrace replay: ").contains("already holds a trace; choose another --out");
        assertThat(TraceSet.discover(dir.resolve("again")).hostIds()).containsExactly("host-a", "host-b");
    }

    @Test
    void replay_captureFromBuggyFirmware_namesTheDepartureAndExitsOne() throws Exception {
        Path recorded = RecordedPair.record(dir.resolve("trace"), ":quirk=accept-reset-to-rts");
        MainTest.Run run = MainTest.run("replay", recorded.toString(), "--soft", "--out", dir.resolve("again").toString(),
                "--json");

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(ExitCode.FAILURE);
        JsonNode result = new ObjectMapper().readTree(run.out());
        assertThat(result.path("onReference").asBoolean()).isTrue();
        assertThat(result.path("hosts")).hasSize(2);
        for (JsonNode host : result.path("hosts")) {
            JsonNode first = host.path("divergences").get(0);
            assertThat(first.path("kind").asText()).isEqualTo("NOW_FAILS");
            assertThat(first.path("message").asText())
                    .isEqualTo("your device accepted RESET→RTS; the reference refuses it (EINVAL)");
            assertThat(first.path("causeSeq").isNull()).isTrue();
        }
    }

    @Test
    void replay_textReport_listsConsequencesUnderTheirDeparture() throws Exception {
        Path recorded = RecordedPair.record(dir.resolve("trace"), ":quirk=accept-reset-to-rts");
        MainTest.Run run = MainTest.run("replay", recorded.toString(), "--soft", "--out", dir.resolve("again").toString());

        assertThat(run.code()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("1 departure (+").contains("TC02 ibv_modify_qp: your device accepted RESET→RTS")
                .contains("      then #").contains("result: the replay departs from the recording (2 departures)");
    }

    @Test
    void replay_missingFolder_isAnEnvironmentError() {
        MainTest.Run run = MainTest.run("replay", dir.resolve("nothing").toString(), "--soft");
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).startsWith("rdmatrace replay: ").contains("no such folder");
    }

    @Test
    void replay_folderWithoutTrace_isUnusableInput() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        MainTest.Run run = MainTest.run("replay", dir.resolve("empty").toString(), "--soft", "--out", dir.resolve("o").toString());
        assertThat(run.code()).as("unusable input: 2, as in analyze and diff").isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).startsWith("rdmatrace replay: ").contains("no trace found");
    }

    @Test
    void replay_noTraceArgument_isAUsageError() {
        MainTest.Run run = MainTest.run("replay", "--soft");
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("TRACE");
    }
}
