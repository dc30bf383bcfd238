package io.rdmatrace.capture.replay;

import java.util.List;
import java.util.Objects;

/**
 * One way the replay departed from the recording.
 *
 * @param host      the recorded host
 * @param seq       the recorded event it is about (a call, a completion…)
 * @param step      the scenario step it happened in (TC02…), or empty
 * @param verb      the libibverbs function (or "completion", "async event")
 * @param kind      what differs
 * @param field     the attribute that differs (a column name such as {@code qp_state}), or empty
 * @param recorded  the recorded value, as people read it
 * @param replayed  the value seen now
 * @param message   one sentence for the report
 * @param causeSeq  for a consequence: the recorded seq of the departure it follows from; null
 *                  for a departure of its own
 * @param repeats   later recorded seqs where exactly the same difference was seen again
 */
public record Divergence(String host, long seq, String step, String verb, Kind kind, String field, String recorded,
                         String replayed, String message, Long causeSeq, List<Long> repeats) {

    public Divergence {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(kind, "kind");
        step = step == null ? "" : step;
        field = field == null ? "" : field;
        repeats = List.copyOf(repeats);
    }

    /** What differs. */
    public enum Kind {
        /** the call succeeded in the recording and fails here */
        NOW_FAILS,
        /** the call failed in the recording and succeeds here */
        NOW_SUCCEEDS,
        /** both failed, with different errnos (or return codes) */
        ERRNO,
        /** a value the call returned (a queried attribute, a granted cap…) */
        VALUE,
        /** a work completion differs, is missing or is extra */
        COMPLETION,
        /** an asynchronous event differs, is missing or is extra */
        ASYNC_EVENT,
        /** the call could not be made here because the object it acts on does not exist */
        NOT_REPLAYED
    }

    /** True for a departure of its own, false for a consequence of an earlier one. */
    public boolean isDeparture() {
        return causeSeq == null;
    }

    Divergence withRepeat(long again) {
        List<Long> more = new java.util.ArrayList<>(repeats);
        more.add(again);
        return new Divergence(host, seq, step, verb, kind, field, recorded, replayed, message, causeSeq, more);
    }
}
