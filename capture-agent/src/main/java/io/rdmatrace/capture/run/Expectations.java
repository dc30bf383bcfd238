package io.rdmatrace.capture.run;

import io.rdmatrace.capture.scenario.Expect;
import io.rdmatrace.trace.names.VerbsNames;
import io.rdmatrace.verbs.CallStatus;

/** Compares what a verb did with what the step expected, in words a test engineer reads. */
final class Expectations {
    private Expectations() {
    }

    /** Null when the call ended as expected, else why not. */
    static String outcome(Expect e, CallStatus st, String what) {
        return switch (e.outcome()) {
            case OK -> st.ok() ? null : what + " failed: " + st.describe();
            case FAIL -> st.ok() ? what + " succeeded but must be refused" : null;
            case ERRNO -> e.errno().equals(st.errnoName()) ? null
                    : what + " returned " + (st.ok() ? "success" : st.describe()) + ", expected " + e.errno();
        };
    }

    static String stateName(int state) {
        String n = VerbsNames.QP_STATE.nameOf(state);
        return n != null ? n.substring("IBV_QPS_".length()) : Integer.toString(state);
    }

    static String wcStatusName(int status) {
        String n = VerbsNames.WC_STATUS.nameOf(status);
        return n != null ? n : "status " + status;
    }
}
