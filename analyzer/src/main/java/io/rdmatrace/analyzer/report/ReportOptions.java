package io.rdmatrace.analyzer.report;

import java.util.Objects;

import io.rdmatrace.analyzer.Severity;

/**
 * How to write a report.
 *
 * @param verbose show each rule's SQL (JFR's {@code view --verbose}) and per-rule timings
 * @param failOn  the threshold the exit code uses; the JUnit report fails test cases at or
 *                above it (null = never)
 */
public record ReportOptions(boolean verbose, Severity failOn) {
    public static final ReportOptions DEFAULT = new ReportOptions(false, Severity.ERROR);

    public ReportOptions {
        // failOn may be null: "never"
    }

    boolean fails(Severity severity) {
        return failOn != null && severity.atLeast(Objects.requireNonNull(failOn));
    }
}
