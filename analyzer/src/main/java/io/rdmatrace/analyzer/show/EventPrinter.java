package io.rdmatrace.analyzer.show;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;

import io.rdmatrace.analyzer.report.Json;

/** Prints shown events like {@code jfr print}: one block per event, or JSON with {@code --json}. */
public final class EventPrinter {
    private EventPrinter() {
    }

    public static void text(List<ShownEvent> events, PrintWriter out) {
        for (ShownEvent e : events) {
            out.printf("%s#%d %s %s {%n", e.host(), e.seq(), e.kind(), e.name());
            int width = "qp_state".length();
            for (ShownEvent.Field f : e.fields()) {
                width = Math.max(width, f.name().length());
            }
            String format = "  %-" + width + "s = %s%n";
            out.printf(format, "time", time(e.wallNs()) + (e.tsNs() != e.wallNs() ? "  (aligned " + time(e.tsNs()) + ")" : ""));
            if (e.thread() != null) {
                out.printf(format, "thread", e.thread());
            }
            if (e.qpState() != null) {
                out.printf(format, "qp_state", e.qpState() + "  (the QP's state when this event happened)");
            }
            for (ShownEvent.Field f : e.fields()) {
                out.printf(format, f.name(), f.text().startsWith(f.raw()) ? f.text() : f.text() + "  (" + f.raw() + ")");
            }
            out.println("}");
        }
        out.flush();
    }

    public static void json(List<ShownEvent> events, PrintWriter out) {
        out.print("{\"events\":[");
        for (int i = 0; i < events.size(); i++) {
            ShownEvent e = events.get(i);
            out.print(i == 0 ? "{" : ",{");
            out.print("\"host\":" + Json.string(e.host()) + ",\"seq\":" + e.seq() + ",\"kind\":" + Json.string(e.kind())
                    + ",\"name\":" + Json.string(e.name()) + ",\"wall_ns\":" + e.wallNs() + ",\"ts_ns\":" + e.tsNs()
                    + ",\"thread\":" + Json.string(e.thread()) + ",\"qp_state\":" + Json.string(e.qpState()) + ",\"fields\":{");
            for (int j = 0; j < e.fields().size(); j++) {
                ShownEvent.Field f = e.fields().get(j);
                out.print((j == 0 ? "" : ",") + Json.string(f.name()) + ":{\"value\":" + Json.string(f.raw()) + ",\"text\":"
                        + Json.string(f.text()) + "}");
            }
            out.print("}}");
        }
        out.println("]}");
        out.flush();
    }

    private static String time(long ns) {
        return Instant.ofEpochSecond(Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L)).toString();
    }
}
