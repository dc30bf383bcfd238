package io.rdmatrace.analyzer.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.QpFinalState;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
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

    /** "0x000011": at least six hex digits (a report names thousands of QPs: no Formatter per name). */
    static String qpHex(Long qp) {
        if (qp == null) {
            return "";
        }
        String hex = Long.toHexString(qp);
        return "0x" + "000000".substring(Math.min(6, hex.length())) + hex;
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

    /** The trace file's integrity, apart from any verdict: complete, still recording, truncated, corrupt or unreadable. */
    static String integrity(HostLoad host) {
        return host.integrity();
    }

    /** The host's verdict from the findings about it: FAILED, WARNINGS or ok (expected findings aside). */
    static String verdict(HostLoad host, List<Finding> findings) {
        if (!host.readable()) {
            return "not analysed";
        }
        long errors = findings.stream().filter(f -> !f.expected() && host.host().equals(f.host())
                && f.severity() == Severity.ERROR).count();
        long warnings = findings.stream().filter(f -> !f.expected() && host.host().equals(f.host())
                && f.severity() == Severity.WARNING).count();
        if (errors > 0) {
            return "FAILED (" + errors + " error(s)" + (warnings > 0 ? ", " + warnings + " warning(s)" : "") + ")";
        }
        return warnings > 0 ? "WARNINGS (" + warnings + ")" : "ok";
    }

    /** "RESET > INIT > RTR > RTS > ERR (inferred from hostB#51: completion IBV_WC_…)". */
    static String path(List<String> states, QpFinalState last, String host) {
        String text = states(states);
        if (last != null && last.inferred()) {
            text += " (" + last.state() + " inferred from " + host + "#" + last.seq() + ": " + last.what() + ")";
        }
        return text;
    }

    /** What a failure without a cause in the trace can be followed up with. */
    /**
     * What to record next for a failure no cause explains: a program that gave up by itself said why on its
     * own output (no packet was sent), anything else follows from what the wire did.
     */
    static String captureNext(Finding failure) {
        return failure.ruleId().equals("program-failed")
                ? "the program's own error output (its stderr) names the check it failed; record it beside the trace"
                : captureNext();
    }

    static String captureNext() {
        return "capture the packets of both hosts (tcpdump -i IFACE -w HOST.pcap udp port 4791) and read which PSN, "
                + "opcode and NAK the failure follows";
    }

    static String connection(ConnectionSummary c) {
        return c.hostA() + " QP " + qpHex(c.qpA()) + " <-> " + c.hostB() + " QP " + qpHex(c.qpB());
    }
}
