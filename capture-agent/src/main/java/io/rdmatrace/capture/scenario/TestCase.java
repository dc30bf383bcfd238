package io.rdmatrace.capture.scenario;

import java.util.List;
import java.util.Objects;

/**
 * A test case (TC01…): its steps run in order, each across the QPs it covers, {@code repeat} times with
 * {@code $iter} = 0, 1, …; the first step that misses its expectation fails the test case.
 *
 * @param stopOnFail when it fails, the test cases after it are skipped (resources or connection missing)
 * @param firstQpOnly run the per-QP steps on QP 0 only (probes)
 */
public record TestCase(String id, String title, boolean stopOnFail, boolean firstQpOnly, Value repeat, List<Step> steps) {
    public TestCase {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(repeat, "repeat");
        steps = List.copyOf(steps);
        if (id.isBlank()) {
            throw new IllegalArgumentException("a test case needs an id");
        }
    }
}
