package io.rdmatrace.capture.run;

/** A step that cannot run as written (bad reference, missing prerequisite): it fails its test case with this message. */
final class StepException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StepException(String message) {
        super(message);
    }
}
