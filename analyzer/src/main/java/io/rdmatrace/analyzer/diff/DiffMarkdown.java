package io.rdmatrace.analyzer.diff;

import java.util.Locale;

/** The markdown rendering of a {@link DiffReport}, for pull requests and bug reports. */
final class DiffMarkdown {
    private static final int SITES_SHOWN = 5;

    private DiffMarkdown() {
    }

    static String render(DiffReport r) {
        StringBuilder out = new StringBuilder("# rdmatrace diff\n\n");
        out.append("| | A | B |\n|---|---|---|\n");
        out.append("| capture | `").append(cell(r.labelA())).append("` | `").append(cell(r.labelB())).append("` |\n");
        for (HostPair p : r.hosts()) {
            out.append("| ").append(cell(p.role())).append(" | ").append(cell(orNone(p.hostA()))).append(" | ")
                    .append(cell(orNone(p.hostB()))).append(" |\n");
        }
        out.append("\nHosts paired by ").append(r.pairedBy()).append(".\n\n**").append(DiffFormat.summary(r)).append("**\n");
        DiffCategory current = null;
        for (Difference d : r.differences()) {
            if (d.category() != current) {
                current = d.category();
                out.append("\n## ").append(capitalised(current.title()))
                        .append(current.behavioural() ? "" : " (not behavioural)").append("\n\n");
                out.append("| role | what | field | A | B | where |\n|---|---|---|---|---|---|\n");
            }
            out.append("| ").append(cell(d.role())).append(" | ").append(cell(d.what())).append(" | ")
                    .append(cell(d.fieldLabel())).append(" | ").append(cell(d.a())).append(" | ").append(cell(d.b()))
                    .append(" | ").append(cell(sites(d))).append(" |\n");
        }
        out.append("\n## Latency\n\n");
        if (!r.options().comparesLatency()) {
            out.append("Not compared (`--ignore latency`).\n");
        } else {
            out.append("A shift is reported when: ").append(DiffFormat.latencyRules(r.options())).append(".\n\n");
            out.append("| role | verb | calls A | calls B | median A | median B | ratio | verdict |\n"
                    + "|---|---|---|---|---|---|---|---|\n");
            for (LatencyComparison l : r.latency()) {
                out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %s | %.2f | %s |%n", cell(l.role()),
                        cell(l.verb()), l.samplesA(), l.samplesB(), DiffFormat.nanos(l.medianA()),
                        DiffFormat.nanos(l.medianB()), l.ratio(), l.verdict().name().toLowerCase(Locale.ROOT)
                                .replace('_', ' ')));
            }
        }
        if (!r.notes().isEmpty()) {
            out.append("\n## Notes\n\n");
            for (String note : r.notes()) {
                out.append("- ").append(cell(note)).append('\n');
            }
        }
        return out.toString();
    }

    private static String sites(Difference d) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(SITES_SHOWN, d.where().size()); i++) {
            Difference.Where w = d.where().get(i);
            s.append(i > 0 ? "<br>" : "").append(w.describe());
            String seqs = DiffFormat.seqs(w);
            if (!seqs.isEmpty()) {
                s.append(" (").append(seqs).append(')');
            }
        }
        if (d.where().size() > SITES_SHOWN) {
            s.append("<br>and ").append(d.where().size() - SITES_SHOWN).append(" more");
        }
        return s.toString();
    }

    /** Text safe inside a table cell: pipes escaped, newlines flattened, HTML brackets neutralised. */
    static String cell(String text) {
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")
                .replace("<br>", "\u0000").replace("<", "&lt;").replace(">", "&gt;").replace("\u0000", "<br>");
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String orNone(String host) {
        return host == null ? "(none)" : host;
    }
}
