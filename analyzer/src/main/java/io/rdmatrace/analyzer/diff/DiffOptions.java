package io.rdmatrace.analyzer.diff;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How two captures are compared.
 *
 * <p>Latency: for every (host role, verb) the per-call durations measured in C are compared by
 * their medians. A shift is reported only when all of these hold, so that scheduling noise on a
 * busy machine does not show up as a regression:
 * <ol>
 *   <li>both captures have at least {@code latencyMinSamples} calls of that verb;</li>
 *   <li>the median ratio B/A is at least {@code latencyRatio} (or at most its inverse);</li>
 *   <li>the interquartile ranges do not overlap (B's 25th percentile is above A's 75th for a
 *       slowdown, B's 75th below A's 25th for a speed-up);</li>
 *   <li>the medians differ by at least {@code latencyMinShiftNanos}.</li>
 * </ol>
 *
 * @param ignored              field names never compared ({@link FieldCatalog})
 * @param latencyRatio         median ratio that counts as a shift (default 2.0)
 * @param latencyMinSamples    calls needed on each side before a verb is judged (default 20)
 * @param latencyMinShiftNanos smallest absolute median shift reported (default 1000 ns)
 * @param failOnLatency        when true a reported latency shift also makes the diff fail
 */
public record DiffOptions(Set<String> ignored, double latencyRatio, int latencyMinSamples, long latencyMinShiftNanos,
                          boolean failOnLatency) {
    public static final double DEFAULT_LATENCY_RATIO = 2.0;
    public static final int DEFAULT_LATENCY_MIN_SAMPLES = 20;
    public static final long DEFAULT_LATENCY_MIN_SHIFT_NANOS = 1_000;

    public DiffOptions {
        ignored = Set.copyOf(ignored);
        if (!(latencyRatio > 1.0)) {
            throw new IllegalArgumentException("the latency ratio must be greater than 1, got " + latencyRatio);
        }
        if (latencyMinSamples < 1) {
            throw new IllegalArgumentException("the minimum latency sample count must be at least 1, got " + latencyMinSamples);
        }
        if (latencyMinShiftNanos < 0) {
            throw new IllegalArgumentException("the minimum latency shift must not be negative");
        }
    }

    /** The defaults: {@link FieldCatalog#defaultIgnored()}, ratio 2, 20 samples, 1 µs, latency informational. */
    public static DiffOptions defaults() {
        return new DiffOptions(FieldCatalog.defaultIgnored(), DEFAULT_LATENCY_RATIO, DEFAULT_LATENCY_MIN_SAMPLES,
                DEFAULT_LATENCY_MIN_SHIFT_NANOS, false);
    }

    /**
     * These options with more ignored fields ({@code --ignore} words, groups allowed).
     *
     * @throws IllegalArgumentException for an unknown field name
     */
    public DiffOptions ignoring(Collection<String> words) {
        Set<String> more = new LinkedHashSet<>(ignored);
        for (String word : words) {
            if (!word.isBlank()) {
                more.addAll(FieldCatalog.resolve(word));
            }
        }
        return new DiffOptions(more, latencyRatio, latencyMinSamples, latencyMinShiftNanos, failOnLatency);
    }

    public DiffOptions withLatency(double ratio, int minSamples, long minShiftNanos, boolean fail) {
        return new DiffOptions(ignored, ratio, minSamples, minShiftNanos, fail);
    }

    /** False when latency was named in {@code --ignore}. */
    public boolean comparesLatency() {
        return !ignored.contains("latency");
    }

    boolean ignores(String valueKey) {
        return FieldCatalog.ignored(ignored, valueKey);
    }
}
