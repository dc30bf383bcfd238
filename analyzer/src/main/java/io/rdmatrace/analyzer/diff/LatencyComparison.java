package io.rdmatrace.analyzer.diff;

import java.util.Arrays;

/**
 * The call durations of one verb on one host role in both captures, judged by
 * {@link DiffOptions}' noise rules.
 *
 * @param ratio medianB / medianA
 */
public record LatencyComparison(String role, String verb, int samplesA, int samplesB, long medianA, long medianB,
                                long p25A, long p75A, long p25B, long p75B, double ratio, Verdict verdict) {

    public enum Verdict {
        /** beyond noise by every rule of {@link DiffOptions} */
        SHIFTED,
        /** enough samples, but the shift is within the noise rules */
        WITHIN_NOISE,
        /** fewer calls than the minimum on at least one side: not judged */
        TOO_FEW_SAMPLES
    }

    public boolean shifted() {
        return verdict == Verdict.SHIFTED;
    }

    static LatencyComparison judge(String role, String verb, long[] a, long[] b, DiffOptions options) {
        long[] x = a.clone();
        long[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        long medA = quantile(x, 0.5);
        long medB = quantile(y, 0.5);
        long p25A = quantile(x, 0.25);
        long p75A = quantile(x, 0.75);
        long p25B = quantile(y, 0.25);
        long p75B = quantile(y, 0.75);
        double ratio = (double) Math.max(medB, 1) / Math.max(medA, 1);
        Verdict verdict;
        if (x.length < options.latencyMinSamples() || y.length < options.latencyMinSamples()) {
            verdict = Verdict.TOO_FEW_SAMPLES;
        } else {
            boolean slower = ratio >= options.latencyRatio() && p25B > p75A;
            boolean faster = ratio <= 1 / options.latencyRatio() && p75B < p25A;
            boolean large = Math.abs(medB - medA) >= options.latencyMinShiftNanos();
            verdict = (slower || faster) && large ? Verdict.SHIFTED : Verdict.WITHIN_NOISE;
        }
        return new LatencyComparison(role, verb, x.length, y.length, medA, medB, p25A, p75A, p25B, p75B, ratio, verdict);
    }

    /** Nearest-rank quantile of sorted values (0 for none). */
    static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
