package io.rdmatrace.analyzer.diff;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one capture shows at one {@link Site}: the event's sequence number and its comparable
 * fields, rendered for people (enum and errno names, hex keys) so equal values compare equal
 * and different ones read well.
 *
 * @param seq    the event's sequence number on its host (-1 for SESSION facts)
 * @param detail context that is not compared, e.g. {@code → RTR} or {@code after modify #2}
 * @param values field name → rendered value; names are {@code ret}, {@code errno},
 *               {@code in.<attr>}, {@code out.<attr>}, or an attribute column for
 *               completions, async events, device and port facts, and {@code verdict}
 */
public record Observation(Site site, SiteKind kind, long seq, String detail, Map<String, String> values) {
    public Observation {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(kind, "kind");
        detail = detail == null ? "" : detail;
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
