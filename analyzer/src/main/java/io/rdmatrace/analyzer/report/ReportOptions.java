package io.rdmatrace.analyzer.report;

import java.util.Objects;

import io.rdmatrace.analyzer.Severity;

/**
 * How to write a report.
 *
 * @param verbose   show each rule's SQL (JFR's {@code view --verbose}) and per-rule timings
 * @param failOn    the threshold the exit code uses; the JUnit report fails test cases at or
 *                  above it (null = never)
 * @param all       show expected findings (a deliberate probe's) one by one instead of folded
 * @param traceArgs the trace folders as the user named them, for the {@code rdmatrace show} hint
 */
public record ReportOptions(boolean verbose, Severity failOn, boolean all, String traceArgs) {
    public static final ReportOptions DEFAULT = new ReportOptions(false, Severity.ERROR);

    public ReportOptions {
        // failOn may be null: "never"
        traceArgs = traceArgs == null || traceArgs.isBlank() ? "TRACE" : traceArgs;
    }

    public ReportOptions(boolean verbose, Severity failOn) {
        this(verbose, failOn, false, null);
    }

    boolean fails(Severity severity) {
        return failOn != null && severity.atLeast(Objects.requireNonNull(failOn));
    }
}
