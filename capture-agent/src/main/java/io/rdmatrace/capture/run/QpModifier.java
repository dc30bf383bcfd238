package io.rdmatrace.capture.run;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.capture.scenario.Action;
import io.rdmatrace.capture.scenario.Expect;
import io.rdmatrace.capture.scenario.Value;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.MigState;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpAttrMask;
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
        for (Map.Entry<QpField, Value> en : m.attrs().entrySet()) {
            set(b, en.getKey(), bindings.resolve(en.getValue(), slot, iter));
        }
        QpAttrMask mask = m.mask() != null
                ? QpAttrMask.ofBits(Values.attrMask(bindings.resolve(m.mask(), slot, iter)))
                : b.mask();
        QpAttr attr = b.build();
        String target = m.attrs().containsKey(QpField.QP_STATE) ? "to " + attr.qpState() : "(attributes only)";
        CallStatus st = qp.tryModify(attr, mask);
        QpState now = s.queryState(qp);
        String what = StepExecutor.qpTag(slot) + "ibv_modify_qp " + target + " mask " + mask;
        String why = Expectations.outcome(e, st, what);
        if (why == null && e.qpState() != null) {
            if (now == null) {
                why = StepExecutor.qpTag(slot) + "ibv_query_qp after the modify failed: " + s.answers.status().describe();
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
        set(QpAttr.builder(), f, v);
    }

    /** One field from a scenario value, read as its kind in the verbs ABI model says; sets its mask bit. */
    private static void set(QpAttr.Builder b, QpField f, Value v) {
        String what = f.scenarioKey();
        switch (f.kind()) {
            // as the binding's enums read them: a state past 7 is UNKNOWN, an MTU past 5 INVALID
            case QP_STATE -> b.set(f, QpState.of(Values.qpState(v)).value());
            case MTU -> b.set(f, Mtu.of(Values.mtu(v)).value());
            case ACCESS_FLAGS -> b.set(f, Values.accessFlags(v));
            case MIG_STATE -> b.set(f, migState(Values.intValue(v, what)).value());
            case PEER_GID -> b.set(f, Values.gid(v));
            case BOOL -> b.set(f, Values.intValue(v, what) != 0 ? 1 : 0);
            case NUMBER, PEER_QPN -> b.set(f, Values.intValue(v, what));
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
}
