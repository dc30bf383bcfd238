package io.rdmatrace.analyzer.diff;

import java.util.Objects;

/**
 * Where an observation sits in a capture, independent of handle values and numbers: the host's
 * role, the scenario step, the object (the n-th of its kind on that host, e.g. {@code qp#1}),
 * what happened (a verb, a completion direction, an async event) and which occurrence of that in
 * the step. Two captures are compared site by site, so a QP whose handle and QPN differ between
 * runs still lines up with itself.
 *
 * @param role       {@code listen}/{@code connect}, or {@code host#N} when roles are unknown
 * @param step       the scenario step ({@code TC02}), {@code setup} before the first, {@code session} for SESSION facts
 * @param object     e.g. {@code qp#1}, {@code cq#2}, {@code context#1}, {@code port#1}; {@code -} for none
 * @param what       e.g. {@code ibv_modify_qp}, {@code completion recv}, {@code async IBV_EVENT_QP_FATAL}
 * @param occurrence 1-based count of (step, object, what) so far
 */
public record Site(String role, String step, String object, String what, int occurrence) {
    public Site {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(object, "object");
        Objects.requireNonNull(what, "what");
    }

    /** For people: {@code TC03 qp#1 ibv_modify_qp #2}, or {@code SESSION device}. */
    public String describe() {
        if (step.equals("session")) {
            return "SESSION " + object; // one fact per host: no step, no occurrence
        }
        return step + " " + object + " " + what + " #" + occurrence;
    }
}
