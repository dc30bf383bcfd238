package io.rdmatrace.capture.replay;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@code rdmatrace replay} found.
 *
 * @param outDir      where the new trace was recorded
 * @param library     the libibverbs replayed on, as people read it
 * @param onReference true when that was the bundled softverbs (the reference)
 * @param hosts       one report per recorded host
 */
public record ReplayResult(Path outDir, String library, boolean onReference, List<HostReplayReport> hosts) {
    public ReplayResult {
        Objects.requireNonNull(outDir, "outDir");
        hosts = List.copyOf(hosts);
    }

    /** True when any host departed from its recording or could not be replayed to the end. */
    public boolean diverged() {
        return hosts.stream().anyMatch(h -> !h.divergences().isEmpty() || h.failure() != null);
    }
}
