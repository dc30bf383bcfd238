package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleProblem;

/** The report to paste into a bug report: tables for hosts and connections, findings as a list. */
final class MarkdownReport implements ReportWriter {

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        Map<String, Rule> rules = Lookup.rulesById(result);
        out.println("## rdmatrace analysis");
        out.println();
        out.printf("%d error(s), %d warning(s), %d info; %d events from %d host folder(s).%n",
                result.count(Severity.ERROR), result.count(Severity.WARNING), result.count(Severity.INFO),
                result.load().events(), result.load().hosts().size());
        out.println();
        out.println("| host | status | events | folder |");
        out.println("|---|---|---:|---|");
        for (HostLoad h : result.load().hosts()) {
            out.printf("| %s | %s | %d | `%s` |%n", cell(h.host()), h.status(), h.events(), cell(h.folder()));
        }
        if (!result.connections().isEmpty()) {
            out.println();
            out.println("| # | connection | type | matched by | states A | states B |");
            out.println("|---:|---|---|---|---|---|");
            for (ConnectionSummary c : result.connections()) {
                out.printf("| %d | %s | %s | %s | %s | %s |%n", c.pairId(), cell(Lookup.connection(c)), c.qpType(),
                        c.matchedBy(), Lookup.states(c.statesA()), Lookup.states(c.statesB()));
            }
        }
        List<Finding> findings = result.findings();
        if (!findings.isEmpty()) {
            out.println();
            out.println("### Findings");
        }
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            Rule rule = rules.get(f.ruleId());
            if (i == 0 || !findings.get(i - 1).ruleId().equals(f.ruleId())) {
                out.println();
                out.printf("**%s `%s`** — %s%n%n", f.severity().name(), f.ruleId(), rule.title());
            }
            out.printf("- %s: %s  %n  evidence: `%s`%n", cell(Lookup.where(f)), cell(f.message()), Lookup.evidence(f));
            if (i == findings.size() - 1 || !findings.get(i + 1).ruleId().equals(f.ruleId())) {
                out.println();
                out.println("  *Fix:* " + cell(rule.fix()));
            }
        }
        if (!result.ruleProblems().isEmpty()) {
            out.println();
            out.println("### Rule problems");
            out.println();
            for (RuleProblem p : result.ruleProblems()) {
                out.printf("- `%s`: %s%n", p.file(), cell(p.message()));
            }
        }
        out.flush();
    }

    /** Keeps table cells and list items on one line and free of table pipes. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }
}
