package io.rdmatrace.analyzer.diff;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One host's observations keyed by site, plus its per-verb call durations.
 *
 * @param role         the role label its sites carry
 * @param host         the host id
 * @param observations in trace order (SESSION facts first)
 * @param durations    verb → call durations in ns, in trace order
 */
public record HostSites(String role, String host, List<Observation> observations, Map<String, long[]> durations) {
    public HostSites {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(host, "host");
        observations = List.copyOf(observations);
        durations = Collections.unmodifiableMap(new LinkedHashMap<>(durations));
    }

    /** Site → observation (sites are unique by construction). */
    public Map<Site, Observation> bySite() {
        Map<Site, Observation> map = new LinkedHashMap<>();
        for (Observation o : observations) {
            map.put(o.site(), o);
        }
        return map;
    }
}
