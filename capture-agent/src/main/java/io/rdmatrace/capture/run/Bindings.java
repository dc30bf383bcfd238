package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.scenario.Value;
import io.rdmatrace.trace.names.GidText;
import java.util.List;

/**
 * Resolves the {@code $name} references of scenario steps. The names, for scenario authors:
 * <ul>
 *   <li>options: size, iterations, qps, sq_depth, rq_depth, cq_depth, ib_port, pkey_index, mr_access,
 *       qp_access, timeout, retry_cnt, rnr_retry, min_rnr_timer, qkey, delay_rtr, qp_type, op, gid_index</li>
 *   <li>per QP: qp_index, sq_psn (the PSN the QP starts with), local.qp_num, local.psn (what the peer was
 *       told), local.lid, local.gid</li>
 *   <li>from the peer (after "exchange" or "cm_connect"): peer.qp_num, peer.psn, peer.lid, peer.gid, peer.gid_index,
 *       peer.addr, peer.rkey, peer.length, peer.path_mtu, peer.pkey_index, peer.qp_type</li>
 *   <li>negotiated: path_mtu (--path-mtu or the smaller active MTU), dest_qpn (--dest-qpn or peer.qp_num)</li>
 *   <li>in a repeated test case: iter (0, 1, …)</li>
 * </ul>
 */
final class Bindings {
    static final List<String> NAMES = List.of("size", "iterations", "qps", "sq_depth", "rq_depth", "cq_depth",
            "ib_port", "pkey_index", "mr_access", "qp_access", "timeout", "retry_cnt", "rnr_retry", "min_rnr_timer",
            "qkey", "delay_rtr", "qp_type", "op", "gid_index", "qp_index", "sq_psn", "local.qp_num", "local.psn",
            "local.lid", "local.gid", "peer.qp_num", "peer.psn", "peer.lid", "peer.gid", "peer.gid_index", "peer.addr",
            "peer.rkey", "peer.length", "peer.path_mtu", "peer.pkey_index", "peer.qp_type", "path_mtu", "dest_qpn",
            "iter");

    private final AgentState state;

    Bindings(AgentState state) {
        this.state = state;
    }

    /** The value with references replaced; never returns a {@link Value.Ref}. */
    Value resolve(Value v, QpSlot slot, int iter) {
        if (!(v instanceof Value.Ref ref)) {
            return v;
        }
        String name = ref.name();
        CaptureConfig c = state.config;
        QpKnobs k = c.knobs();
        int iterations = c.workload().iterations();
        switch (name) {
            case "size": return num(c.workload().size());
            case "iterations": return num(iterations);
            case "qps": return num(c.workload().qps());
            case "sq_depth": return num(k.sqDepth());
            case "rq_depth": return num(k.rqDepthFor(iterations));
            case "cq_depth": return num(k.cqDepthFor(iterations));
            case "ib_port": return num(c.ibPort());
            case "pkey_index": return num(k.pkeyIndex());
            case "mr_access": return num(k.mrAccessFor(c.workload().op()));
            case "qp_access": return num(k.qpAccessFor(c.workload().op()));
            case "timeout": return num(k.timeout());
            case "retry_cnt": return num(k.retryCnt());
            case "rnr_retry": return num(k.rnrRetry());
            case "min_rnr_timer": return num(k.minRnrTimer());
            case "qkey": return num(Integer.toUnsignedLong(Transport.UD_QKEY));
            case "delay_rtr": return num(k.delayRtrMs());
            case "qp_type": return num(c.workload().qpType().ibvValue());
            case "op": return Value.text(c.workload().op().label());
            case "gid_index": return num(state.gidIndex);
            case "iter": return num(iter);
            default: break;
        }
        if (slot == null) {
            throw new StepException("$" + name + " is per QP and cannot be used in a step that runs once");
        }
        switch (name) {
            case "qp_index": return num(slot.index);
            case "sq_psn": return num(slot.sqPsn);
            case "local.qp_num": return num(requireQp(slot, name).qpNum());
            case "local.psn": return num(slot.advertisedPsn);
            case "local.lid": return num(state.port.lid());
            case "local.gid": return Value.text(GidText.format(state.localGid.raw()));
            default: break;
        }
        if (!name.startsWith("peer.") && !name.equals("path_mtu") && !name.equals("dest_qpn")) {
            throw new StepException("unknown reference $" + name + "; known: $" + String.join(", $", NAMES));
        }
        if (slot.peer == null) {
            throw new StepException("$" + name + " needs the peer's parameters: put an \"exchange\" step before this one");
        }
        var p = slot.peer;
        switch (name) {
            case "peer.qp_num": return num(p.qpNum());
            case "peer.psn": return num(p.psn());
            case "peer.lid": return num(p.lid());
            case "peer.gid": return Value.text(GidText.format(p.gid()));
            case "peer.gid_index": return num(p.gidIndex());
            case "peer.addr": return num(p.mrAddr());
            case "peer.rkey": return num(Integer.toUnsignedLong(p.rkey()));
            case "peer.length": return num(p.mrLength());
            case "peer.path_mtu": return num(p.pathMtu());
            case "peer.pkey_index": return num(p.pkeyIndex());
            case "peer.qp_type": return num(p.qpType());
            case "path_mtu": return num(slot.pathMtu);
            case "dest_qpn": return num(k.destQpn() != null ? k.destQpn() : p.qpNum());
            default: throw new StepException("unknown reference $" + name + "; known: $" + String.join(", $", NAMES));
        }
    }

    private static io.rdmatrace.verbs.QueuePair requireQp(QpSlot slot, String name) {
        if (slot.qp == null) {
            throw new StepException("$" + name + " needs the QP: put a \"create_qp\" step before this one");
        }
        return slot.qp;
    }

    private static Value num(long v) {
        return new Value.Num(v);
    }
}
