package io.rdmatrace.capture.scenario;

import java.util.Objects;

/**
 * What a step must produce for its test case to pass.
 *
 * @param outcome  the call's result: it succeeds, it fails (any errno), or it fails with one errno
 * @param errno    the errno name required when outcome is ERRNO (e.g. EINVAL)
 * @param qpState  for modify/query: the state the following ibv_query_qp must report, or null
 * @param wcStatus for poll: the completion status every completion must have (default SUCCESS)
 */
public record Expect(Outcome outcome, String errno, Integer qpState, Integer wcStatus) {

    public enum Outcome { OK, FAIL, ERRNO }

    public static final Expect OK = new Expect(Outcome.OK, null, null, null);

    public Expect {
        Objects.requireNonNull(outcome, "outcome");
        if ((outcome == Outcome.ERRNO) != (errno != null)) {
            throw new IllegalArgumentException("an errno expectation needs exactly one errno name");
        }
    }

    public Expect withQpState(Integer state) {
        return new Expect(outcome, errno, state, wcStatus);
    }

    public Expect withWcStatus(Integer status) {
        return new Expect(outcome, errno, qpState, status);
    }

    public static Expect failure() {
        return new Expect(Outcome.FAIL, null, null, null);
    }
}
