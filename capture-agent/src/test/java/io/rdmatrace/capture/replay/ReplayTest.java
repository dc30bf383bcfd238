package io.rdmatrace.capture.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.capture.replay.Divergence.Kind;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * Real captures (two capture agents on softverbs devices, optionally with a firmware personality)
 * replayed on the reference softverbs, each host in its own process.
 */
class ReplayTest {
    @TempDir
    Path dir;

    private ReplayResult captureAndReplay(String personality) throws Exception {
        Path recorded = dir.resolve("recorded");
        SoftverbsCapture.run(recorded, personality);
        return ReplayRunner.run(new ReplayRunner.Options(recorded, VerbsLibrary.bundledSoftverbs(), dir.resolve("replayed"),
                Duration.ofSeconds(5), Duration.ofSeconds(60), "test", "rdmatrace replay recorded --soft"));
    }

    @Test
    void replay_cleanCapture_noDivergenceAndANewTraceOfTheSameCalls() throws Exception {
        ReplayResult result = captureAndReplay("");

        assertThat(result.onReference()).isTrue();
        assertThat(result.hosts()).extracting(HostReplayReport::host).containsExactly("host-a", "host-b");
        for (HostReplayReport h : result.hosts()) {
            assertThat(h.failure()).as(h.host() + " ran to the end").isNull();
            assertThat(h.divergences()).as(h.host() + " divergences").isEmpty();
            assertThat(h.callsReplayed()).isGreaterThan(20);
            assertThat(h.completionsCompared()).as("SEND and RECV completions").isGreaterThanOrEqualTo(2);
        }
        assertThat(result.diverged()).isFalse();

        // the replay was recorded: same hosts, the same verbs in the same order, fresh exchange both ways
        TraceSet replayed = TraceSet.discover(dir.resolve("replayed"));
        assertThat(replayed.hostIds()).containsExactly("host-a", "host-b");
        for (String host : List.of("host-a", "host-b")) {
            TraceReader.Result before = TraceReader.readAll(dir.resolve("recorded").resolve(host));
            TraceReader.Result after = TraceReader.readAll(dir.resolve("replayed").resolve(host));
            assertThat(after.outcome().isClean()).isTrue();
            assertThat(controlVerbs(after)).isEqualTo(controlVerbs(before));
            assertThat(after.events().stream().filter(e -> e instanceof CompletionEvent).count())
                    .isEqualTo(before.events().stream().filter(e -> e instanceof CompletionEvent).count());
            assertThat(after.events().stream().filter(e -> e instanceof OobEvent o && o.oobKind() == OobEvent.Kind.PARAMS))
                    .hasSize(2);
            assertThat(after.session().overrides()).containsEntry("replay-of", host);
        }
    }

    @Test
    void replay_captureFromAcceptResetToRtsFirmware_reportsExactlyThePlantedDeparture() throws Exception {
        ReplayResult result = captureAndReplay(":quirk=accept-reset-to-rts");

        assertThat(result.diverged()).isTrue();
        for (HostReplayReport h : result.hosts()) {
            assertThat(h.failure()).as(h.host() + " ran to the end").isNull();
            List<Divergence> departures = h.divergences().stream().filter(Divergence::isDeparture).toList();
            assertThat(departures).as(h.host() + " departures").hasSize(1);
            Divergence d = departures.get(0);
            assertThat(d.verb()).isEqualTo("ibv_modify_qp");
            assertThat(d.kind()).isEqualTo(Kind.NOW_FAILS);
            assertThat(d.step()).isEqualTo("TC02");
            assertThat(d.replayed()).isEqualTo("EINVAL");
            assertThat(d.message()).isEqualTo("your device accepted RESET→RTS; the reference refuses it (EINVAL)");
            // everything else that differs on this host follows from it (the QP is in another state)
            assertThat(h.divergences()).allMatch(x -> x.isDeparture() || x.causeSeq() == d.seq());
        }
    }

    @Test
    void replay_captureFromCapsPow2Firmware_reportsOnlyTheGrantedSizes() throws Exception {
        ReplayResult result = captureAndReplay(":quirk=caps-pow2");

        for (HostReplayReport h : result.hosts()) {
            assertThat(h.failure()).isNull();
            assertThat(h.divergences()).as(h.host()).isNotEmpty().allMatch(Divergence::isDeparture)
                    .allMatch(d -> d.kind() == Kind.VALUE);
            assertThat(h.divergences().stream().map(d -> d.verb() + " " + d.field()).collect(Collectors.toSet()))
                    .contains("ibv_create_cq cqe")
                    .allMatch(s -> s.equals("ibv_create_cq cqe") || s.startsWith("ibv_create_qp max_"));
            // a granted size that every later ibv_query_qp repeats is reported once, with its repeats
            assertThat(h.divergences().stream().filter(d -> d.verb().equals("ibv_create_qp")))
                    .anyMatch(d -> !d.repeats().isEmpty());
        }
    }

    @Test
    void replay_oneHostOfAPair_controlPathInThisProcessAndANote() throws Exception {
        Path recorded = dir.resolve("recorded");
        SoftverbsCapture.run(recorded, "");
        ReplayResult result = ReplayRunner.run(new ReplayRunner.Options(recorded.resolve("host-b"),
                VerbsLibrary.bundledSoftverbs(), dir.resolve("alone"), Duration.ofSeconds(5), Duration.ofSeconds(60), "test",
                "rdmatrace replay recorded/host-b --soft"));

        HostReplayReport h = result.hosts().get(0);
        assertThat(result.hosts()).hasSize(1);
        assertThat(h.failure()).isNull();
        assertThat(h.divergences()).isEmpty();
        assertThat(h.completionsCompared()).isZero();
        assertThat(h.notes()).contains("out-of-band messages not replayed: the trace holds no peer to exchange with",
                "data path not replayed (posts, polls, completions): the recorded peer is not part of the trace");
        TraceReader.Result alone = TraceReader.readAll(dir.resolve("alone").resolve("host-b"));
        assertThat(alone.events().stream().filter(e -> e instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP))
                .hasSize(4); // the refused RESET→RTS probe, then INIT, RTR, RTS
    }

    private static List<Verb> controlVerbs(TraceReader.Result trace) {
        return trace.events().stream().filter(e -> e instanceof CallEvent).map(e -> ((CallEvent) e).verb())
                .filter(v -> v != Verb.IBV_POLL_CQ && v != Verb.IBV_GET_ASYNC_EVENT).toList();
    }
}
