package io.rdmatrace.analyzer.diff;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.TraceEvent;

/**
 * One host of a loaded capture as the diff needs it: the SESSION facts and the events that
 * carry behaviour (calls, completions, async events, marks) in sequence order, rebuilt as trace
 * model events from the analyzer's views. Data-path calls carry only the attributes the views
 * keep for them.
 *
 * @param host      host id as loaded
 * @param role      {@code listen}, {@code connect}, or null when the SESSION does not say
 * @param status    how its trace ended or why it was refused (CLEAN, TRUNCATED, CORRUPT, …)
 * @param detail    the loader's sentence about it
 * @param scenario  scenario name from the SESSION ("" if none)
 * @param overrides the capture options as recorded
 * @param device    device identity and limits
 * @param ports     one attribute set per port
 * @param events    behaviour events, ascending seq
 */
public record HostEvents(String host, String role, String status, String detail, String scenario,
                         Map<String, String> overrides, Attrs device, List<Attrs> ports, List<TraceEvent> events) {
    public HostEvents {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(status, "status");
        detail = detail == null ? "" : detail;
        scenario = scenario == null ? "" : scenario;
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        device = device == null ? Attrs.EMPTY : device;
        ports = List.copyOf(ports);
        events = List.copyOf(events);
    }

    /** True when its events were loaded (all of them, or those before damage). */
    public boolean readable() {
        return io.rdmatrace.analyzer.load.HostLoad.READABLE.contains(status);
    }
}
