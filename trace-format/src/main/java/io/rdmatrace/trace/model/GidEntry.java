package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.VerbsNames;

import java.util.Objects;

/**
 * One entry of a port's GID table.
 *
 * @param gid  canonical IPv6 text, e.g. {@code ::ffff:127.0.0.1} or {@code fe80::1}
 * @param type {@link VerbsNames#GID_TYPE} value (0 IB/RoCE v1 … 2 RoCE v2)
 */
public record GidEntry(int portNum, int index, String gid, int type) {
    public GidEntry {
        Objects.requireNonNull(gid, "gid");
    }

    public String typeName() {
        return VerbsNames.GID_TYPE.render(type);
    }
}
