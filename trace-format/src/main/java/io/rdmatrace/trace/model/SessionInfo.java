package io.rdmatrace.trace.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a capture says about itself; the writer turns it into the SESSION record that opens the
 * trace (adding the header and the format version).
 *
 * @param toolVersion rdmatrace version
 * @param hostId      host id; also the trace folder name under the output directory
 * @param commandLine the command line as typed (or reconstructed)
 * @param verbsLib    path of the libibverbs that was loaded (softverbs or the system one)
 * @param scenario    scenario name or file (empty if none)
 * @param overrides   override option → value as given (insertion order kept)
 * @param device      device identity and limits ({@link Attr#DEV_NAME}, {@link Attr#FW_VER}, …)
 * @param ports       one attribute set per port ({@link Attr#PORT_NUM}, {@link Attr#ACTIVE_MTU}, …)
 * @param gids        the GID table(s)
 */
public record SessionInfo(String toolVersion, String hostId, String commandLine, String verbsLib, String scenario,
                          Map<String, String> overrides, Attrs device, List<Attrs> ports, List<GidEntry> gids) {
    /**
     * The {@code scenario} of a trace recorded from an unmodified program by the tracing libibverbs
     * ({@code rdmatrace record}): no OOB or MARK events, the program's own calls, overrides
     * {@code pid}, {@code data-path} and {@code env.<NAME>} for each RDMA-steering variable.
     */
    public static final String PROGRAM_SCENARIO = "program";

    /** True for a trace recorded from a program ({@link #PROGRAM_SCENARIO}), false for a capture. */
    public boolean fromProgram() {
        return PROGRAM_SCENARIO.equals(scenario);
    }

    public SessionInfo {
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(verbsLib, "verbsLib");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(device, "device");
        overrides = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(overrides));
        ports = List.copyOf(ports);
        gids = List.copyOf(gids);
    }
}
