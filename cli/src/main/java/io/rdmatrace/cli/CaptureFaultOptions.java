package io.rdmatrace.cli;

import io.rdmatrace.capture.config.PathMtu;
import io.rdmatrace.capture.config.PostRecvTiming;
import io.rdmatrace.capture.config.PsnChoice;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Symbols;
import io.rdmatrace.trace.names.VerbsNames;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The QP-level values of `rdmatrace capture`; each defaults to what a clean bring-up uses and can be
 * overridden on one side to reproduce a classic mistake on purpose.
 */
final class CaptureFaultOptions {
    @Option(names = "--path-mtu", paramLabel = "BYTES",
            description = "Program this path MTU (256..4096) instead of the smaller active MTU of the two ports.")
    String pathMtu;

    @Option(names = "--sq-psn", paramLabel = "N", description = "Start the send queue at this PSN, decimal or 0x-hex (default: random).")
    String sqPsn;

    @Option(names = "--advertise-psn", paramLabel = "N|+K|-K",
            description = "Tell the peer this PSN instead of the real one; +K or -K lies by K (-1: the peer NAKs every packet, retry exceeded).")
    String advertisePsn;

    @Option(names = "--dest-qpn", paramLabel = "N", description = "Program this dest_qp_num (decimal or 0x-hex) instead of the peer's QPN.")
    String destQpn;

    @Option(names = "--pkey-index", paramLabel = "N", defaultValue = "0", description = "P_Key index (default: ${DEFAULT-VALUE}).")
    int pkeyIndex;

    @Option(names = "--gid-index", paramLabel = "N",
            description = "sgid_index of the address vector (default: the RoCE v2 IPv4-mapped GID, 3 on softverbs).")
    Integer gidIndex;

    @Option(names = "--no-grh", description = "Address vector without GRH (RoCE needs one: the modify to RTR fails).")
    boolean noGrh;

    @Option(names = "--mr-access", paramLabel = "LIST",
            description = "ibv_reg_mr access flags (default: local-write plus the remote right --op needs).")
    String mrAccess;

    @Option(names = "--qp-access", paramLabel = "LIST",
            description = "qp_access_flags at INIT (default: local-write plus the remote right --op needs).")
    String qpAccess;

    @Option(names = "--timeout", paramLabel = "N", defaultValue = "14", description = "Local ACK timeout, 4.096 us * 2^N (default: ${DEFAULT-VALUE}).")
    int timeout;

    @Option(names = "--retry-cnt", paramLabel = "N", defaultValue = "7", description = "Transport retries (default: ${DEFAULT-VALUE}).")
    int retryCnt;

    @Option(names = "--rnr-retry", paramLabel = "N", defaultValue = "7", description = "RNR retries, 7 = infinite (default: ${DEFAULT-VALUE}).")
    int rnrRetry;

    @Option(names = "--min-rnr-timer", paramLabel = "N", defaultValue = "12", description = "RNR NAK timer code (default: ${DEFAULT-VALUE} = 0.64 ms).")
    int minRnrTimer;

    @Option(names = "--cq-depth", paramLabel = "N", description = "CQ entries (default: send + receive depth).")
    Integer cqDepth;

    @Option(names = "--sq-depth", paramLabel = "N", defaultValue = "16", description = "Send queue depth (default: ${DEFAULT-VALUE}).")
    int sqDepth;

    @Option(names = "--rq-depth", paramLabel = "N", description = "Receive queue depth (default: max(16, --iterations)).")
    Integer rqDepth;

    @Option(names = "--post-recv", paramLabel = "WHEN", defaultValue = "before-rtr",
            description = "When receives are posted: before-rtr, after-rts or never (default: ${DEFAULT-VALUE}).")
    String postRecv;

    @Option(names = "--delay-rtr", paramLabel = "MS", defaultValue = "0", description = "Wait this long between the exchange and INIT→RTR.")
    int delayRtrMs;

    @Option(names = "--modify-in-rts", paramLabel = "ATTR[=V]", split = ",",
            description = "An extra RTS→RTS ibv_modify_qp with these attributes (e.g. min_rnr_timer=3,path_mtu=4096).")
    List<String> modifyInRts = List.of();

    /** The knobs, validated; IllegalArgumentException names the bad option. */
    QpKnobs knobs() {
        if (gidIndex != null && (gidIndex < 0 || gidIndex > 255)) {
            throw new IllegalArgumentException("--gid-index is an 8-bit sgid_index (0..255), got " + gidIndex);
        }
        io.rdmatrace.capture.run.ScenarioCheck.checkModifyInRts(modifyInRts);
        return new QpKnobs(pathMtu == null ? null : PathMtu.parse(pathMtu), number("--sq-psn", sqPsn),
                advertisePsn == null ? PsnChoice.TRUTH : PsnChoice.parse(advertisePsn), number("--dest-qpn", destQpn), pkeyIndex,
                gidIndex, !noGrh,
                mrAccess == null ? null : (int) Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, mrAccess),
                qpAccess == null ? null : (int) Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, qpAccess), timeout, retryCnt,
                rnrRetry, minRnrTimer, cqDepth, sqDepth, rqDepth, PostRecvTiming.parse(postRecv), delayRtrMs, modifyInRts);
    }

    /** A 24-bit value in decimal or 0x-hex, or null when the option was not given. */
    private static Integer number(String option, String text) {
        if (text == null) {
            return null;
        }
        Long v = Symbols.parseNumber(text.trim());
        if (v == null || v < 0 || v > 0xFFFFFF) {
            throw new IllegalArgumentException(option + " takes a 24-bit number (decimal or 0x-hex), got '" + text + "'");
        }
        return v.intValue();
    }
}
