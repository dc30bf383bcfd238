package io.rdmatrace.capture.config;

import java.util.List;
import java.util.Objects;

/**
 * Every QP-level value the bring-up programs, with the defaults a clean run uses; each can be overridden
 * on one side to inject a fault.
 *
 * @param pathMtu      enum ibv_mtu to program, or null to negotiate the smaller active MTU
 * @param sqPsn        the starting send PSN, or null for a random 24-bit PSN per QP
 * @param advertisePsn what to tell the peer about that PSN
 * @param destQpn      dest_qp_num to program instead of the peer's QPN, or null
 * @param gidIndex     sgid_index to use, or null for the RoCE v2 IPv4-mapped GID of the port
 * @param grh          false for --no-grh: an AV without GRH (RoCE needs one)
 * @param mrAccess     ibv_access_flags for ibv_reg_mr, or null for what --op needs
 * @param qpAccess     qp_access_flags at RESET→INIT (RC/UC only), or null for what --op needs
 * @param delayRtrMs   sleep between the exchange and INIT→RTR
 * @param modifyInRts  the attributes of an extra RTS→RTS modify (empty: none)
 */
public record QpKnobs(Integer pathMtu, Integer sqPsn, PsnChoice advertisePsn, Integer destQpn, int pkeyIndex,
                      Integer gidIndex, boolean grh, Integer mrAccess, Integer qpAccess, int timeout, int retryCnt,
                      int rnrRetry, int minRnrTimer, Integer cqDepth, int sqDepth, Integer rqDepth,
                      PostRecvTiming postRecv, int delayRtrMs, List<String> modifyInRts) {

    public static final int ACCESS_LOCAL_WRITE = 0x1;
    public static final int ACCESS_REMOTE_WRITE = 0x2;
    public static final int ACCESS_REMOTE_READ = 0x4;

    public QpKnobs {
        Objects.requireNonNull(advertisePsn, "advertisePsn");
        Objects.requireNonNull(postRecv, "postRecv");
        modifyInRts = List.copyOf(modifyInRts);
        if (sqPsn != null && (sqPsn & ~PsnChoice.MASK) != 0) {
            throw new IllegalArgumentException("--sq-psn is 24-bit (0..16777215): " + sqPsn);
        }
        if (destQpn != null && (destQpn & ~0xFFFFFF) != 0) {
            throw new IllegalArgumentException("--dest-qpn is 24-bit: " + destQpn);
        }
        checkRange("--timeout", timeout, 0, 31);
        checkRange("--retry-cnt", retryCnt, 0, 7);
        checkRange("--rnr-retry", rnrRetry, 0, 7);
        checkRange("--min-rnr-timer", minRnrTimer, 0, 31);
        checkRange("--pkey-index", pkeyIndex, 0, 0xFFFF);
        checkRange("--sq-depth", sqDepth, 1, Integer.MAX_VALUE);
        checkRange("--delay-rtr", delayRtrMs, 0, 600_000);
        if (rqDepth != null) {
            checkRange("--rq-depth", rqDepth, 1, Integer.MAX_VALUE);
        }
        if (cqDepth != null) {
            checkRange("--cq-depth", cqDepth, 1, Integer.MAX_VALUE);
        }
    }

    /** The knobs of a clean run: rc_pingpong's timers (timeout 14, retry 7, rnr_retry 7, min_rnr_timer 12). */
    public static QpKnobs defaults() {
        return new QpKnobs(null, null, PsnChoice.TRUTH, null, 0, null, true, null, null, 14, 7, 7, 12, null, 16, null,
                PostRecvTiming.BEFORE_RTR, 0, List.of());
    }

    /** Receive queue depth: the override, else enough for every iteration (at least 16). */
    public int rqDepthFor(int iterations) {
        return rqDepth != null ? rqDepth : Math.max(16, iterations);
    }

    /** CQ depth: the override, else room for every send and receive WR. */
    public int cqDepthFor(int iterations) {
        return cqDepth != null ? cqDepth : sqDepth + rqDepthFor(iterations);
    }

    /**
     * MR access: the override, else local write plus the remote right --op needs (least privilege, as
     * ibv_rc_pingpong: a SEND/RECV test registers LOCAL_WRITE only).
     */
    public int mrAccessFor(Op op) {
        return mrAccess != null ? mrAccess : remoteRightFor(op);
    }

    /** QP access at RESET→INIT: the override, else local write plus the remote right --op needs. */
    public int qpAccessFor(Op op) {
        return qpAccess != null ? qpAccess : remoteRightFor(op);
    }

    private static int remoteRightFor(Op op) {
        return ACCESS_LOCAL_WRITE | switch (op) {
            case SEND -> 0;
            case WRITE -> ACCESS_REMOTE_WRITE;
            case READ -> ACCESS_REMOTE_READ;
        };
    }

    private static void checkRange(String option, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(option + " must be in " + min + ".." + max + ", got " + v);
        }
    }
}
