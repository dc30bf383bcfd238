package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.Capture;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;

/**
 * limit-exceeded: a failed create/modify whose requested value is above the device's limit (the
 * SESSION's device attributes: max_qp_wr 16384, max_sge 32, max_cqe 32767; softverbs' inline 512),
 * or above a field's width; and verb-failed listing what was checked when no limit explains it.
 */
class LimitRulesTest {

    @Test
    void inlineAboveTheDevice_andCqeAboveMaxCqe_namedWithFieldValueLimitAndDevice() throws Exception {
        AnalysisResult r = withFailedCalls(createQp(900, 64), createCq(40000));
        assertThat(Analysis.rows(r, "limit-exceeded")).containsExactly(
                "host-a|-|[host-a#" + seq(1) + "]|ibv_create_cq on host-a asked for cqe 40000 > this device's 32767 (max_cqe of sv-host-a); the device refuses the call",
                "host-a|-|[host-a#" + seq(0) + "]|ibv_create_qp on host-a asked for max_inline_data 900 > this device's 512 (sv-host-a, softverbs); the device refuses the call");
        assertThat(Analysis.rows(r, "verb-failed")).anyMatch(row -> row.endsWith(
                "ibv_create_qp on host-a failed: EINVAL (22); likely cause: max_inline_data 900 > 512 (limit-exceeded)"));
        // the cause heads the report, the refusal under it
        assertThat(r.diagnosis().rootCause()).hasValueSatisfying(f -> assertThat(f.ruleId()).isEqualTo("limit-exceeded"));
    }

    @Test
    void withinEveryLimit_noFinding_andVerbFailedSaysWhatWasChecked() throws Exception {
        AnalysisResult r = withFailedCalls(createQp(100, 64));
        assertThat(Analysis.rows(r, "limit-exceeded")).isEmpty();
        assertThat(Analysis.rows(r, "verb-failed")).singleElement().asString().endsWith(
                "likely cause: no specific cause found in the trace; within the limits: max_inline_data 100 <= 512, "
                        + "max_recv_sge 1 <= 32, max_recv_wr 64 <= 16384, max_send_sge 1 <= 32, max_send_wr 64 <= 16384");
    }

    /** retry_cnt 9 and timeout 40 do not fit their fields; max_rd_atomic's limit is not in this SESSION: not judged. */
    @Test
    void modifyAboveAFieldsWidth() throws Exception {
        Capture c = new Capture();
        // IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_MAX_QP_RD_ATOMIC, refused with EINVAL
        c.a().modifyInRts(0x2601, 22, Attr.TIMEOUT.code(), 40, Attr.RETRY_CNT.code(), 9, Attr.MAX_RD_ATOMIC.code(), 200);
        AnalysisResult r = Analysis.run(c);
        assertThat(Analysis.rows(r, "limit-exceeded")).extracting(row -> row.substring(row.lastIndexOf('|') + 1)).containsExactly(
                "ibv_modify_qp on host-a QP 0x000011 asked for retry_cnt 9 > 7 (the largest value of its 3-bit field); the device refuses the call",
                "ibv_modify_qp on host-a QP 0x000011 asked for timeout 40 > 31 (the largest value of its 5-bit field); the device refuses the call");
    }

    private static long seq(int extra) {
        return base().size() - 1 + extra; // the calls replace the END, in order
    }

    private static List<TraceEvent> base() {
        return new Capture().build().a();
    }

    private static CallEvent createQp(long inline, long depth) {
        Attrs in = Attrs.builder().put(Attr.QP_TYPE, 2).put(Attr.MAX_SEND_WR, depth).put(Attr.MAX_RECV_WR, depth)
                .put(Attr.MAX_SEND_SGE, 1).put(Attr.MAX_RECV_SGE, 1).put(Attr.MAX_INLINE_DATA, inline).build();
        return new CallEvent(header(0), Verb.IBV_CREATE_QP, 0, -1, 22, 2_000, in, Attrs.EMPTY);
    }

    private static CallEvent createCq(long cqe) {
        return new CallEvent(header(0), Verb.IBV_CREATE_CQ, 0, -1, 22, 2_000, Attrs.builder().put(Attr.CQE, cqe).build(),
                Attrs.EMPTY);
    }

    /**
     * A softverbs device with a profile (here irdma's identity and limits) has the profile's inline
     * limit, not rxe's: 200 is within 512 but above the E810's 101.
     */
    @Test
    void inlineOnAProfiledSoftverbsDevice_isJudgedAgainstTheProfilesLimit() throws Exception {
        Capture c = new Capture();
        c.a().deviceAttr(Attr.VENDOR_ID, 0x8086).deviceAttr(Attr.VENDOR_PART_ID, 5522)
                .deviceAttr(Attr.MAX_QP_WR, 8127).deviceAttr(Attr.MAX_SGE, 6);
        AnalysisResult r = withFailedCalls(c, createQp(200, 64));
        assertThat(Analysis.rows(r, "limit-exceeded")).extracting(row -> row.substring(row.lastIndexOf('|') + 1))
                .containsExactly("ibv_create_qp on host-a asked for max_inline_data 200 > this device's 101 "
                        + "(sv-host-a, vendor 0x008086 part 5522, softverbs profile irdma); the device refuses the call");
    }

    /**
     * rd-atomic-budget: host-a's QP holds 4 responder resources (max_dest_rd_atomic at RTR, never
     * destroyed) when a second QP asks for 4 more at RTR on a device with max_res_rd_atom 6: the
     * device refuses it (ENOMEM), and the finding names both amounts and the budget.
     */
    @Test
    void responderResourcesAcrossQps_aboveMaxResRdAtom_namedOnTheModifyPastTheBudget() throws Exception {
        assertThat(Analysis.rows(budgetCase(6), "rd-atomic-budget")).extracting(row -> row.substring(row.lastIndexOf('|') + 1))
                .containsExactly("host-a QP 0x000012 asked for max_dest_rd_atomic 4 while 1 other QP(s) of sv-host-a held 4: "
                        + "8 responder resources > the device's 6 (max_res_rd_atom); the modify failed");
    }

    /** Within the budget (8), or a device that reports none (0, as irdma and bnxt_re do): no finding. */
    @Test
    void responderResourcesWithinTheBudgetOrNoBudget_noFinding() throws Exception {
        assertThat(Analysis.rows(budgetCase(8), "rd-atomic-budget")).isEmpty();
        assertThat(Analysis.rows(budgetCase(0), "rd-atomic-budget")).isEmpty();
    }

    private static AnalysisResult budgetCase(long maxResRdAtom) throws Exception {
        Capture c = new Capture();
        c.a().maxDestRdAtomic(4).noDestroy().deviceAttr(Attr.MAX_RES_RD_ATOM, maxResRdAtom);
        long qp2 = 0x7000;
        CallEvent create = new CallEvent(header(0), Verb.IBV_CREATE_QP, qp2, 0, 0, 2_000,
                Attrs.builder().put(Attr.QP_TYPE, 2).put(Attr.MAX_SEND_WR, 16).put(Attr.MAX_RECV_WR, 16).build(),
                Attrs.builder().put(Attr.QP_NUM, 0x12).build());
        // IBV_QP_STATE | IBV_QP_MAX_DEST_RD_ATOMIC to RTR, refused with ENOMEM
        CallEvent rtr = new CallEvent(header(0), Verb.IBV_MODIFY_QP, qp2, 12, 12, 2_000, Attrs.builder()
                .put(Attr.QP_STATE, 2).put(Attr.MAX_DEST_RD_ATOMIC, 4).put(Attr.QP_NUM, 0x12).put(Attr.ATTR_MASK, 0x20001).build(),
                Attrs.EMPTY);
        return withFailedCalls(c, create, rtr);
    }

    /** _softverbs_inline (82_limits.sql) says what sv_profile.c says for every profile but rxe (the default). */
    @Test
    void softverbsInlineTable_agreesWithTheProfileTable() throws Exception {
        String root = System.getProperty("rdmatrace.repo.root");
        Path repo = root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
        String c = Files.readString(repo.resolve("softverbs/src/main/c/softverbs/sv_profile.c"));
        Matcher m = Pattern.compile("\\{\"(\\w+)\", \"[^\"]*\", (0x[0-9A-Fa-f]+), (0x[0-9A-Fa-f]+|\\d+), \\d+, \\w+,\\s*"
                + "\\{\\.max_qp_wr = (\\w+), \\.max_sge = (\\w+), \\.max_inline = (\\w+),").matcher(c);
        List<String> fromC = new ArrayList<>();
        while (m.find()) {
            if (!m.group(1).equals("rxe")) {
                fromC.add(m.group(1) + "|" + Long.decode(m.group(2)) + "|" + Long.decode(m.group(3)) + "|" + m.group(4)
                        + "|" + m.group(5) + "|" + m.group(6));
            }
        }
        assertThat(fromC).as("profiles parsed from sv_profile.c").hasSizeGreaterThanOrEqualTo(3);
        List<String> fromSql = new ArrayList<>();
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.loadEvents(Capture.A, base());
            db.finishLoading();
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery("SELECT profile, vendor_id, vendor_part_id, max_qp_wr, max_sge, max_inline "
                            + "FROM _softverbs_inline ORDER BY profile")) {
                while (rs.next()) {
                    fromSql.add(rs.getString(1) + "|" + rs.getLong(2) + "|" + rs.getLong(3) + "|" + rs.getLong(4) + "|"
                            + rs.getLong(5) + "|" + rs.getLong(6));
                }
            }
        }
        assertThat(fromSql).containsExactlyInAnyOrderElementsOf(fromC);
    }

    /** host-a's clean capture with the calls (renumbered) appended before its END; host-b as it is. */
    private static AnalysisResult withFailedCalls(CallEvent... calls) throws Exception {
        return withFailedCalls(new Capture(), calls);
    }

    private static AnalysisResult withFailedCalls(Capture capture, CallEvent... calls) throws Exception {
        Capture.Events events = capture.build();
        List<TraceEvent> a = new ArrayList<>(events.a());
        EndEvent end = (EndEvent) a.remove(a.size() - 1);
        long seq = end.seq();
        for (CallEvent c : calls) {
            a.add(new CallEvent(header(seq++), c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out()));
        }
        a.add(new EndEvent(header(seq), seq, end.ending()));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            List<HostLoad> loads = List.of(db.loadEvents(Capture.A, a), db.loadEvents(Capture.B, events.b()));
            db.finishLoading();
            return Analyzer.analyze(db, new LoadReport(loads, List.of(), 0), RuleCatalog.builtin());
        }
    }

    private static EventHeader header(long seq) {
        return new EventHeader(seq, 1_000_000_000_000L + seq * 1000, 1_700_000_000_000_000_000L + seq * 1000, 4242, 1, "main");
    }
}
