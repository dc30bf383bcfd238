package io.rdmatrace.capture.scenario;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.PostRecvTiming;
import io.rdmatrace.capture.config.Transport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in TC01–TC04 as scenario data. Values stay {@code $references} (the options fill them in
 * when the steps run); only the structural overrides (--post-recv, --no-barrier, --no-grh, --delay-rtr,
 * --modify-in-rts, --qp-type, --op) change which steps there are. `rdmatrace capture --print-scenario`
 * prints what this builds, as a starting point for a --scenario file.
 */
public final class BringUpScenario {
    static final String NAME = "bringup";

    private BringUpScenario() {
    }

    public static ScenarioSpec build(CaptureConfig config) {
        Transport type = config.workload().qpType();
        Op op = config.workload().op();
        // only SENDs consume receives; an RDMA WRITE/READ test posts none
        PostRecvTiming postRecv = op == Op.SEND ? config.knobs().postRecv() : PostRecvTiming.NEVER;
        List<TestCase> tcs = List.of(
                tc01(),
                tc02(type),
                tc03(config, type, postRecv),
                tc04(op, op == Op.SEND ? postRecv : PostRecvTiming.BEFORE_RTR));
        return new ScenarioSpec(NAME, "PD → MR → CQ → QP, an illegal RESET→RTS probe, the out-of-band exchange and "
                + "INIT→RTR→RTS behind a barrier, then " + op.label() + " each way with a pattern check", tcs);
    }

    private static TestCase tc01() {
        return new TestCase("TC01", "resource creation", true, false, Value.num(1), List.of(
                Step.of(new Action.AllocPd()),
                Step.of(new Action.RegMr(Value.ref("mr_access"))),
                Step.of(new Action.CreateCq(Value.ref("cq_depth"))),
                Step.of(new Action.CreateQp(Value.ref("qp_type"), Value.ref("sq_depth"), Value.ref("rq_depth"),
                        Value.num(1), Value.num(1), Value.num(0)))));
    }

    /** RESET→RTS with the attributes RTR→RTS would need: every device must refuse it and stay in RESET. */
    private static TestCase tc02(Transport type) {
        Map<QpField, Value> attrs = rtsAttrs(type);
        return new TestCase("TC02", "illegal transition probe", false, true, Value.num(1), List.of(
                new Step(new Action.ModifyQp(attrs, null), Expect.failure().withQpState(0))));
    }

    private static TestCase tc03(CaptureConfig config, Transport type, PostRecvTiming postRecv) {
        List<Step> steps = new ArrayList<>();
        steps.add(modify(initAttrs(type), 1));
        if (postRecv == PostRecvTiming.BEFORE_RTR) {
            steps.add(Step.of(new Action.PostRecv(Value.ref("iterations"))));
        }
        if (config.knobs().delayRtrMs() > 0 && config.cm() != null) {
            steps.add(Step.of(new Action.Sleep(Value.ref("delay_rtr"))));
        }
        if (config.cm() != null) {
            // rdma_cm carries the parameters and sets RTR and RTS with its own attributes
            steps.add(Step.of(new Action.CmConnect()));
        } else {
            steps.add(Step.of(new Action.Exchange()));
            if (config.knobs().delayRtrMs() > 0) {
                steps.add(Step.of(new Action.Sleep(Value.ref("delay_rtr"))));
            }
            steps.add(modify(rtrAttrs(type, config.knobs().grh()), 2));
            steps.add(modify(rtsAttrs(type), 3));
        }
        if (type == Transport.UD) {
            steps.add(Step.of(new Action.CreateAh()));
        }
        if (!config.knobs().modifyInRts().isEmpty()) {
            steps.add(modify(modifyInRtsAttrs(config.knobs().modifyInRts()), 3));
        }
        if (postRecv == PostRecvTiming.AFTER_RTS) {
            steps.add(Step.of(new Action.PostRecv(Value.ref("iterations"))));
        }
        if (config.link().barrier()) {
            steps.add(Step.of(new Action.Barrier("rts")));
        }
        return new TestCase("TC03", config.cm() != null ? "rdma_cm connect and INIT→RTR→RTS" : "exchange and INIT→RTR→RTS",
                true, false, Value.num(1), steps);
    }

    private static TestCase tc04(Op op, PostRecvTiming postRecv) {
        Value opValue = Value.text(op.label());
        List<Step> steps = new ArrayList<>();
        steps.add(Step.of(new Action.PostSend(opValue)));
        if (op == Op.SEND) {
            steps.add(Step.of(new Action.Poll(Value.num(1), Value.num(1))));
        } else {
            steps.add(Step.of(new Action.Poll(Value.num(1), Value.num(0))));
        }
        if (op == Op.WRITE) {
            // a WRITE leaves no completion at the target: the peer says when its data is in place
            steps.add(Step.of(new Action.Barrier("written")));
        }
        steps.add(Step.of(new Action.CheckPattern(opValue)));
        if (op == Op.WRITE) {
            // and the next iteration's WRITE must not land before this one was checked
            steps.add(Step.of(new Action.Barrier("checked")));
        }
        String title = op.label() + " each way with pattern check" + (postRecv == PostRecvTiming.NEVER ? " (no receives posted)" : "");
        return new TestCase("TC04", title, true, false, Value.ref("iterations"), steps);
    }

    private static Step modify(Map<QpField, Value> attrs, int expectedState) {
        return new Step(new Action.ModifyQp(attrs, null), Expect.OK.withQpState(expectedState));
    }

    static Map<QpField, Value> initAttrs(Transport type) {
        Map<QpField, Value> a = new LinkedHashMap<>();
        a.put(QpField.QP_STATE, Value.text("INIT"));
        a.put(QpField.PKEY_INDEX, Value.ref("pkey_index"));
        a.put(QpField.PORT_NUM, Value.ref("ib_port"));
        if (type == Transport.UD) {
            a.put(QpField.QKEY, Value.ref("qkey"));
        } else {
            a.put(QpField.QP_ACCESS_FLAGS, Value.ref("qp_access"));
        }
        return a;
    }

    static Map<QpField, Value> rtrAttrs(Transport type, boolean grh) {
        Map<QpField, Value> a = new LinkedHashMap<>();
        a.put(QpField.QP_STATE, Value.text("RTR"));
        if (type == Transport.UD) {
            return a;
        }
        a.put(QpField.PATH_MTU, Value.ref("path_mtu"));
        a.put(QpField.DEST_QP_NUM, Value.ref("dest_qpn"));
        a.put(QpField.RQ_PSN, Value.ref("peer.psn"));
        if (type == Transport.RC) {
            a.put(QpField.MAX_DEST_RD_ATOMIC, Value.num(1));
            a.put(QpField.MIN_RNR_TIMER, Value.ref("min_rnr_timer"));
        }
        a.put(QpField.AH_DLID, Value.ref("peer.lid"));
        a.put(QpField.AH_SL, Value.num(0));
        a.put(QpField.AH_PORT_NUM, Value.ref("ib_port"));
        a.put(QpField.AH_IS_GLOBAL, Value.num(grh ? 1 : 0));
        if (grh) {
            a.put(QpField.AH_DGID, Value.ref("peer.gid"));
            a.put(QpField.AH_SGID_INDEX, Value.ref("gid_index"));
            a.put(QpField.AH_HOP_LIMIT, Value.num(1));
        }
        return a;
    }

    static Map<QpField, Value> rtsAttrs(Transport type) {
        Map<QpField, Value> a = new LinkedHashMap<>();
        a.put(QpField.QP_STATE, Value.text("RTS"));
        if (type == Transport.RC) {
            a.put(QpField.TIMEOUT, Value.ref("timeout"));
            a.put(QpField.RETRY_CNT, Value.ref("retry_cnt"));
            a.put(QpField.RNR_RETRY, Value.ref("rnr_retry"));
        }
        a.put(QpField.SQ_PSN, Value.ref("sq_psn"));
        if (type == Transport.RC) {
            a.put(QpField.MAX_RD_ATOMIC, Value.num(1));
        }
        return a;
    }

    /**
     * --modify-in-rts "min_rnr_timer=14,path_mtu" → those fields; a field without a value gets the value
     * the bring-up itself uses for it (its $reference), so "--modify-in-rts path_mtu" repeats the RTR value.
     */
    public static Map<QpField, Value> modifyInRtsAttrs(List<String> specs) {
        Map<QpField, Value> a = new LinkedHashMap<>();
        a.put(QpField.QP_STATE, Value.text("RTS"));
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            QpField f = QpField.byScenarioKey(eq < 0 ? spec : spec.substring(0, eq));
            Value v = eq < 0 ? defaultRef(f) : Value.parse(spec.substring(eq + 1).trim());
            a.put(f, v);
        }
        return a;
    }

    private static Value defaultRef(QpField f) {
        return switch (f) {
            case QP_STATE -> Value.text("RTS");
            case CUR_QP_STATE -> Value.text("RTS");
            case QP_ACCESS_FLAGS -> Value.ref("qp_access");
            case PKEY_INDEX -> Value.ref("pkey_index");
            case PORT_NUM, AH_PORT_NUM -> Value.ref("ib_port");
            case QKEY -> Value.ref("qkey");
            case PATH_MTU -> Value.ref("path_mtu");
            case TIMEOUT -> Value.ref("timeout");
            case RETRY_CNT -> Value.ref("retry_cnt");
            case RNR_RETRY -> Value.ref("rnr_retry");
            case RQ_PSN -> Value.ref("peer.psn");
            case SQ_PSN -> Value.ref("sq_psn");
            case MIN_RNR_TIMER -> Value.ref("min_rnr_timer");
            case DEST_QP_NUM -> Value.ref("dest_qpn");
            case AH_DLID -> Value.ref("peer.lid");
            case AH_DGID -> Value.ref("peer.gid");
            case AH_SGID_INDEX -> Value.ref("gid_index");
            case AH_IS_GLOBAL -> Value.num(1);
            case AH_HOP_LIMIT, MAX_RD_ATOMIC, MAX_DEST_RD_ATOMIC -> Value.num(1);
            default -> Value.num(0);
        };
    }
}
