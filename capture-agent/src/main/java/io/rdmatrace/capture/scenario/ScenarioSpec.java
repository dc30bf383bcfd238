package io.rdmatrace.capture.scenario;

import java.util.List;
import java.util.Objects;

/** A whole scenario as data: the built-in bring-up or a --scenario file. */
public record ScenarioSpec(String name, String description, List<TestCase> testCases) {
    public ScenarioSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        testCases = List.copyOf(testCases);
        if (testCases.isEmpty()) {
            throw new IllegalArgumentException("a scenario needs at least one test case");
        }
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (TestCase tc : testCases) {
            if (!ids.add(tc.id())) {
                throw new IllegalArgumentException("test case id '" + tc.id() + "' appears twice");
            }
        }
    }
}
