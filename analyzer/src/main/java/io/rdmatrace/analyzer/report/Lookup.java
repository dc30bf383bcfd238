package io.rdmatrace.analyzer.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;

/** Small shared helpers of the report writers: rule by id, QP numbers in hex, durations. */
final class Lookup {
    private Lookup() {
    }

    static Map<String, Rule> rulesById(AnalysisResult result) {
        Map<String, Rule> rules = new LinkedHashMap<>();
        for (RuleOutcome outcome : result.outcomes()) {
            rules.put(outcome.rule().id(), outcome.rule());
        }
        return rules;
    }

    static String qpHex(Long qp) {
        return qp == null ? "" : String.format("0x%06x", qp);
    }

    /** "host QP 0x000011", "host", or "(capture)" when the finding names no host. */
    static String where(Finding finding) {
        String host = finding.host() == null ? "(capture)" : finding.host();
        return finding.qp() == null ? host : host + " QP " + qpHex(finding.qp());
    }

    static String evidence(Finding finding) {
        return finding.evidence().isEmpty() ? "(none: the finding is about the folder itself)"
                : String.join(", ", finding.evidence().stream().map(Object::toString).toList());
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    static String states(List<String> states) {
        return String.join(" > ", states);
    }

    static String connection(ConnectionSummary c) {
        return c.hostA() + " QP " + qpHex(c.qpA()) + " <-> " + c.hostB() + " QP " + qpHex(c.qpB());
    }
}
