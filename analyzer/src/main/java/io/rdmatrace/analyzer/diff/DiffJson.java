package io.rdmatrace.analyzer.diff;

import java.util.Locale;
import java.util.TreeSet;

import io.rdmatrace.analyzer.report.JsonWriter;

/** The JSON rendering of a {@link DiffReport}, for firmware CI to read. */
final class DiffJson {
    private DiffJson() {
    }

    static String render(DiffReport r) {
        JsonWriter j = new JsonWriter().beginObject();
        j.member("a", r.labelA()).member("b", r.labelB());
        j.member("equivalent", r.equivalent());
        j.member("behavioural_differences", r.behavioural().size());
        j.member("paired_by", r.pairedBy());
        j.name("hosts").beginArray();
        for (HostPair p : r.hosts()) {
            j.beginObject().member("role", p.role()).member("a", p.hostA()).member("b", p.hostB()).endObject();
        }
        j.endArray();
        j.name("differences").beginArray();
        for (Difference d : r.differences()) {
            j.beginObject().member("category", d.category().name().toLowerCase(Locale.ROOT))
                    .member("title", d.category().title()).member("behavioural", d.behavioural())
                    .member("role", d.role()).member("what", d.what()).member("field", d.field())
                    .member("a", d.a()).member("b", d.b());
            j.name("sites").beginArray();
            for (Difference.Where w : d.where()) {
                j.beginObject().member("step", w.site().step()).member("object", w.site().object())
                        .member("what", w.site().what()).member("occurrence", w.site().occurrence())
                        .member("seq_a", w.seqA()).member("seq_b", w.seqB()).member("detail", w.detail()).endObject();
            }
            j.endArray().endObject();
        }
        j.endArray();
        j.name("latency").beginObject();
        j.member("compared", r.options().comparesLatency()).member("gating", r.options().failOnLatency());
        j.name("ratio").value(r.options().latencyRatio()).member("min_samples", r.options().latencyMinSamples())
                .member("min_shift_ns", r.options().latencyMinShiftNanos());
        j.name("verbs").beginArray();
        for (LatencyComparison l : r.latency()) {
            j.beginObject().member("role", l.role()).member("verb", l.verb())
                    .member("samples_a", l.samplesA()).member("samples_b", l.samplesB())
                    .member("median_a_ns", l.medianA()).member("median_b_ns", l.medianB())
                    .member("p25_a_ns", l.p25A()).member("p75_a_ns", l.p75A())
                    .member("p25_b_ns", l.p25B()).member("p75_b_ns", l.p75B());
            j.name("ratio").value(l.ratio()).member("verdict", l.verdict().name().toLowerCase(Locale.ROOT)).endObject();
        }
        j.endArray().endObject();
        j.name("notes").beginArray();
        r.notes().forEach(j::value);
        j.endArray();
        j.name("ignored").beginArray();
        new TreeSet<>(r.options().ignored()).forEach(j::value);
        j.endArray();
        return j.endObject().toJson();
    }
}
