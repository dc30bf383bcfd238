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

    /** The settings, or null without --cm; an override without --cm is a usage error. */
    CmSettings settings() {
        if (!cm) {
            if (cmLib != null || reject || privateData != null || port != null) {
                throw new IllegalArgumentException("--cm-lib, --cm-reject, --cm-private-data and --cm-port need --cm");
            }
            return null;
        }
        return new CmSettings(reject, privateData, port);
    }
}
