package io.rdmatrace.capture.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one `rdmatrace capture` run needs, already validated.
 *
 * @param hostId      names this host in the trace (also the trace folder under outDir)
 * @param outDir      the capture root; this host writes outDir/hostId/
 * @param device      device name, or null for the first device
 * @param ibPort      port number (1-based)
 * @param link        how to reach the peer
 * @param workload    QP type/count and TC04 traffic
 * @param knobs       QP-level values (overrides included)
 * @param scenarioFile a --scenario file to run instead of the built-in bring-up, or null
 * @param cqWait      how long TC04 waits for completions before it fails
 * @param overrides   the options the user gave explicitly, as typed; recorded in the SESSION
 * @param commandLine the command line, for the SESSION
 * @param cm          --cm: connect through rdma_cm, or null for the TCP exchange
 */
public record CaptureConfig(String hostId, Path outDir, String device, int ibPort, PeerLink link, Workload workload,
                            QpKnobs knobs, Path scenarioFile, Duration cqWait, Map<String, String> overrides,
                            String commandLine, CmSettings cm) {
    public CaptureConfig {
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(outDir, "outDir");
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(knobs, "knobs");
        Objects.requireNonNull(cqWait, "cqWait");
        Objects.requireNonNull(commandLine, "commandLine");
        overrides = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        if (hostId.isBlank() || hostId.contains("/") || hostId.contains("\\") || hostId.equals(".") || hostId.equals("..")) {
            throw new IllegalArgumentException("--host-id must be a plain name (it becomes a folder), got '" + hostId + "'");
        }
        if (ibPort < 1 || ibPort > 255) {
            throw new IllegalArgumentException("--ib-port must be in 1..255, got " + ibPort);
        }
        if (cm != null && workload.qpType() != Transport.RC) {
            throw new IllegalArgumentException("--cm connects RC QPs (rdma_cm's RDMA_PS_TCP); --qp-type "
                    + workload.qpType().name().toLowerCase(java.util.Locale.ROOT) + " is not supported with it");
        }
    }

    /** Without --cm. */
    public CaptureConfig(String hostId, Path outDir, String device, int ibPort, PeerLink link, Workload workload,
                         QpKnobs knobs, Path scenarioFile, Duration cqWait, Map<String, String> overrides,
                         String commandLine) {
        this(hostId, outDir, device, ibPort, link, workload, knobs, scenarioFile, cqWait, overrides, commandLine, null);
    }

    /** Where this host's queue goes. */
    public Path traceDir() {
        return outDir.resolve(hostId);
    }
}
