package io.rdmatrace.analyzer.export;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.report.ReportFormat;
import io.rdmatrace.analyzer.report.ReportOptions;

/**
 * The bundle's {@code report.md}: where it came from, the analysis exactly as
 * {@code rdmatrace analyze --format markdown} prints it, and what was redacted.
 */
final class BundleReport {
    private BundleReport() {
    }

    static String markdown(String source, String toolVersion, AnalysisResult analysis, RedactionSummary redaction) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        out.println("# rdmatrace bug-report bundle");
        out.println();
        out.printf("Exported by rdmatrace %s from `%s`; %s.%n", toolVersion, source.replace("`", "'"),
                redaction == null ? "not redacted" : "redacted (see the last section)");
        out.println("`rdmatrace analyze` and `rdmatrace diff` read this zip as they read a trace folder.");
        out.println();
        ReportFormat.MARKDOWN.writer().write(analysis, ReportOptions.DEFAULT, out);
        out.println();
        out.println("## Redaction");
        out.println();
        if (redaction == null) {
            out.println("None: host names, addresses, GIDs, keys and paths appear as captured.");
        } else {
            out.println("Every value below was replaced by a pseudonym, consistently across hosts and files (the same "
                    + "value always became the same pseudonym), keyed by a random secret that was not kept. Counts are "
                    + "of distinct original values.");
            out.println();
            for (String line : redaction.lines()) {
                out.println("- " + line);
            }
            out.println();
            out.println("Kept as captured: QP numbers, PSNs, Q_Keys, P_Keys, timestamps, process ids, firmware versions, "
                    + "device limits, counters, errnos and completion statuses.");
        }
        out.flush();
        return text.toString();
    }
}
