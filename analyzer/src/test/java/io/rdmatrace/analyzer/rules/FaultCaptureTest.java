package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.Capture;
import io.rdmatrace.analyzer.fixture.Side;

/**
 * Diff tests of the rules, Perfetto style: one fault injected into an otherwise clean two-host
 * capture ({@link Capture}), then the exact findings of every rule. Each case is the positive
 * test of its rules and a negative test of all the others (they must stay silent);
 * {@link CleanCaptureTest} is the negative case of all of them. The rows are
 * "host|qp|evidence|message"; evidence is host#seq in the capture's deterministic numbering.
 */
class FaultCaptureTest {

    /** Findings other than the TC02 probe's expected refusal, as "rule host qp". */
    private static List<String> faults(AnalysisResult result) {
        assertThat(result.ruleProblems()).isEmpty();
        return result.findings().stream()
                .filter(f -> !(f.ruleId().equals("illegal-transition-rejected") && f.message().endsWith("(the TC02 probe: expected)")))
                .map(f -> f.ruleId() + " " + f.host() + " " + (f.qp() == null ? "-" : String.format("0x%06x", f.qp())))
                .collect(Collectors.toList());
    }

    /** B programs path MTU 4096 (port active at 1024), A 1024. */
    @Test
    void pathMtuOnOneSide() throws Exception {
        Capture c = new Capture();
        c.b().pathMtu(5).override("--path-mtu", "4096");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "path-mtu-exceeds-active host-b 0x000011",
                "path-mtu-mismatch host-b 0x000011");
        assertThat(Analysis.rows(r, "path-mtu-exceeds-active")).containsExactly(
                "host-b|0x000011|[host-b#0, host-b#15]|host-b QP 0x000011 uses path MTU 4096 (injected by --path-mtu 4096) but port 1 is active at 1024 bytes: larger packets never arrive");
        assertThat(Analysis.rows(r, "path-mtu-mismatch")).containsExactly(
                "host-b|0x000011|[host-a#15, host-b#15]|host-b QP 0x000011 uses path MTU 4096 (injected by --path-mtu 4096) but its peer host-a QP 0x000011 uses 1024: messages longer than 1024 bytes are dropped by the peer");
    }

    /** B advertises sq_psn + 1; its send fails with RETRY_EXC_ERR and it keeps posting. */
    @Test
    void advertisedPsnOffByOne() throws Exception {
        Capture c = new Capture();
        c.b().advertisePsn(0x2001).override("--advertise-psn", "+1").sendStatus(12).postsAfterError(2);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "completion-error host-b 0x000011",
                "psn-misaligned host-b 0x000011",
                "post-after-error host-b 0x000011");
        assertThat(Analysis.rows(r, "completion-error")).containsExactly(
                "host-b|0x000011|[host-a#15, host-b#17, host-b#23]|IBV_WC_RETRY_EXC_ERR (transport retry counter exceeded) on host-b QP 0x000011, wr_id 0x1 after 7 retries (retry_cnt) (2 flushed); likely: the PSNs do not line up [sq_psn 0x002000, peer rq_psn 0x002001]; other possible causes, not supported by this trace: the path MTU differs between the ends or exceeds the link; packets go to the wrong QP number or GID; the peer QP was not in RTR yet; the peer QP was in error or destroyed; the ACK timeout is too short; packets were lost on the link (a verbs trace cannot show this)");
        assertThat(Analysis.rows(r, "psn-misaligned")).containsExactly(
                "host-b|0x000011|[host-a#14, host-a#15, host-b#14, host-b#17]|host-b QP 0x000011 sends from PSN 0x002000 (sq_psn) but host-a QP 0x000011 expects 0x002001 (rq_psn): 1 behind, so the responder drops its packets as duplicates; host-b advertised 0x002001 out of band, not the PSN it uses (injected by --advertise-psn +1)");
        assertThat(Analysis.rows(r, "post-after-error")).containsExactly(
                "host-b|0x000011|[host-b#23, host-b#26]|2 work request(s) were posted to host-b QP 0x000011 after it entered the error state (completion IBV_WC_RETRY_EXC_ERR)");
    }

    /** A sends to QPN 0x99 instead of its peer. */
    @Test
    void wrongDestQpn() throws Exception {
        Capture c = new Capture();
        c.a().destQpn(0x99).override("--dest-qpn", "0x99").sendStatus(12);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "completion-error host-a 0x000011",
                "dest-qpn-mismatch host-a 0x000011");
        assertThat(Analysis.rows(r, "completion-error")).containsExactly(
                "host-a|0x000011|[host-a#15, host-a#23]|IBV_WC_RETRY_EXC_ERR (transport retry counter exceeded) on host-a QP 0x000011, wr_id 0x1 after 7 retries (retry_cnt); likely: packets go to the wrong QP number or GID [dest_qp_num 0x000099 but the peer is 0x000011]; other possible causes, not supported by this trace: the PSNs do not line up; the path MTU differs between the ends or exceeds the link; the peer QP was not in RTR yet; the peer QP was in error or destroyed; the ACK timeout is too short; packets were lost on the link (a verbs trace cannot show this)");
        assertThat(Analysis.rows(r, "dest-qpn-mismatch")).containsExactly(
                "host-a|0x000011|[host-a#14, host-a#15, host-b#5]|host-a QP 0x000011 sends to QPN 0x000099 (dest_qp_num) (injected by --dest-qpn 0x99) but its peer on host-b is QP 0x000011, as received out of band");
    }

    /** A uses P_Key index 3 on a 1-entry table (accepted). */
    @Test
    void pkeyIndexOutsideTable() throws Exception {
        Capture c = new Capture();
        c.a().pkeyIndex(3).override("--pkey-index", "3");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "pkey-index host-a 0x000011");
        assertThat(Analysis.rows(r, "pkey-index")).containsExactly(
                "host-a|0x000011|[host-a#0, host-a#10]|host-a QP 0x000011 uses P_Key index 3 (injected by --pkey-index 3) but port 1 has 1 P_Key entry (accepted)");
    }

    /** A gives an AV without GRH; INIT->RTR is refused, so B sends to a QP that never reaches RTR. */
    @Test
    void noGrhOnRoce() throws Exception {
        Capture c = new Capture();
        c.a().noGrh().rtrRet(22).override("--no-grh", "");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "grh-missing host-a 0x000011",
                "peer-not-ready host-b 0x000011",
                "verb-failed host-a 0x000011");
        assertThat(Analysis.rows(r, "grh-missing")).containsExactly(
                "host-a|0x000011|[host-a#0, host-a#15]|ibv_modify_qp on host-a QP 0x000011 gives an address vector without a GRH (is_global = 0) on RoCE port 1 (injected by --no-grh): refused with EINVAL");
        assertThat(Analysis.rows(r, "peer-not-ready")).containsExactly(
                "host-b|0x000011|[host-a#15, host-b#21]|host-b QP 0x000011 posted its first send but its peer host-a QP 0x000011 never reached RTR");
        assertThat(Analysis.rows(r, "verb-failed")).containsExactly(
                "host-a|0x000011|[host-a#15, host-a#16]|ibv_modify_qp on host-a QP 0x000011 failed: EINVAL (22); likely cause: the address vector has no GRH on a RoCE port (grh-missing)");
    }

    /** A sends from GID index 0, the link-local fe80:: entry. */
    @Test
    void linkLocalSourceGid() throws Exception {
        Capture c = new Capture();
        c.a().sgidIndex(0).override("--gid-index", "0");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "gid-index host-a 0x000011");
        assertThat(Analysis.rows(r, "gid-index")).containsExactly(
                "host-a|0x000011|[host-a#0, host-a#15]|host-a QP 0x000011 sends from GID index 0 (injected by --gid-index 0), the link-local GID fe80::1 (ROCE_V2); RoCE v2 needs the routable RoCE v2 GID of the interface");
    }

    /** A RDMA-WRITEs into B, whose MR and QP grant only local access. */
    @Test
    void rdmaWriteWithoutRemoteWrite() throws Exception {
        Capture c = new Capture();
        c.a().sendOpcode(0).sendStatus(10);
        c.b().override("--mr-access", "local");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "completion-error host-a 0x000011",
                "mr-access-missing host-b 0x000011",
                "mr-access-missing host-b 0x000011");
        assertThat(Analysis.rows(r, "completion-error")).containsExactly(
                "host-a|0x000011|[host-a#21, host-a#23, host-b#3, host-b#10]|IBV_WC_REM_ACCESS_ERR (remote access error) on host-a QP 0x000011, wr_id 0x1; likely: the peer MR lacks the remote access right [peer MR rkey 0x642 has IBV_ACCESS_LOCAL_WRITE]; the peer QP access flags do not allow the operation [peer qp_access_flags 0]; other possible causes, not supported by this trace: the rkey is not a registered MR of the peer; the remote address range is outside the peer MR");
        assertThat(Analysis.rows(r, "mr-access-missing")).containsExactly(
                "host-b|0x000011|[host-a#21, host-b#10]|host-a QP 0x000011 issued 1 RDMA WRITE(s) to host-b QP 0x000011 whose qp_access_flags are 0: it lacks IBV_ACCESS_REMOTE_WRITE",
                "host-b|0x000011|[host-a#21, host-b#3]|host-a QP 0x000011 issued 1 RDMA WRITE(s) to rkey 0x642, an MR of host-b registered with IBV_ACCESS_LOCAL_WRITE: it lacks IBV_ACCESS_REMOTE_WRITE (injected by --mr-access local)");
    }

    /** B registers REMOTE_WRITE|REMOTE_READ but A only SENDs. */
    @Test
    void mrGrantsUnusedRemoteAccess() throws Exception {
        Capture c = new Capture();
        c.b().mrAccess(0x7);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "mr-access-excess host-b -");
        assertThat(Analysis.rows(r, "mr-access-excess")).containsExactly(
                "host-b|-|[host-b#3]|host-b MR rkey 0x642 is registered with IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE|IBV_ACCESS_REMOTE_READ but no peer used IBV_ACCESS_REMOTE_WRITE|IBV_ACCESS_REMOTE_READ");
    }

    /** B never posts a receive; A (rnr_retry 0) fails with RNR_RETRY_EXC_ERR. */
    @Test
    void receiveNeverPosted() throws Exception {
        Capture c = new Capture();
        c.b().postRecv(Side.PostRecv.NEVER);
        c.a().rnrRetry(0).sendStatus(13);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "completion-error host-a 0x000011",
                "recv-not-posted host-b 0x000011",
                "rnr-config host-a 0x000011");
        assertThat(Analysis.rows(r, "completion-error")).containsExactly(
                "host-a|0x000011|[host-a#17, host-a#21, host-a#23]|IBV_WC_RNR_RETRY_EXC_ERR (RNR retry counter exceeded) on host-a QP 0x000011, wr_id 0x1 after 0 RNR retries (rnr_retry); likely: the peer had no receive posted [the peer never posted a receive]; rnr_retry is too small to wait for the receiver [rnr_retry 0]");
        assertThat(Analysis.rows(r, "recv-not-posted")).containsExactly(
                "host-b|0x000011|[host-a#21]|host-b QP 0x000011 never posted a receive, but its peer host-a QP 0x000011 sent a message that needs one");
        assertThat(Analysis.rows(r, "rnr-config")).containsExactly(
                "host-a|0x000011|[host-a#17, host-a#23]|host-a QP 0x000011 has rnr_retry 0 and its send failed with IBV_WC_RNR_RETRY_EXC_ERR: it gave up after 0 RNR retries");
    }

    /** B posts its receive 10 ms after A sent. */
    @Test
    void receivePostedLate() throws Exception {
        Capture c = new Capture();
        c.b().postRecv(Side.PostRecv.AFTER_PEER_SEND);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "recv-not-posted host-b 0x000011");
        assertThat(Analysis.rows(r, "recv-not-posted")).containsExactly(
                "host-b|0x000011|[host-a#21, host-b#20]|host-b QP 0x000011 posted its first receive 10.001 ms after host-a QP 0x000011 sent a message that needs one");
    }

    /** Both QPs receive from an SRQ (ibv_srq_pingpong's shape): the SRQ's receives count, nothing is reported. */
    @Test
    void receivesFromAnSrq_clean() throws Exception {
        Capture c = new Capture();
        c.a().srq();
        c.b().srq();
        assertThat(faults(Analysis.run(c))).isEmpty();
    }

    /** B's QP receives from an SRQ that gets its first receive 10 ms after A sent. */
    @Test
    void srqReceivePostedLate() throws Exception {
        Capture c = new Capture();
        c.b().srq().postRecv(Side.PostRecv.AFTER_PEER_SEND);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly("recv-not-posted host-b 0x000011");
        assertThat(Analysis.rows(r, "recv-not-posted")).singleElement().asString()
                .startsWith("host-b|0x000011|[host-a#21, host-b#21]|host-b QP 0x000011 got its first receive (posted to its SRQ) 10.001 ms after host-a QP 0x000011 sent a message that needs one");
    }

    /** B moves to RTR 10 ms after A sent. */
    @Test
    void peerNotInRtrYet() throws Exception {
        Capture c = new Capture();
        c.b().rtrDelayNanos(10_000_000).override("--delay-rtr", "10");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "peer-not-ready host-a 0x000011");
        assertThat(Analysis.rows(r, "peer-not-ready")).containsExactly(
                "host-a|0x000011|[host-a#21, host-b#17]|host-a QP 0x000011 posted its first send 10.001 ms before its peer host-b QP 0x000011 reached RTR (injected by --delay-rtr 10)");
    }

    /** A's CQ has 8 entries for 16 send + 16 receive WRs. */
    @Test
    void cqSmallerThanQueues() throws Exception {
        Capture c = new Capture();
        c.a().cqe(8).override("--cq-depth", "8");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "cq-undersized host-a 0x000011");
        assertThat(Analysis.rows(r, "cq-undersized")).containsExactly(
                "host-a|0x000011|[host-a#4, host-a#5]|host-a CQ 0x50000300 has 8 entries but its 1 QP(s) can have 32 work requests outstanding (injected by --cq-depth 8)");
    }

    /** IBV_EVENT_CQ_ERR on A's CQ. */
    @Test
    void cqOverflowEvent() throws Exception {
        Capture c = new Capture();
        c.a().cqOverflow();
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "cq-overflow host-a 0x000011");
        assertThat(Analysis.rows(r, "cq-overflow")).containsExactly(
                "host-a|0x000011|[host-a#4, host-a#26]|IBV_EVENT_CQ_ERR on host-a CQ 0x50000300 (64 entries), used by QP 0x000011: completions were lost");
    }

    /** ibv_post_send fails with ENOMEM. */
    @Test
    void sendQueueFull() throws Exception {
        Capture c = new Capture();
        c.a().sqDepth(1).postSendErrno(12).override("--sq-depth", "1");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "queue-full host-a 0x000011",
                "verb-failed host-a 0x000011");
        assertThat(Analysis.rows(r, "queue-full")).containsExactly(
                "host-a|0x000011|[host-a#5, host-a#21]|1 ibv_post_send call(s) on host-a QP 0x000011 failed with ENOMEM: the send queue holds 1 work requests (injected by --sq-depth 1)");
        assertThat(Analysis.rows(r, "verb-failed")).containsExactly(
                "host-a|0x000011|[host-a#21]|ibv_post_send on host-a QP 0x000011 failed: ENOMEM (12); likely cause: the send queue is full (queue-full)");
    }

    /** A's device accepts RESET->RTS (and then RTS->INIT). */
    @Test
    void illegalTransitionAccepted() throws Exception {
        Capture c = new Capture();
        c.a().probeRet(0);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "illegal-transition-accepted host-a 0x000011",
                "illegal-transition-accepted host-a 0x000011",
                "step-failed host-a -"); // its TC02 recorded FAIL: the probe was not refused
        assertThat(Analysis.rows(r, "illegal-transition-accepted")).containsExactly(
                "host-a|0x000011|[host-a#7, host-a#8]|ibv_modify_qp RESET->RTS on RC QP 0x000011 returned 0 and the QP is now RTS; RESET->RTS is not a legal transition",
                "host-a|0x000011|[host-a#10, host-a#11]|ibv_modify_qp RTS->INIT on RC QP 0x000011 returned 0 and the QP is now INIT; RTS->INIT is not a legal transition");
    }

    /** RTS->RTS with IBV_QP_PATH_MTU, refused. */
    @Test
    void forbiddenMaskBitInRts() throws Exception {
        Capture c = new Capture();
        c.a().modifyInRts(0x101, 22, 131, 3, 133, 5).override("--modify-in-rts", "PATH_MTU");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "illegal-attr-mask host-a 0x000011",
                "verb-failed host-a 0x000011");
        assertThat(Analysis.rows(r, "illegal-attr-mask")).containsExactly(
                "host-a|0x000011|[host-a#26, host-a#27]|ibv_modify_qp RTS->RTS on RC QP 0x000011 with mask IBV_QP_STATE|IBV_QP_PATH_MTU sets IBV_QP_PATH_MTU, not allowed for RTS->RTS on RC (injected by --modify-in-rts PATH_MTU): refused with EINVAL");
        assertThat(Analysis.rows(r, "verb-failed")).containsExactly(
                "host-a|0x000011|[host-a#26, host-a#27]|ibv_modify_qp on host-a QP 0x000011 failed: EINVAL (22); likely cause: the mask sets IBV_QP_PATH_MTU, not allowed for RTS->RTS (illegal-attr-mask)");
    }

    /** The query reports max_rd_atomic 4 after 1 was set; min_rnr_timer changes in RTS. */
    @Test
    void deviceRewritesAndLiveChange() throws Exception {
        Capture c = new Capture();
        c.a().queryReports("max_rd_atomic", 4).modifyInRts(0x8001, 0, 131, 3, 145, 1);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "attr-rewritten host-a 0x000011",
                "attr-rewritten host-a 0x000011");
        assertThat(Analysis.rows(r, "attr-rewritten")).containsExactly(
                "host-a|0x000011|[host-a#17, host-a#18]|ibv_modify_qp RTR->RTS on QP 0x000011 set max_rd_atomic = 1 but ibv_query_qp returned 4",
                "host-a|0x000011|[host-a#15, host-a#26]|ibv_modify_qp RTS->RTS on QP 0x000011 changed min_rnr_timer from 12 to 1 while the connection was live");
    }

    /** A asks for min_rnr_timer 0 (655 ms). */
    @Test
    void minRnrTimerZero() throws Exception {
        Capture c = new Capture();
        c.a().minRnrTimer(0);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "rnr-config host-a 0x000011");
        assertThat(Analysis.rows(r, "rnr-config")).containsExactly(
                "host-a|0x000011|[host-a#15]|host-a QP 0x000011 has min_rnr_timer 0: senders wait 655.36 ms after every RNR NAK");
    }

    /** B sent 12 RNR NAKs while A retries forever (rnr_retry 7). */
    @Test
    void infiniteRnrRetryHidesNaks() throws Exception {
        Capture c = new Capture();
        c.b().rnrNaksCounted(12);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "rnr-config host-a 0x000011");
        assertThat(Analysis.rows(r, "rnr-config")).containsExactly(
                "host-a|0x000011|[host-a#17, host-b#27]|host-a QP 0x000011 has rnr_retry 7 (retry forever) and host-b counted 12 RNR event(s) (rnr_nak_sent): a receiver that falls behind stalls this sender instead of failing");
    }

    /** A disables the retransmit timer. */
    @Test
    void ackTimeoutZero() throws Exception {
        Capture c = new Capture();
        c.a().timeout(0).override("--timeout", "0");
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "timeout-config host-a 0x000011");
        assertThat(Analysis.rows(r, "timeout-config")).containsExactly(
                "host-a|0x000011|[host-a#17]|host-a QP 0x000011 has ACK timeout 0 (no retransmit timer: a lost packet hangs the QP) (injected by --timeout 0)");
    }

    /** ibv_reg_mr with REMOTE_WRITE only fails. */
    @Test
    void regMrRemoteWriteWithoutLocalWrite() throws Exception {
        Capture c = new Capture();
        c.a().mrAccess(0x2).regMrRet(-1);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "verb-failed host-a -");
        assertThat(Analysis.rows(r, "verb-failed")).containsExactly(
                "host-a|-|[host-a#3]|ibv_reg_mr on host-a failed: EINVAL (22); likely cause: remote write/atomic access needs IBV_ACCESS_LOCAL_WRITE too (IBV_ACCESS_REMOTE_WRITE)");
    }

    /** A exits cleanly without destroying anything. */
    @Test
    void objectsNeverDestroyed() throws Exception {
        Capture c = new Capture();
        c.a().noDestroy();
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "resource-leak host-a -",
                "resource-leak host-a -",
                "resource-leak host-a -",
                "resource-leak host-a -",
                "resource-leak host-a 0x000011");
        assertThat(Analysis.rows(r, "resource-leak")).containsExactly(
                "host-a|-|[host-a#1]|host-a CONTEXT (handle 0x50000010) was never destroyed",
                "host-a|-|[host-a#4]|host-a CQ (handle 0x50000300) was never destroyed",
                "host-a|-|[host-a#3]|host-a MR (handle 0x50000200) was never destroyed",
                "host-a|-|[host-a#2]|host-a PD (handle 0x50000100) was never destroyed",
                "host-a|0x000011|[host-a#5]|host-a QP 0x000011 (handle 0x50000400) was never destroyed");
    }

    /** B's trace stops without an END event. */
    @Test
    void traceWithoutEnd() throws Exception {
        Capture c = new Capture();
        c.b().noEnd().noDestroy();
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly(
                "trace-truncated host-b -");
        assertThat(Analysis.rows(r, "trace-truncated")).containsExactly(
                "host-b|-|[host-b#25]|TRUNCATED: host-b: 26 events from memory");
    }

    /** Only host A's folder is analysed: the missing peer is itself the finding. */
    @Test
    void onlyOneHostLoaded() throws Exception {
        AnalysisResult r = Analysis.run(new Capture(), Capture.A);
        assertThat(faults(r)).containsExactly("host-missing host-a -");
        assertThat(Analysis.rows(r, "host-missing")).containsExactly(
                "host-a|-|[host-a#13]|host-a exchanged 4 out-of-band message(s) with 127.0.0.2:18515 but no loaded trace is that peer");
    }

    /** B's program exits 1 by itself after a clean bring-up (perftest's own GID check); A exits 0. */
    @Test
    void programExitedNonZeroWithoutAFailedCall() throws Exception {
        Capture c = new Capture();
        c.a().exited(0);
        c.b().exited(1);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly("program-failed host-b -");
        assertThat(Analysis.rows(r, "program-failed")).singleElement().asString()
                .startsWith("host-b|-|[host-b#")
                .contains("|rdmatrace on host-b exited 1 after its last verbs call ibv_")
                .contains(", with no failed verbs call")
                .endsWith("; the cause is not in the trace: read the program's own error output");
        java.io.StringWriter text = new java.io.StringWriter();
        try (java.io.PrintWriter out = new java.io.PrintWriter(text)) {
            io.rdmatrace.analyzer.report.ReportFormat.TEXT.writer().write(r, io.rdmatrace.analyzer.report.ReportOptions.DEFAULT, out);
        }
        assertThat(text.toString()).as("no packets were sent: the headline does not ask for them")
                .contains("No cause found in this trace for: rdmatrace on host-b exited 1")
                .contains("The program's own error output names the check it failed")
                .doesNotContain("capture the packets");
    }

    /** A's RTR is refused (its program exits 1); B exits 1 with no failed call of its own: it lost its peer. */
    @Test
    void programExitedNonZeroAfterThePeersCallFailed_namesThePeersFailure() throws Exception {
        Capture c = new Capture();
        c.a().noGrh().rtrRet(22).exited(1);
        c.b().exited(1);
        assertThat(Analysis.rows(Analysis.run(c), "program-failed")).singleElement().asString()
                .startsWith("host-b|-|")
                .endsWith("; its peer failed first: host-a's ibv_modify_qp (EINVAL), and this program gave up without its peer");
    }

    /** An exit status with a failed verbs call is verb-failed's to explain; exit 0 is no finding. */
    @Test
    void programExit_negative() throws Exception {
        Capture failed = new Capture();
        failed.a().noGrh().rtrRet(22).exited(1);
        assertThat(faults(Analysis.run(failed))).doesNotContain("program-failed host-a -").contains("verb-failed host-a 0x000011");
        Capture clean = new Capture();
        clean.a().exited(0);
        clean.b().exited(0);
        assertThat(faults(Analysis.run(clean))).isEmpty();
    }

    /** B posts 32-byte receive buffers; A sends 64-byte messages. Equal sizes are fine. */
    @Test
    void receiveBufferSmallerThanThePeersMessages() throws Exception {
        Capture c = new Capture();
        c.b().recvLength(32);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).contains("recv-buffer-small host-b 0x000011").doesNotContain("recv-buffer-small host-a 0x000011");
        assertThat(Analysis.rows(r, "recv-buffer-small")).singleElement().asString().endsWith(
                "|host-b QP 0x000011 posted receive buffers of at most 32 bytes, but its peer host-a QP 0x000011 sends messages of 64 bytes; "
                        + "the receive completes with IBV_WC_LOC_LEN_ERR and the sender gets IBV_WC_REM_INV_REQ_ERR");
        Capture exact = new Capture();
        exact.b().recvLength(64);
        assertThat(faults(Analysis.run(exact))).isEmpty();
    }

    /** A reads with 8 outstanding (max_rd_atomic) against B's 4 (max_dest_rd_atomic); without a READ posted it is not judged. */
    @Test
    void rdAtomicDepthAbovePeersResponderResources() throws Exception {
        Capture c = new Capture();
        c.a().maxRdAtomic(8).sendOpcode(4);
        c.b().maxDestRdAtomic(4).mrAccess(0x5);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).contains("rd-atomic-mismatch host-a 0x000011").doesNotContain("rd-atomic-mismatch host-b 0x000011");
        assertThat(Analysis.rows(r, "rd-atomic-mismatch")).singleElement().asString().endsWith(
                "|host-a QP 0x000011 may have 8 RDMA READ/atomic requests outstanding (max_rd_atomic) but its peer host-b QP 0x000011 "
                        + "accepts 4 (max_dest_rd_atomic); requests beyond 4 are refused with NAK invalid request");
        Capture sends = new Capture();
        sends.a().maxRdAtomic(8);
        sends.b().maxDestRdAtomic(4);
        assertThat(faults(Analysis.run(sends))).doesNotContain("rd-atomic-mismatch host-a 0x000011");
    }

    /** B sends with traffic class 106, A sets none (0): a warning on B with both; both 106 is no finding. */
    @Test
    void trafficClassOnOneSide() throws Exception {
        Capture c = new Capture();
        c.b().trafficClass(106);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly("traffic-class-mismatch host-b 0x000011");
        assertThat(Analysis.rows(r, "traffic-class-mismatch")).containsExactly(
                "host-b|0x000011|[host-a#15, host-b#15]|host-b QP 0x000011 sends with traffic class 106 (DSCP 26) but its peer host-a QP 0x000011 with 0 (DSCP 0); the two directions get different QoS");
        Capture both = new Capture();
        both.a().trafficClass(106);
        both.b().trafficClass(106);
        assertThat(faults(Analysis.run(both))).isEmpty();
    }

    /** B's QP is UC (3), A's RC: reported on B with both types. */
    @Test
    void qpTypeDiffers() throws Exception {
        Capture c = new Capture();
        c.b().qpType(3);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).contains("qp-type-mismatch host-b 0x000011").doesNotContain("qp-type-mismatch host-a 0x000011");
        assertThat(Analysis.rows(r, "qp-type-mismatch")).singleElement().asString().endsWith(
                "|host-b QP 0x000011 is UC but its peer host-a QP 0x000011 is RC; the peer drops every packet of the other type");
    }

    /** B sets SL 3 at RTR, A leaves 0: reported on B with both values; both 3: nothing. */
    @Test
    void serviceLevelOnOneSide() throws Exception {
        Capture c = new Capture();
        c.b().sl(3);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly("sl-mismatch host-b 0x000011");
        assertThat(Analysis.rows(r, "sl-mismatch")).singleElement().asString().endsWith(
                "|host-b QP 0x000011 sends with service level 3 but its peer host-a QP 0x000011 with 0; the two directions "
                        + "get different priorities (a VL on InfiniBand, a PCP on RoCE)");
        Capture both = new Capture();
        both.a().sl(3);
        both.b().sl(3);
        assertThat(faults(Analysis.run(both))).isEmpty();
    }

    /** A keeps ibv_rc_pingpong's hop limit 1, B sets 64: reported on A (the smaller); both 64: nothing. */
    @Test
    void hopLimitDiffers() throws Exception {
        Capture c = new Capture();
        c.b().hopLimit(64);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).containsExactly("hop-limit-mismatch host-a 0x000011");
        assertThat(Analysis.rows(r, "hop-limit-mismatch")).singleElement().asString().endsWith(
                "|host-a QP 0x000011 sends with hop limit 1 but its peer host-b QP 0x000011 with 64; across more than 1 "
                        + "router(s) only the peer's packets arrive");
        Capture both = new Capture();
        both.a().hopLimit(64);
        both.b().hopLimit(64);
        assertThat(faults(Analysis.run(both))).isEmpty();
    }

    /**
     * A RoCE port reporting two P_Key entries takes index 1 (no EINVAL, so pkey-index is silent):
     * pkey-index-roce on A with B's 0; index 0 on the same port: nothing.
     */
    @Test
    void pkeyIndex1WithinATwoEntryRoceTable() throws Exception {
        Capture c = new Capture();
        c.a().pkeyTableLength(2).pkeyIndex(1);
        AnalysisResult r = Analysis.run(c);
        assertThat(faults(r)).contains("pkey-index-roce host-a 0x000011").doesNotContain("pkey-index host-a 0x000011")
                .doesNotContain("pkey-index-roce host-b 0x000011");
        assertThat(Analysis.rows(r, "pkey-index-roce")).singleElement().asString().endsWith(
                "|host-a QP 0x000011 uses P_Key index 1 on RoCE port 1 but its peer host-b QP 0x000011 uses 0; RoCE has one "
                        + "partition, the default P_Key 0xFFFF at index 0");
        Capture zero = new Capture();
        zero.a().pkeyTableLength(2);
        assertThat(faults(Analysis.run(zero))).isEmpty();
    }
}
