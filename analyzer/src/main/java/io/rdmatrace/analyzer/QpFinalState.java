package io.rdmatrace.analyzer;

/**
 * The state a QP ended in (a {@code qp_final_state} row).
 *
 * @param state  short state name: RTS, ERR, SQE …
 * @param seq    the event that established it (the modify, or the error that was inferred)
 * @param source queried, requested, inferred or created
 * @param what   for an inferred state, the event that put the QP there; else null
 */
public record QpFinalState(String state, long seq, String source, String what) {
    /** True when the state was inferred from an error after the last modify. */
    public boolean inferred() {
        return "inferred".equals(source);
    }
}
