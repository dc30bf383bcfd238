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

    static void print(PrintWriter out, CaptureConfig config, CaptureReport r) {
        var w = config.workload();
        out.printf("rdmatrace capture: %s (%s)%s, %d %s QP(s), %s %d B x %d%n", config.hostId(),
                config.link().role().label(), r.peerHost() != null ? " <-> " + r.peerHost() : "", w.qps(), w.qpType(),
                w.op().label(), w.size(), w.iterations());
        for (TestCaseResult t : r.results()) {
            out.printf("  %-6s %-34s %-4s  %s%n", t.id(), clip(t.title(), 34), t.verdict(), clip(t.text(), TEXT_WIDTH));
        }
        if (r.peerHost() != null || r.peerText() != null) {
            String verdict = r.peerPassed() == null ? "?" : r.peerPassed() ? "PASS" : "FAIL";
            out.printf("  %-6s %-34s %-4s  %s%n", "peer", r.peerHost() != null ? r.peerHost() : "-", verdict,
                    clip(r.peerText() == null ? "" : r.peerText(), TEXT_WIDTH));
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

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
