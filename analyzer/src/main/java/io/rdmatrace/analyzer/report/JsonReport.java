package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ClockEstimate;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Diagnosis;
import io.rdmatrace.analyzer.QpFinalState;
import io.rdmatrace.analyzer.WireCounter;
import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;

/**
 * The report for machines. The schema is versioned ({@code "schema": "rdmatrace-analysis/1"})
 * and documented in rules/README.md "JSON report"; fields are only ever added.
 */
final class JsonReport implements ReportWriter {
    static final String SCHEMA = "rdmatrace-analysis/1";

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        Map<String, Rule> rules = Lookup.rulesById(result);
        Diagnosis diagnosis = result.diagnosis();
        List<Finding> all = result.findings();
        out.print("{");
        Json.field(out, true, "schema", Json.string(SCHEMA));
        Json.field(out, false, "headline", strings(Summary.lines(result, diagnosis)));
        out.print(",\"summary\":{");
        Json.field(out, true, "error", Long.toString(result.count(Severity.ERROR)));
        Json.field(out, false, "warning", Long.toString(result.count(Severity.WARNING)));
        Json.field(out, false, "info", Long.toString(result.count(Severity.INFO)));
        Json.field(out, false, "events", Long.toString(result.load().events()));
        Json.field(out, false, "load_ms", String.format(Locale.ROOT, "%.3f", result.load().elapsedNanos() / 1e6));
        Json.field(out, false, "rules_ms", String.format(Locale.ROOT, "%.3f", result.ruleNanos() / 1e6));
        out.print("}");
        out.print(",\"hosts\":[");
        List<HostLoad> hosts = result.load().hosts();
        for (int i = 0; i < hosts.size(); i++) {
            HostLoad h = hosts.get(i);
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "host", Json.string(h.host()));
            Json.field(out, false, "folder", Json.string(h.folder()));
            Json.field(out, false, "status", Json.string(h.status()));
            Json.field(out, false, "integrity", Json.string(Lookup.integrity(h)));
            Json.field(out, false, "verdict", Json.string(Lookup.verdict(h, all)));
            Json.field(out, false, "readable", Boolean.toString(h.readable()));
            Json.field(out, false, "events", Long.toString(h.events()));
            Json.field(out, false, "detail", Json.string(h.detail()));
            result.ending(h.host()).ifPresent(e -> Json.field(out, false, "ending", ending(e)));
            out.print("}");
        }
        out.print("],\"root_problems\":[");
        out.print(String.join(",", result.load().rootProblems().stream().map(Json::string).toList()));
        out.print("],\"connections\":[");
        for (int i = 0; i < result.connections().size(); i++) {
            ConnectionSummary c = result.connections().get(i);
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "pair_id", Long.toString(c.pairId()));
            Json.field(out, false, "host_a", Json.string(c.hostA()));
            Json.field(out, false, "qp_a", Long.toString(c.qpA()));
            Json.field(out, false, "host_b", Json.string(c.hostB()));
            Json.field(out, false, "qp_b", Long.toString(c.qpB()));
            Json.field(out, false, "qp_type", Json.string(c.qpType()));
            Json.field(out, false, "matched_by", Json.string(c.matchedBy()));
            Json.field(out, false, "states_a", strings(c.statesA()));
            Json.field(out, false, "states_b", strings(c.statesB()));
            Json.field(out, false, "final_a", finalState(c.finalA()));
            Json.field(out, false, "final_b", finalState(c.finalB()));
            out.print("}");
        }
        out.print("],\"wire\":[");
        for (int i = 0; i < result.wire().size(); i++) {
            WireCounter w = result.wire().get(i);
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "host", Json.string(w.host()));
            Json.field(out, false, "seq", Long.toString(w.seq()));
            Json.field(out, false, "counter", Json.string(w.counter()));
            Json.field(out, false, "delta", Long.toString(w.delta()));
            Json.field(out, false, "role", Json.string(w.role()));
            Json.field(out, false, "meaning", Json.string(w.meaning()));
            out.print("}");
        }
        out.print("],\"clocks\":[");
        for (int i = 0; i < result.clocks().size(); i++) {
            ClockEstimate c = result.clocks().get(i);
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "host", Json.string(c.host()));
            Json.field(out, false, "reference_host", Json.string(c.referenceHost()));
            Json.field(out, false, "offset_ns", Long.toString(c.offsetNs()));
            Json.field(out, false, "uncertainty_ns", Long.toString(c.uncertaintyNs()));
            Json.field(out, false, "samples", Long.toString(c.samples()));
            Json.field(out, false, "method", Json.string(c.method()));
            out.print("}");
        }
        out.print("],\"findings\":[");
        List<Finding> findings = diagnosis.ordered(); // causes before their consequences
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            Rule rule = rules.get(f.ruleId());
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "rule", Json.string(f.ruleId()));
            Json.field(out, false, "severity", Json.string(f.severity().label()));
            Json.field(out, false, "role", Json.string(f.role().label()));
            Json.field(out, false, "expected", Boolean.toString(f.expected()));
            Json.field(out, false, "title", Json.string(rule.title()));
            Json.field(out, false, "host", Json.string(f.host()));
            Json.field(out, false, "qp", Json.number(f.qp()));
            Json.field(out, false, "message", Json.string(f.message()));
            out.print(",\"evidence\":[");
            for (int e = 0; e < f.evidence().size(); e++) {
                Evidence ev = f.evidence().get(e);
                out.print((e == 0 ? "{" : ",{") + "\"host\":" + Json.string(ev.host()) + ",\"seq\":" + ev.seq() + "}");
            }
            out.print("],\"caused_by\":[");
            List<Finding> causes = diagnosis.causesOf(f);
            for (int c = 0; c < causes.size(); c++) {
                Finding cause = causes.get(c);
                out.print((c == 0 ? "{" : ",{") + "\"rule\":" + Json.string(cause.ruleId()) + ",\"host\":"
                        + Json.string(cause.host()) + ",\"qp\":" + Json.number(cause.qp()) + "}");
            }
            out.print("]");
            Json.field(out, false, "fix", Json.string(rule.fix()));
            out.print("}");
        }
        out.print("],\"rule_problems\":[");
        for (int i = 0; i < result.ruleProblems().size(); i++) {
            RuleProblem p = result.ruleProblems().get(i);
            out.print((i == 0 ? "{" : ",{") + "\"file\":" + Json.string(p.file()) + ",\"message\":" + Json.string(p.message()) + "}");
        }
        out.print("],\"rules\":[");
        for (int i = 0; i < result.outcomes().size(); i++) {
            RuleOutcome o = result.outcomes().get(i);
            out.print(i == 0 ? "{" : ",{");
            Json.field(out, true, "id", Json.string(o.rule().id()));
            Json.field(out, false, "severity", Json.string(o.rule().severity().label()));
            Json.field(out, false, "role", Json.string(o.rule().role().label()));
            Json.field(out, false, "findings", Integer.toString(o.findings().size()));
            Json.field(out, false, "failed", Boolean.toString(o.failed()));
            Json.field(out, false, "elapsed_ms", String.format(Locale.ROOT, "%.3f", o.elapsedNanos() / 1e6));
            if (options.verbose()) {
                Json.field(out, false, "sql", Json.string(o.rule().sql()));
            }
            out.print("}");
        }
        out.println("]}");
        out.flush();
    }

    private static String finalState(QpFinalState state) {
        if (state == null) {
            return "null";
        }
        return "{\"state\":" + Json.string(state.state()) + ",\"seq\":" + state.seq() + ",\"source\":"
                + Json.string(state.source()) + ",\"what\":" + Json.string(state.what()) + "}";
    }

    private static String strings(List<String> values) {
        return "[" + String.join(",", values.stream().map(Json::string).toList()) + "]";
    }

    /** How a host's recording ended: {"how", "exit_status", "signal", "recorder_signal", "detail", "text"}, nulls kept. */
    private static String ending(io.rdmatrace.analyzer.HostEnding e) {
        return "{\"how\":" + Json.string(e.ending())
                + ",\"exit_status\":" + e.exitStatus()
                + ",\"signal\":" + e.signal()
                + ",\"recorder_signal\":" + e.recorderSignal()
                + ",\"detail\":" + (e.detail() == null ? "null" : Json.string(e.detail()))
                + ",\"text\":" + Json.string(e.text()) + "}";
    }
}
