package io.rdmatrace.capture.run;

import java.util.Objects;

/** The result of starting a scenario, as a value: {@link #OK} or the first failure, with text for people. */
public record ScenarioError(String message) {
    public static final ScenarioError OK = new ScenarioError("");

    public ScenarioError {
        Objects.requireNonNull(message, "message");
    }

    public boolean isOk() {
        return message.isEmpty();
    }
}
