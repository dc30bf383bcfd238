package io.rdmatrace.capture.replay;

import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.verbs.CallStatus;

/** What making a recorded call again gave: its outcome, or why it was not made. */
sealed interface Replayed permits Replayed.Done, Replayed.Skipped {

    /** The call was made: its return code, errno and outputs, spelt as the recorder spells them. */
    record Done(int ret, int errno, Attrs out) implements Replayed {
        static Done of(CallStatus status, Attrs out) {
            return new Done((int) status.ret(), status.errno(), out);
        }
    }

    /**
     * The call was not made.
     *
     * @param objectMissing true when the object it acts on does not exist here (its creation
     *                      diverged), false when the verb is simply not replayed
     */
    record Skipped(String why, boolean objectMissing) implements Replayed {
    }
}
