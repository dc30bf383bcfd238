package io.rdmatrace.analyzer.diff;

import java.util.Locale;
import java.util.function.Function;

/** The output formats of {@code rdmatrace diff}. */
public enum DiffFormat {
    TEXT(DiffText::render),
    JSON(DiffJson::render),
    MARKDOWN(DiffMarkdown::render);

    private final Function<DiffReport, String> renderer;

    DiffFormat(Function<DiffReport, String> renderer) {
        this.renderer = renderer;
    }

    public String render(DiffReport report) {
        return renderer.apply(report);
    }

    /** "text", "json", "markdown" (or "md"). */
    public static DiffFormat parse(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (n.equals("md")) {
            return MARKDOWN;
        }
        for (DiffFormat f : values()) {
            if (f.name().toLowerCase(Locale.ROOT).equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + name + "' (expected text, json or markdown)");
    }

    /** A duration for people: 850 ns, 1.2 µs, 3.40 ms. */
    static String nanos(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    /** "seq 14 / 14", "seq 14 / -" for people. */
    static String seqs(Difference.Where w) {
        if (w.seqA() < 0 && w.seqB() < 0) {
            return "";
        }
        return "seq " + (w.seqA() < 0 ? "-" : Long.toString(w.seqA())) + " / " + (w.seqB() < 0 ? "-" : Long.toString(w.seqB()));
    }

    static String latencyRules(DiffOptions o) {
        return String.format(Locale.ROOT, "median ratio ≥ %.2f or ≤ %.2f, interquartile ranges apart, medians ≥ %s apart, "
                + "≥ %d calls on each side", o.latencyRatio(), 1 / o.latencyRatio(), nanos(o.latencyMinShiftNanos()),
                o.latencyMinSamples());
    }

    static String summary(DiffReport r) {
        int n = r.behavioural().size();
        int shifts = r.latencyShifts().size();
        if (r.equivalent()) {
            return "equivalent: no behavioural difference" + (shifts > 0 ? " (" + shifts + " latency shift"
                    + (shifts == 1 ? "" : "s") + " reported, not gating)" : "");
        }
        String s = n + " behavioural difference" + (n == 1 ? "" : "s");
        if (r.options().failOnLatency() && shifts > 0) {
            s += (n > 0 ? " and " : "") + shifts + " latency shift" + (shifts == 1 ? "" : "s");
        }
        return "DIFFERENT: " + s;
    }
}
