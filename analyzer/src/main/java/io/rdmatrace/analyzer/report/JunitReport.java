package io.rdmatrace.analyzer.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.rule.RuleOutcome;
import io.rdmatrace.analyzer.rule.RuleProblem;

/**
 * The report for CI: one test case per rule (it fails when the rule found something at or
 * above {@code --fail-on}), plus one erroring test case per rule file that could not be used.
 */
final class JunitReport implements ReportWriter {

    @Override
    public void write(AnalysisResult result, ReportOptions options, PrintWriter out) {
        long failures = result.outcomes().stream().filter(o -> !o.failed() && failing(o, options)).count();
        long errors = result.ruleProblems().size();
        int tests = result.outcomes().size() + (int) result.ruleProblems().stream()
                .filter(p -> result.outcomes().stream().noneMatch(o -> o.failed() && o.problem() == p)).count();
        out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        out.printf(Locale.ROOT, "<testsuite name=\"rdmatrace-analyze\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">%n",
                tests, failures, errors, result.ruleNanos() / 1e9);
        for (RuleOutcome o : inReportOrder(result)) {
            out.printf(Locale.ROOT, "  <testcase classname=\"rdmatrace.rules\" name=\"%s\" time=\"%.3f\">%n",
                    xml(o.rule().id()), o.elapsedNanos() / 1e9);
            if (o.failed()) {
                out.printf("    <error message=\"%s\"/>%n", xml(o.problem().toString()));
            } else if (failing(o, options)) {
                out.printf("    <failure type=\"%s\" message=\"%s\">%s</failure>%n", o.rule().severity().label(),
                        xml(o.rule().title()), xml(details(o)));
            } else if (!o.findings().isEmpty()) {
                out.printf("    <system-out>%s</system-out>%n", xml(details(o)));
            }
            out.println("  </testcase>");
        }
        for (RuleProblem p : result.ruleProblems()) {
            if (result.outcomes().stream().anyMatch(o -> o.failed() && o.problem() == p)) {
                continue; // already reported as that rule's error
            }
            out.printf("  <testcase classname=\"rdmatrace.rules\" name=\"%s\">%n", xml(p.file()));
            out.printf("    <error message=\"%s\"/>%n", xml(p.message()));
            out.println("  </testcase>");
        }
        out.println("</testsuite>");
        out.flush();
    }

    /** The rules whose findings the report shows first come first (causes before consequences), then the rest. */
    private static List<RuleOutcome> inReportOrder(AnalysisResult result) {
        Map<String, Integer> position = new HashMap<>();
        List<Finding> ordered = result.diagnosis().ordered();
        for (int i = 0; i < ordered.size(); i++) {
            position.putIfAbsent(ordered.get(i).ruleId(), i);
        }
        List<RuleOutcome> outcomes = new ArrayList<>(result.outcomes());
        outcomes.sort(Comparator.comparingInt(o -> position.getOrDefault(o.rule().id(), Integer.MAX_VALUE)));
        return outcomes;
    }

    private static boolean failing(RuleOutcome o, ReportOptions options) {
        return !o.findings().isEmpty() && options.fails(o.rule().severity());
    }

    private static String details(RuleOutcome o) {
        StringBuilder text = new StringBuilder();
        for (Finding f : o.findings()) {
            text.append(Lookup.where(f)).append(": ").append(f.message()).append("\n  evidence: ")
                    .append(Lookup.evidence(f)).append('\n');
        }
        return text.append("fix: ").append(o.rule().fix()).toString();
    }

    /** Escapes text for an XML attribute or element; drops characters XML 1.0 cannot carry. */
    static String xml(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
