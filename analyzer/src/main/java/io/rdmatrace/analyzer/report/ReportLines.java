package io.rdmatrace.analyzer.report;

import java.util.List;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Finding;

/**
 * Single lines of the text report, for a reader that prints findings one by one as they come
 * (`rdmatrace watch`) rather than a whole report.
 */
public final class ReportLines {
    private ReportLines() {
    }

    /** "ERROR path-mtu-mismatch on b QP 0x000011: ...": severity, rule, where and the message. */
    public static String finding(Finding finding) {
        return finding.severity().name() + " " + where(finding) + ": " + finding.message();
    }

    /** "path-mtu-mismatch on b QP 0x000011": what {@code finding} is about, for a line that refers to it. */
    public static String where(Finding finding) {
        return finding.ruleId() + " on " + Lookup.where(finding);
    }

    /** The 1-3 lines the text report opens with (the root cause, what followed, the wire). */
    public static List<String> summary(AnalysisResult result) {
        return Summary.lines(result, result.diagnosis());
    }
}
