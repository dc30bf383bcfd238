package io.rdmatrace.capture.replay;

import java.io.PrintWriter;
import java.util.List;

/**
 * The replay report for people: per host, each departure with its sentence, the consequences
 * indented under it, then the notes; a last line with the verdict.
 */
public final class ReplayReportText {
    /** Consequences listed under one departure before "… and N more". */
    private static final int CONSEQUENCES_SHOWN = 8;

    private ReplayReportText() {
    }

    public static void write(ReplayResult result, String trace, PrintWriter out) {
        out.printf("replay of %s on %s%s; recorded again under %s%n", trace, result.library(),
                result.onReference() ? ", the reference" : "", result.outDir());
        long departures = 0;
        for (HostReplayReport h : result.hosts()) {
            departures += h.departures();
            host(h, out);
        }
        boolean failed = result.hosts().stream().anyMatch(h -> h.failure() != null);
        if (!result.diverged()) {
            out.println("result: the replay matches the recording");
        } else {
            out.printf("result: the replay departs from the recording (%d departure%s%s)%n", departures,
                    departures == 1 ? "" : "s", failed ? "; a host could not be replayed to the end" : "");
        }
        out.flush();
    }

    private static void host(HostReplayReport h, PrintWriter out) {
        long departures = h.departures();
        long consequences = h.divergences().size() - departures;
        String device = h.device() == null || h.device().isEmpty() ? "" : " on " + h.device();
        out.printf("%s%s: %d call%s and %d completion%s replayed, %s%n", h.host(), device, h.callsReplayed(),
                h.callsReplayed() == 1 ? "" : "s", h.completionsCompared(), h.completionsCompared() == 1 ? "" : "s",
                h.divergences().isEmpty() ? "no divergence"
                        : departures + " departure" + (departures == 1 ? "" : "s")
                        + (consequences > 0 ? " (+" + consequences + " consequence" + (consequences == 1 ? "" : "s") + ")" : ""));
        for (Divergence d : h.divergences()) {
            if (!d.isDeparture()) {
                continue;
            }
            out.printf("  #%d %s%s: %s%s%n", d.seq(), d.step().isEmpty() ? "" : d.step() + " ", d.verb(), d.message(),
                    d.repeats().isEmpty() ? "" : " (again at " + seqs(d.repeats()) + ")");
            List<String> lines = consequences(h.divergences(), d.seq());
            for (int i = 0; i < lines.size() && i < CONSEQUENCES_SHOWN; i++) {
                out.println("      then " + lines.get(i));
            }
            if (lines.size() > CONSEQUENCES_SHOWN) {
                out.printf("      … and %d more%n", lines.size() - CONSEQUENCES_SHOWN);
            }
        }
        for (String note : h.notes()) {
            out.println("  note: " + note);
        }
        if (h.failure() != null) {
            out.println("  stopped: " + h.failure());
        }
    }

    /**
     * One line per recorded event that diverged because of departure {@code cause}: the values of
     * one call that differ are joined ("qp_state IBV_QPS_RTS → IBV_QPS_RESET, sq_psn …").
     */
    private static List<String> consequences(List<Divergence> all, long cause) {
        java.util.Map<String, List<Divergence>> byEvent = new java.util.LinkedHashMap<>();
        for (Divergence x : all) {
            if (x.causeSeq() != null && x.causeSeq() == cause) {
                byEvent.computeIfAbsent(x.seq() + " " + x.verb(), k -> new java.util.ArrayList<>()).add(x);
            }
        }
        List<String> lines = new java.util.ArrayList<>();
        for (List<Divergence> event : byEvent.values()) {
            Divergence first = event.get(0);
            boolean values = event.stream().allMatch(x -> x.kind() == Divergence.Kind.VALUE
                    || x.kind() == Divergence.Kind.COMPLETION);
            String what = values && event.size() > 1
                    ? event.stream().map(x -> x.field() + " " + x.recorded() + " → " + x.replayed())
                            .collect(java.util.stream.Collectors.joining(", "))
                    : first.message();
            lines.add("#" + first.seq() + " " + first.verb() + ": " + what);
        }
        return lines;
    }

    private static String seqs(List<Long> seqs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < seqs.size() && i < 6; i++) {
            b.append(i == 0 ? "#" : ", #").append(seqs.get(i));
        }
        return seqs.size() > 6 ? b + " …" : b.toString();
    }
}
