package io.rdmatrace.capture.run;

import io.rdmatrace.capture.scenario.Action;
import io.rdmatrace.capture.scenario.Expect;
import io.rdmatrace.capture.scenario.QpField;
import io.rdmatrace.capture.scenario.Value;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.GlobalRoute;
import io.rdmatrace.verbs.MigState;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpAttrMask;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QueuePair;
import java.util.Map;

/**
 * A modify_qp step: builds the ibv_qp_attr from the step's fields, calls ibv_modify_qp, then always
 * ibv_query_qp (the recording convention: "requested" is the modify's input, "applied" the query's
 * output), and checks the outcome and the queried state.
 */
final class QpModifier {
    private final AgentState s;
    private final Bindings bindings;

    QpModifier(AgentState s, Bindings bindings) {
        this.s = s;
        this.bindings = bindings;
    }

    StepOutcome modify(Action.ModifyQp m, Expect e, QpSlot slot, int iter) {
        QueuePair qp = StepExecutor.requireQp(slot, "modify_qp");
        QpAttr.Builder b = QpAttr.builder();
        AhParts ah = new AhParts();
        for (Map.Entry<QpField, Value> en : m.attrs().entrySet()) {
            set(b, ah, en.getKey(), bindings.resolve(en.getValue(), slot, iter));
        }
        if (ah.used) {
            b.ahAttr(ah.build());
        }
        QpAttrMask mask = m.mask() != null
                ? QpAttrMask.ofBits(Values.attrMask(bindings.resolve(m.mask(), slot, iter)))
                : b.mask();
        QpAttr attr = b.build();
        String target = m.attrs().containsKey(QpField.QP_STATE) ? "to " + attr.qpState() : "(attributes only)";
        CallStatus st = qp.tryModify(attr, mask);
        Outcome<QpQuery> q = qp.tryQuery(QueuePair.ALL_ATTRIBUTES);
        String what = StepExecutor.qpTag(slot) + "ibv_modify_qp " + target + " mask " + mask;
        String why = Expectations.outcome(e, st, what);
        QpState now = q instanceof Outcome.Ok<QpQuery> ok ? ok.value().attr().qpState() : null;
        if (why == null && e.qpState() != null) {
            if (now == null) {
                why = StepExecutor.qpTag(slot) + "ibv_query_qp after the modify failed: " + q.status().describe();
            } else if (now.value() != e.qpState()) {
                why = what + (st.ok() ? " succeeded" : " was refused (" + st.errnoName() + ")") + " but ibv_query_qp says "
                        + now + ", expected " + Expectations.stateName(e.qpState());
            }
        }
        String note = "";
        if (why == null && !st.ok() && slot.index == 0) {
            note = "modify " + target + " refused (" + st.errnoName() + ")" + (now != null ? ", QP still " + now : "");
        }
        return StepExecutor.verdict(why, note);
    }

    /** Converts a literal value as a modify would, on a throwaway attribute; throws what the run would. */
    static void checkLiteral(QpField f, Value v) {
        set(QpAttr.builder(), new AhParts(), f, v);
    }

    private static void set(QpAttr.Builder b, AhParts ah, QpField f, Value v) {
        String what = f.key();
        switch (f) {
            case QP_STATE -> b.qpState(QpState.of(Values.qpState(v)));
            case CUR_QP_STATE -> b.curQpState(QpState.of(Values.qpState(v)));
            case EN_SQD_ASYNC_NOTIFY -> b.enSqdAsyncNotify(Values.intValue(v, what));
            case QP_ACCESS_FLAGS -> b.qpAccessFlags(Values.accessFlags(v));
            case PKEY_INDEX -> b.pkeyIndex(Values.intValue(v, what));
            case PORT_NUM -> b.portNum(Values.intValue(v, what));
            case QKEY -> b.qkey(Values.intValue(v, what));
            case PATH_MTU -> b.pathMtu(Mtu.of(Values.mtu(v)));
            case TIMEOUT -> b.timeout(Values.intValue(v, what));
            case RETRY_CNT -> b.retryCnt(Values.intValue(v, what));
            case RNR_RETRY -> b.rnrRetry(Values.intValue(v, what));
            case RQ_PSN -> b.rqPsn(Values.intValue(v, what));
            case MAX_RD_ATOMIC -> b.maxRdAtomic(Values.intValue(v, what));
            case MIN_RNR_TIMER -> b.minRnrTimer(Values.intValue(v, what));
            case SQ_PSN -> b.sqPsn(Values.intValue(v, what));
            case MAX_DEST_RD_ATOMIC -> b.maxDestRdAtomic(Values.intValue(v, what));
            case PATH_MIG_STATE -> b.pathMigState(migState(Values.intValue(v, what)));
            case DEST_QP_NUM -> b.destQpNum(Values.intValue(v, what));
            case AH_DLID -> ah.dlid = Values.intValue(v, what);
            case AH_SL -> ah.sl = Values.intValue(v, what);
            case AH_SRC_PATH_BITS -> ah.srcPathBits = Values.intValue(v, what);
            case AH_STATIC_RATE -> ah.staticRate = Values.intValue(v, what);
            case AH_IS_GLOBAL -> ah.isGlobal = Values.intValue(v, what) != 0;
            case AH_PORT_NUM -> ah.portNum = Values.intValue(v, what);
            case AH_DGID -> ah.dgid = Values.gid(v);
            case AH_FLOW_LABEL -> ah.flowLabel = Values.intValue(v, what);
            case AH_SGID_INDEX -> ah.sgidIndex = Values.intValue(v, what);
            case AH_HOP_LIMIT -> ah.hopLimit = Values.intValue(v, what);
            case AH_TRAFFIC_CLASS -> ah.trafficClass = Values.intValue(v, what);
        }
        if (f.name().startsWith("AH_")) {
            ah.used = true;
        }
    }

    private static MigState migState(int v) {
        for (MigState m : MigState.values()) {
            if (m.value() == v) {
                return m;
            }
        }
        throw new StepException("path_mig_state must be 0 (MIGRATED), 1 (REARM) or 2 (ARMED), got " + v);
    }

    /** The ah.* fields of a step, assembled into one address vector. */
    private static final class AhParts {
        boolean used;
        Gid dgid = Gid.ZERO;
        int flowLabel;
        int sgidIndex;
        int hopLimit;
        int trafficClass;
        int dlid;
        int sl;
        int srcPathBits;
        int staticRate;
        boolean isGlobal;
        int portNum;

        AhAttr build() {
            return new AhAttr(new GlobalRoute(dgid, flowLabel, sgidIndex, hopLimit, trafficClass), dlid, sl, srcPathBits,
                    staticRate, isGlobal, portNum);
        }
    }
}
