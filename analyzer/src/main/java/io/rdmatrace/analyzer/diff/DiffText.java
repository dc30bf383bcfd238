package io.rdmatrace.analyzer.diff;

import java.util.List;
import java.util.Locale;

/** The plain-text rendering of a {@link DiffReport}, for terminals and CI logs. */
final class DiffText {
    private static final int SITES_SHOWN = 3;

    private DiffText() {
    }

    static String render(DiffReport r) {
        StringBuilder out = new StringBuilder();
        out.append("A: ").append(r.labelA()).append('\n');
        out.append("B: ").append(r.labelB()).append('\n');
        out.append("hosts (paired by ").append(r.pairedBy()).append("):");
        for (HostPair p : r.hosts()) {
            out.append("  ").append(p.role()).append(": ").append(orNone(p.hostA())).append(" ↔ ").append(orNone(p.hostB()));
        }
        out.append("\n\n");
        DiffCategory current = null;
        for (Difference d : r.differences()) {
            if (d.category() != current) {
                current = d.category();
                out.append(current.title()).append(current.behavioural() ? "" : " (not behavioural)").append('\n');
            }
            out.append("  ").append(d.role()).append("  ").append(d.what()).append("  ");
            if (d.field().equals("presence")) {
                out.append(d.a().equals("present") ? "only in A" : "only in B");
            } else {
                out.append(d.fieldLabel()).append(": ").append(d.a()).append(" → ").append(d.b());
            }
            out.append(d.where().size() > 1 ? "  (" + d.where().size() + " sites)" : "").append('\n');
            out.append("      at ").append(sites(d.where())).append('\n');
        }
        if (!r.differences().isEmpty()) {
            out.append('\n');
        }
        latency(r, out);
        if (!r.notes().isEmpty()) {
            out.append("notes\n");
            for (String note : r.notes()) {
                out.append("  ").append(note).append('\n');
            }
            out.append('\n');
        }
        out.append(DiffFormat.summary(r)).append('\n');
        return out.toString();
    }

    private static void latency(DiffReport r, StringBuilder out) {
        if (!r.options().comparesLatency()) {
            out.append("latency: not compared (--ignore latency)\n\n");
            return;
        }
        List<LatencyComparison> judged = r.latency().stream()
                .filter(l -> l.verdict() != LatencyComparison.Verdict.TOO_FEW_SAMPLES).toList();
        List<LatencyComparison> shifts = r.latencyShifts();
        out.append("latency: ").append(judged.size()).append(" verb").append(judged.size() == 1 ? "" : "s")
                .append(" with enough calls, ").append(shifts.size()).append(" shifted beyond noise (")
                .append(DiffFormat.latencyRules(r.options())).append(')')
                .append(r.options().failOnLatency() ? "" : "; informational").append('\n');
        for (LatencyComparison l : shifts) {
            out.append(String.format(Locale.ROOT, "  %s  %s  median %s → %s  ×%.2f  (%d / %d calls)%n", l.role(), l.verb(),
                    DiffFormat.nanos(l.medianA()), DiffFormat.nanos(l.medianB()), l.ratio(), l.samplesA(), l.samplesB()));
        }
        out.append('\n');
    }

    private static String sites(List<Difference.Where> where) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(SITES_SHOWN, where.size()); i++) {
            Difference.Where w = where.get(i);
            if (i > 0) {
                s.append("; ");
            }
            s.append(w.describe());
            String seqs = DiffFormat.seqs(w);
            if (!seqs.isEmpty()) {
                s.append(" (").append(seqs).append(')');
            }
        }
        if (where.size() > SITES_SHOWN) {
            s.append("; and ").append(where.size() - SITES_SHOWN).append(" more");
        }
        return s.toString();
    }

    private static String orNone(String host) {
        return host == null ? "(none)" : host;
    }
}
