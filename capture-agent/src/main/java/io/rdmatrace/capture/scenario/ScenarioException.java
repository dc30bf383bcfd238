package io.rdmatrace.capture.scenario;

/** A scenario file that cannot be used as written; the message names the file, test case and step. */
public final class ScenarioException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ScenarioException(String message) {
        super(message);
    }
}
