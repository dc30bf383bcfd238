package io.rdmatrace.analyzer;

import java.util.Objects;

/**
 * One row of {@code wire_counters}: a packet-level device counter that moved during the capture.
 *
 * @param host    host id
 * @param seq     the END counters event (evidence)
 * @param counter counter name, e.g. {@code out_of_seq_request}
 * @param delta   END - START, always positive
 * @param role    responder, requester or link: which end of a connection counts it
 * @param meaning what one count means
 */
public record WireCounter(String host, long seq, String counter, long delta, String role, String meaning) {
    public WireCounter {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(counter, "counter");
    }

    @Override
    public String toString() {
        return counter + " +" + delta;
    }
}
