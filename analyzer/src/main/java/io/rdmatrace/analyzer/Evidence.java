package io.rdmatrace.analyzer;

import java.util.Objects;

/** One event a finding points at: sequence numbers are per host, so the host is part of the reference. */
public record Evidence(String host, long seq) implements Comparable<Evidence> {
    public Evidence {
        Objects.requireNonNull(host, "host");
    }

    @Override
    public int compareTo(Evidence other) {
        int byHost = host.compareTo(other.host);
        return byHost != 0 ? byHost : Long.compare(seq, other.seq);
    }

    @Override
    public String toString() {
        return host + "#" + seq;
    }
}
