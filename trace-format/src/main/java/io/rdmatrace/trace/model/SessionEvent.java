package io.rdmatrace.trace.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The first event of every trace: format version, tool, host, command line, library, scenario,
 * overrides, device identity and limits, ports and GID table. {@code header().seq()} is 0.
 */
public record SessionEvent(EventHeader header, FormatVersion formatVersion, SessionInfo info) implements TraceEvent {
    public SessionEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(formatVersion, "formatVersion");
        Objects.requireNonNull(info, "info");
    }

    @Override
    public EventKind kind() {
        return EventKind.SESSION;
    }

    public String hostId() {
        return info.hostId();
    }

    public String toolVersion() {
        return info.toolVersion();
    }

    public String commandLine() {
        return info.commandLine();
    }

    public String verbsLib() {
        return info.verbsLib();
    }

    public String scenario() {
        return info.scenario();
    }

    public Map<String, String> overrides() {
        return info.overrides();
    }

    public Attrs device() {
        return info.device();
    }

    public List<Attrs> ports() {
        return info.ports();
    }

    public List<GidEntry> gids() {
        return info.gids();
    }
}
