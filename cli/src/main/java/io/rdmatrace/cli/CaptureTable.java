package io.rdmatrace.cli;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.run.CaptureReport;
import io.rdmatrace.capture.run.TestCaseResult;
import java.io.PrintWriter;

/** The per-step PASS/FAIL table `rdmatrace capture` prints at the end. */
final class CaptureTable {
    private static final int TEXT_WIDTH = 100;

    private CaptureTable() {
    }

    static void print(PrintWriter out, CaptureConfig config, CaptureReport r, boolean verbose) {
        var w = config.workload();
        out.printf("rdmatrace capture: %s (%s)%s, %d %s QP(s), %s %d B x %d%n", config.hostId(),
                config.link().role().label(), r.peerHost() != null ? " <-> " + r.peerHost() : "", w.qps(), w.qpType(),
                w.op().label(), w.size(), w.iterations());
        for (TestCaseResult t : r.results()) {
            out.printf("  %-6s %-34s %-4s  %s%n", t.id(), clip(t.title(), 34), t.verdict(), text(t, verbose));
        }
        if (r.peerHost() != null || r.peerText() != null) {
            String verdict = r.peerPassed() == null ? "?" : r.peerPassed() ? "PASS" : "FAIL";
            out.printf("  %-6s %-34s %-4s  %s%n", "peer", r.peerHost() != null ? r.peerHost() : "-", verdict,
                    wrap(r.peerText() == null ? "" : r.peerText(), TEXT_WIDTH));
        }
        if (r.traceDir() == null) {
            out.println("trace: none (--no-record)");
        } else {
            out.printf("trace: %s (%d events)%s%n", r.traceDir(), r.events(),
                    r.traceProblem() != null ? " INCOMPLETE: " + r.traceProblem() : "");
        }
        out.println(r.passed() ? "PASS" : "FAIL");
        out.flush();
    }

    /** The text column: 2 + 6 + 1 + 34 + 1 + 4 + 2 characters in. */
    private static final String CONTINUATION = " ".repeat(50);

    /** The text column of a step: its summary, or with {@code verbose} every note, one per line (each wrapped). */
    static String text(TestCaseResult t, boolean verbose) {
        if (!verbose || t.notes().isEmpty()) {
            return wrap(t.text(), TEXT_WIDTH);
        }
        StringBuilder out = new StringBuilder();
        for (String note : t.notes()) {
            if (out.length() > 0) {
                out.append(System.lineSeparator()).append(CONTINUATION);
            }
            out.append(wrap(note, TEXT_WIDTH));
        }
        return out.toString();
    }

    /** A failure reason in full: broken at spaces into lines of at most {@code width}, continued under the text column. */
    static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        int lineStart = 0;
        for (String word : text.split(" ", -1)) {
            int lineLength = out.length() - lineStart;
            if (lineLength > 0 && lineLength + 1 + word.length() > width) {
                out.append(System.lineSeparator()).append(CONTINUATION);
                lineStart = out.length();
            } else if (out.length() > lineStart) {
                out.append(' ');
            }
            out.append(word);
        }
        return out.toString();
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
