package io.rdmatrace.analyzer.export;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code --redact} replaced, as counts of distinct original values (never the values).
 *
 * @param hostNames       host ids and host names
 * @param ipv4            IPv4 addresses (standalone or inside IPv4-mapped GIDs)
 * @param gids            GIDs
 * @param interfaceIds    GUIDs and GID interface identifiers (MAC-derived or not)
 * @param keys            lkeys and rkeys
 * @param addresses       virtual addresses and object handles
 * @param addressSpans    spans the addresses were moved in (offsets inside a span are kept)
 * @param textFields      free-text values that quoted one of the above and were rewritten
 * @param pathsShortened  absolute paths reduced to their last component
 */
public record RedactionSummary(int hostNames, int ipv4, int gids, int interfaceIds, int keys, int addresses,
                               int addressSpans, int textFields, int pathsShortened) {

    /** One line per category, for the report and the command's output. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(hostNames + " host name(s) → host-xxxxxx");
        lines.add(ipv4 + " IPv4 address(es) → 198.18.0.0/15 (addresses in one /24 stay in one /24)");
        lines.add(gids + " GID(s): IPv4-mapped GIDs stay IPv4-mapped, link-local GIDs stay fe80::/64, others keep"
                + " their top 16 bits; the zero GID is kept");
        lines.add(interfaceIds + " GUID(s) and GID interface id(s): MAC-derived EUI-64s stay MAC-derived;"
                + " a GUID and a GID built from it map alike");
        lines.add(keys + " lkey/rkey value(s)");
        lines.add(addresses + " virtual address(es) and object handle(s), moved in " + addressSpans
                + " span(s): offsets within a span and alignment up to 4 KiB are kept");
        lines.add(textFields + " free-text value(s) rewritten (command line, options, peers, messages), "
                + pathsShortened + " absolute path(s) reduced to their last component");
        return lines;
    }
}
