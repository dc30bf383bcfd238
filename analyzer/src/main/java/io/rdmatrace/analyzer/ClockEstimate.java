package io.rdmatrace.analyzer;

import java.util.Locale;

/**
 * One host's estimated clock offset from its reference host (a row of host_clock_offset whose
 * method is an estimate): the true offset lies within {@code offsetNs ± uncertaintyNs}.
 *
 * @param method  {@code oob-ntp} (out-of-band messages) or {@code causality} (a recorded
 *                program's send/receive pairs)
 * @param samples messages or send/receive samples used against the host's direct reference
 */
public record ClockEstimate(String host, String referenceHost, long offsetNs, long uncertaintyNs, long samples,
                            String method) {

    /** "hostB − hostA = +1.200 ms ± 0.021 ms from 160 send/recv samples (causality)". */
    public String describe() {
        String what = "causality".equals(method) ? "send/recv samples" : "out-of-band messages";
        return String.format(Locale.ROOT, "%s \u2212 %s = %s ms \u00b1 %.3f ms from %d %s (%s)", host, referenceHost,
                String.format(Locale.ROOT, "%+.3f", offsetNs / 1e6), uncertaintyNs / 1e6, samples, what, method);
    }
}
