package io.rdmatrace.analyzer.diff;

import java.util.List;
import java.util.Objects;

/**
 * Everything {@code rdmatrace diff} found.
 *
 * @param labelA      what A was (the path given)
 * @param labelB      what B was
 * @param hosts       how hosts were paired
 * @param pairedBy    {@code role} or {@code host order}
 * @param differences grouped differences, behavioural ones first by category order
 * @param latency     every (role, verb) latency comparison
 * @param notes       context that is no difference in behaviour (options, unreadable hosts)
 * @param options     the options used
 */
public record DiffReport(String labelA, String labelB, List<HostPair> hosts, String pairedBy,
                         List<Difference> differences, List<LatencyComparison> latency, List<String> notes,
                         DiffOptions options) {
    public DiffReport {
        Objects.requireNonNull(labelA, "labelA");
        Objects.requireNonNull(labelB, "labelB");
        hosts = List.copyOf(hosts);
        differences = List.copyOf(differences);
        latency = List.copyOf(latency);
        notes = List.copyOf(notes);
        Objects.requireNonNull(options, "options");
    }

    public List<Difference> behavioural() {
        return differences.stream().filter(Difference::behavioural).toList();
    }

    public List<LatencyComparison> latencyShifts() {
        return latency.stream().filter(LatencyComparison::shifted).toList();
    }

    /** True when nothing behavioural differs (and, with failOnLatency, no latency shifted). */
    public boolean equivalent() {
        return behavioural().isEmpty() && (!options.failOnLatency() || latencyShifts().isEmpty());
    }
}
