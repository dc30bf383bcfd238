package io.rdmatrace.analyzer.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.synth.SyntheticTrace;
import io.rdmatrace.trace.synth.SyntheticTrace.Fault;
import io.rdmatrace.trace.synth.SyntheticTrace.Spec;

/**
 * Diffs of synthetic two-host captures written and read through the real trace format, loaded
 * into DuckDB by the analyzer: runs that differ only in PSNs, handles, keys and addresses are
 * equivalent; planted differences are listed, and only they.
 */
class TraceDiffTest {
    @TempDir
    static Path dir;

    static Path clean1;
    static Path clean2;
    static Path psnFault;

    @BeforeAll
    static void captures() throws Exception {
        clean1 = write("clean1", 1, Fault.NONE, "host-a", "host-b");
        clean2 = write("clean2", 2, Fault.NONE, "host-a", "host-b");
        psnFault = write("psn", 3, Fault.PSN_OFF_BY_ONE, "host-a", "host-b");
    }

    static Path write(String name, long seed, Fault fault, String hostA, String hostB) throws Exception {
        Path out = dir.resolve(name);
        SyntheticTrace.write(new Spec(out, hostA, hostB, 1, 120, seed, fault));
        return out;
    }

    /** Each capture is loaded once (loading is what costs; the comparison itself is cheap). */
    private static final Map<Path, List<HostEvents>> LOADED = new HashMap<>();

    static List<HostEvents> read(Path p) throws Exception {
        List<HostEvents> hosts = LOADED.get(p);
        if (hosts == null) {
            hosts = DiffInput.read(p);
            LOADED.put(p, hosts);
        }
        return hosts;
    }

    static DiffReport diff(Path a, Path b, DiffOptions options) throws Exception {
        return TraceDiff.compare(a.toString(), read(a), b.toString(), read(b), options);
    }

    /** (category role what field a→b ×sites) per difference, for exact comparison. */
    static Set<String> summary(DiffReport r) {
        return r.differences().stream().map(d -> d.category() + " " + d.role() + " " + d.what() + " " + d.field() + " "
                + d.a() + "→" + d.b() + " ×" + d.where().size()).collect(Collectors.toSet());
    }

    @Test
    void cleanCaptures_differentSeeds_equivalentAndNothingListed() throws Exception {
        DiffReport r = diff(clean1, clean2, DiffOptions.defaults());

        assertThat(r.differences()).as(DiffFormat.TEXT.render(r)).isEmpty();
        assertThat(r.equivalent()).isTrue();
        assertThat(r.pairedBy()).isEqualTo("role");
        assertThat(r.hosts()).containsExactly(new HostPair("listen", "host-a", "host-a"),
                new HostPair("connect", "host-b", "host-b"));
        // it did compare: every call and completion of both hosts had a site
        HostSites sites = SiteBuilder.build(read(clean1).get(0), "listen", DiffOptions.defaults());
        assertThat(sites.observations().stream().filter(o -> o.kind() == SiteKind.CALL).count()).isGreaterThan(40);
        assertThat(sites.observations().stream().filter(o -> o.kind() == SiteKind.COMPLETION).count()).isEqualTo(40);
        assertThat(r.latency()).extracting(LatencyComparison::verb).contains("ibv_post_send", "ibv_modify_qp");
        assertThat(r.latencyShifts()).isEmpty();
    }

    @Test
    void psnFault_listsFailedCompletionsAndVerdictsOnly() throws Exception {
        DiffReport r = diff(clean1, psnFault, DiffOptions.defaults());

        assertThat(summary(r)).as(DiffFormat.TEXT.render(r)).containsExactlyInAnyOrder(
                // B's first SEND exhausts its retries, the later ones are flushed
                "COMPLETION connect completion send wc_status IBV_WC_SUCCESS→IBV_WC_RETRY_EXC_ERR ×1",
                "COMPLETION connect completion send wc_status IBV_WC_SUCCESS→IBV_WC_WR_FLUSH_ERR ×19",
                // A receives nothing
                "COMPLETION listen completion recv presence present→absent ×20",
                "VERDICT listen verdict verdict PASS→FAIL ×1",
                "VERDICT connect verdict verdict PASS→FAIL ×1");
        assertThat(r.equivalent()).isFalse();
        assertThat(r.notes()).anyMatch(n -> n.contains("connect") && n.contains("--advertise-psn"));
    }

    @Test
    void plantedCapsAndFirmware_listedExactly() throws Exception {
        Path planted = dir.resolve("caps");
        TraceRewriter.rewrite(clean2, planted, TraceDiffTest::firmware020, TraceDiffTest::roundRecvWrOnConnect);

        DiffReport r = diff(clean1, planted, DiffOptions.defaults());

        assertThat(summary(r)).as(DiffFormat.TEXT.render(r)).containsExactlyInAnyOrder(
                "RETURNED connect ibv_create_qp out.max_recv_wr 16→32 ×1",
                // the query after every modify: the failed RESET→RTS probe, then INIT, RTR, RTS
                "RETURNED connect ibv_query_qp out.max_recv_wr 16→32 ×4",
                "IDENTITY listen device fw_ver 0.1.0→0.2.0 ×1",
                "IDENTITY connect device fw_ver 0.1.0→0.2.0 ×1",
                "IDENTITY listen ibv_query_device out.fw_ver 0.1.0→0.2.0 ×1",
                "IDENTITY connect ibv_query_device out.fw_ver 0.1.0→0.2.0 ×1");
        assertThat(r.behavioural()).hasSize(2);
        assertThat(r.differences().stream().filter(d -> d.what().equals("ibv_query_qp")).findFirst().orElseThrow().where())
                .extracting(Difference.Where::describe)
                .containsExactly("TC02 qp#1 ibv_query_qp #1 after ibv_modify_qp #1 (→ RTS)",
                        "TC03 qp#1 ibv_query_qp #1 after ibv_modify_qp #1 (→ INIT)",
                        "TC03 qp#1 ibv_query_qp #2 after ibv_modify_qp #2 (→ RTR)",
                        "TC03 qp#1 ibv_query_qp #3 after ibv_modify_qp #3 (→ RTS)");
    }

    @Test
    void firmwareOnly_isEquivalent() throws Exception {
        Path planted = dir.resolve("fw-only");
        TraceRewriter.rewrite(clean2, planted, TraceDiffTest::firmware020, (UnaryOperator<TraceEvent>) TraceDiffTest::firmware020);

        DiffReport r = diff(clean1, planted, DiffOptions.defaults());

        assertThat(r.differences()).isNotEmpty().allMatch(d -> d.category() == DiffCategory.IDENTITY);
        assertThat(r.equivalent()).isTrue();
    }

    @Test
    void vendorErrorPlanted_listedAlone_andIgnorable() throws Exception {
        Path planted = dir.resolve("vendor-err");
        TraceRewriter.rewrite(psnFault, planted, s -> s, (UnaryOperator<TraceEvent>) TraceDiffTest::vendorErr81);

        DiffReport r = diff(psnFault, planted, DiffOptions.defaults());

        assertThat(summary(r)).as(DiffFormat.TEXT.render(r)).containsExactly(
                "COMPLETION connect completion send vendor_err 0x0→0x81 ×20");
        DiffReport ignored = diff(psnFault, planted, DiffOptions.defaults().ignoring(List.of("vendor_err")));
        assertThat(ignored.differences()).isEmpty();
        assertThat(ignored.equivalent()).isTrue();
    }

    @Test
    void slowerPostSend_reportedAsLatencyShift_gatingOnlyWhenAsked() throws Exception {
        Path slow = dir.resolve("slow");
        TraceRewriter.rewrite(clean2, slow, s -> s, (UnaryOperator<TraceEvent>) e -> e instanceof CallEvent c && c.verb() == Verb.IBV_POST_SEND
                ? new CallEvent(c.header(), c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos() * 5, c.in(), c.out())
                : e);

        DiffReport r = diff(clean1, slow, DiffOptions.defaults());

        assertThat(r.differences()).isEmpty();
        assertThat(r.latencyShifts()).extracting(LatencyComparison::role, LatencyComparison::verb)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("listen", "ibv_post_send"),
                        org.assertj.core.groups.Tuple.tuple("connect", "ibv_post_send"));
        LatencyComparison shift = r.latencyShifts().get(0);
        assertThat(shift.ratio()).isEqualTo(5.0);
        assertThat(shift.samplesA()).isEqualTo(20);
        assertThat(r.equivalent()).isTrue();
        DiffReport gating = diff(clean1, slow, DiffOptions.defaults().withLatency(2.0, 20, 1000, true));
        assertThat(gating.equivalent()).isFalse();
        // too few calls to judge: one modify per transition
        assertThat(r.latency()).filteredOn(l -> l.verb().equals("ibv_modify_qp"))
                .allMatch(l -> l.verdict() == LatencyComparison.Verdict.TOO_FEW_SAMPLES);
    }

    @Test
    void hostsWithOtherIds_pairedByRole() throws Exception {
        Path renamed = write("renamed", 4, Fault.NONE, "alpha", "beta");

        DiffReport r = diff(clean1, renamed, DiffOptions.defaults());

        assertThat(r.hosts()).containsExactly(new HostPair("listen", "host-a", "alpha"),
                new HostPair("connect", "host-b", "beta"));
        // the synthetic device is named after its host: a context difference, not a behavioural one
        assertThat(r.differences()).isNotEmpty().allMatch(d -> d.field().endsWith("dev_name"));
        assertThat(r.equivalent()).isTrue();
    }

    @Test
    void oneHostFolder_pairedByOrder() throws Exception {
        DiffReport r = diff(clean1.resolve("host-b"), clean2.resolve("host-b"), DiffOptions.defaults());
        assertThat(r.hosts()).hasSize(1);
        assertThat(r.differences()).isEmpty();
    }

    @Test
    void missingInput_isUnusable() {
        assertThatThrownBy(() -> DiffInput.read(dir.resolve("nowhere")))
                .isInstanceOf(DiffInput.UnusableInputException.class).hasMessageContaining("nowhere");
    }

    @Test
    void unknownIgnoreField_refusedWithSuggestion() {
        assertThatThrownBy(() -> DiffOptions.defaults().ignoring(List.of("vendor_er")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did you mean")
                .hasMessageContaining("vendor_err");
        assertThat(DiffOptions.defaults().ignoring(List.of("keys", "out_max_send_wr", "latency")).comparesLatency()).isFalse();
    }

    // ---- what the tests plant --------------------------------------------------------------

    static SessionInfo firmware020(SessionInfo s) {
        return new SessionInfo(s.toolVersion(), s.hostId(), s.commandLine(), s.verbsLib(), s.scenario(), s.overrides(),
                s.device().toBuilder().put(Attr.FW_VER, "0.2.0").build(), s.ports(), s.gids());
    }

    static TraceEvent firmware020(TraceEvent e) {
        if (e instanceof CallEvent c && c.verb() == Verb.IBV_QUERY_DEVICE) {
            return withOut(c, c.out().toBuilder().put(Attr.FW_VER, "0.2.0").build());
        }
        return e;
    }

    /** A caps-rounding personality on the connecting host: 16 receive WRs granted as 32. */
    static TraceEvent roundRecvWrOnConnect(String host, TraceEvent e) {
        TraceEvent fw = firmware020(e);
        if (fw instanceof CallEvent c && (c.verb() == Verb.IBV_CREATE_QP || c.verb() == Verb.IBV_QUERY_QP)
                && host.equals("host-b") && c.out().has(Attr.MAX_RECV_WR)) {
            return withOut(c, c.out().toBuilder().put(Attr.MAX_RECV_WR, 32).build());
        }
        return fw;
    }

    static TraceEvent vendorErr81(TraceEvent e) {
        if (e instanceof CompletionEvent c && c.wc().status() != 0) {
            Wc w = c.wc();
            return new CompletionEvent(c.header(), c.cq(), new Wc(w.wrId(), w.status(), w.opcode(), 0x81, w.byteLen(),
                    w.immData(), w.qpNum(), w.srcQp(), w.wcFlags(), w.pkeyIndex(), w.slid(), w.sl(), w.dlidPathBits()));
        }
        return e;
    }

    private static CallEvent withOut(CallEvent c, Attrs out) {
        return new CallEvent(c.header(), c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), out);
    }
}
