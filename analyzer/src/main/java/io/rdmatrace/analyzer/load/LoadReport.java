package io.rdmatrace.analyzer.load;

import java.util.List;

/**
 * What the loader did: one entry per host folder (readable or not) and the folders it could
 * not even search (a path that does not exist, a folder without traces).
 *
 * @param hosts        per host folder, in load order
 * @param rootProblems messages for given paths that yielded no host folder at all
 * @param elapsedNanos wall time of the whole load
 */
public record LoadReport(List<HostLoad> hosts, List<String> rootProblems, long elapsedNanos) {
    public LoadReport {
        hosts = List.copyOf(hosts);
        rootProblems = List.copyOf(rootProblems);
    }

    public long events() {
        return hosts.stream().mapToLong(HostLoad::events).sum();
    }

    public boolean anyReadable() {
        return hosts.stream().anyMatch(HostLoad::readable);
    }
}
