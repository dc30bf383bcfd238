package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.ConnectionSummary;
import io.rdmatrace.analyzer.Diagnosis;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.rule.Rule;
import io.rdmatrace.analyzer.rule.RuleProblem;

/**
 * The report to paste into a bug report: the summary, tables for hosts and connections, then
 * each cause with its consequences nested beneath.
 */
final class MarkdownReport implements ReportWriter {

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        Map<String, Rule> rules = Lookup.rulesById(result);
        Diagnosis diagnosis = result.diagnosis();
        List<Finding> all = result.findings();
        out.println("## rdmatrace analysis");
        out.println();
        for (String line : Summary.lines(result, diagnosis)) {
            out.println("**" + cell(line) + "**  ");
        }
        out.println();
        out.printf("%d error(s), %d warning(s), %d info; %d events from %d host folder(s).%n",
                result.count(Severity.ERROR), result.count(Severity.WARNING), result.count(Severity.INFO),
                result.load().events(), result.load().hosts().size());
        out.println();
        out.println("| host | trace | verdict | events | folder |");
        out.println("|---|---|---|---:|---|");
        for (HostLoad h : result.load().hosts()) {
            out.printf("| %s | %s | %s | %d | `%s` |%n", cell(h.host()), Lookup.integrity(h), Lookup.verdict(h, all),
                    h.events(), cell(h.folder()));
        }
        if (!result.connections().isEmpty()) {
            out.println();
            out.println("| # | connection | type | matched by | states A | states B |");
            out.println("|---:|---|---|---|---|---|");
            for (ConnectionSummary c : result.connections()) {
                out.printf("| %d | %s | %s | %s | %s | %s |%n", c.pairId(), cell(Lookup.connection(c)), c.qpType(),
                        c.matchedBy(), cell(Lookup.path(c.pathA(), c.finalA(), c.hostA())),
                        cell(Lookup.path(c.pathB(), c.finalB(), c.hostB())));
            }
        }
        if (!diagnosis.causes().isEmpty() || !diagnosis.unexplained().isEmpty()) {
            out.println();
            out.println("### Findings");
        }
        for (Finding cause : diagnosis.causes()) {
            out.println();
            item(out, cause, rules.get(cause.ruleId()), "");
            out.println("  *Fix:* " + cell(rules.get(cause.ruleId()).fix()));
            for (Finding consequence : diagnosis.consequencesOf(cause)) {
                item(out, consequence, rules.get(consequence.ruleId()), "  ");
            }
        }
        for (Finding failure : diagnosis.unexplained()) {
            out.println();
            item(out, failure, rules.get(failure.ruleId()), "");
            out.println("  *No cause in this trace;* capture next: " + cell(Lookup.captureNext(failure)));
        }
        if (!diagnosis.expected().isEmpty()) {
            out.println();
            if (options.all()) {
                for (Finding f : diagnosis.expected()) {
                    item(out, f, rules.get(f.ruleId()), "");
                }
            } else {
                Set<String> ids = new TreeSet<>();
                diagnosis.expected().forEach(f -> ids.add(f.ruleId()));
                out.printf("*Expected:* %d `%s` finding(s) from a deliberate probe (`--all` shows them).%n",
                        diagnosis.expected().size(), String.join("`, `", ids));
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

    private static void item(PrintWriter out, Finding f, Rule rule, String pad) {
        out.printf("%s- **%s `%s`** (%s) — %s: %s  %n%s  evidence: `%s`%n", pad, f.severity().name(), f.ruleId(),
                f.role().label(), cell(Lookup.where(f)), cell(f.message()), pad, Lookup.evidence(f));
    }

    /** Keeps table cells and list items on one line and free of table pipes. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }
}
