package io.rdmatrace.cli;

import io.rdmatrace.capture.config.CmSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * `rdmatrace capture --cm`: connect the QPs through rdma_cm, and the overrides that reproduce CM
 * mistakes on purpose (a consumer reject, oversized private data, a connect where nobody listens).
 */
final class CaptureCmOptions {
    @Option(names = "--cm", description = "Connect the QPs through rdma_cm (REQ/REP/RTU; private data carries the "
            + "buffer's address, rkey and length) instead of the TCP exchange; RC only. The --listen/--connect "
            + "address is also the CM's: give the RDMA device's IP (the softverbs device's with --soft).")
    boolean cm;

    @Option(names = "--cm-lib", paramLabel = "PATH",
            description = "With --cm: librdmacm to load (default: softverbs' with --soft, else the system's librdmacm.so.1).")
    Path cmLib;

    @Option(names = "--cm-reject", description = "With --cm, listening side: refuse every connect request with "
            + "rdma_reject (REJ reason 28, consumer defined) and a private-data text saying why.")
    boolean reject;

    @Option(names = "--cm-private-data", paramLabel = "BYTES", description = "With --cm, connecting side: send this "
            + "many bytes of private data in the REQ (24..255; an RC REQ holds 56: more makes rdma_connect refuse it).")
    Integer privateData;

    @Option(names = "--cm-port", paramLabel = "PORT", description = "With --cm, connecting side: connect the CM to "
            + "this port instead of the --connect port (where nobody listens: REJECTED, reason 8).")
    Integer port;

    /**
     * Overrides that feed the RTR/RTS attributes of the TCP bring-up; with --cm the CM chooses those
     * (rdma_init_qp_attr), so giving one is a usage error rather than silently without effect.
     */
    static final java.util.List<String> CM_CHOOSES = java.util.List.of("--path-mtu", "--sq-psn", "--advertise-psn",
            "--dest-qpn", "--gid-index", "--no-grh", "--timeout");

    /** The settings, or null without --cm; an override without --cm is a usage error. */
    CmSettings settings(java.util.function.Predicate<String> given) {
        if (cm) {
            for (String o : CM_CHOOSES) {
                if (given.test(o)) {
                    throw new IllegalArgumentException(o + " has no effect with --cm: rdma_cm chooses the path, "
                            + "PSNs, peer QPN and ACK timeout (rdma_init_qp_attr); --modify-in-rts changes a value "
                            + "after the CM's RTS");
                }
            }
        }
        if (!cm) {
            if (cmLib != null || reject || privateData != null || port != null) {
                throw new IllegalArgumentException("--cm-lib, --cm-reject, --cm-private-data and --cm-port need --cm");
            }
            return null;
        }
        return new CmSettings(reject, privateData, port);
    }
}
