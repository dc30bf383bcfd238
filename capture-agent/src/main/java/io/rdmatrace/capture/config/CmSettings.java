package io.rdmatrace.capture.config;

/**
 * {@code capture --cm}: the QPs are connected through rdma_cm (REQ/REP/RTU on the wire) instead of
 * the agent's own TCP parameter exchange; the TCP link stays for barriers and verdicts. The other
 * fields reproduce CM mistakes on purpose.
 *
 * @param reject           listener: answer every connect request with rdma_reject (reason 28) and a
 *                         private-data text saying why
 * @param privateDataBytes connector: send this many bytes of private data in the REQ (the agent's own
 *                         {@value #PARAMS_BYTES}, zero-padded); more than an RC REQ holds (56 after
 *                         the IP CM header) makes rdma_connect refuse it; null for the agent's own
 * @param connectPort      connector: connect the CM to this port instead of the --connect port
 *                         (a port nobody listens on: REJECTED, reason 8); null for the same port
 */
public record CmSettings(boolean reject, Integer privateDataBytes, Integer connectPort) {
    /** The bytes of the agent's own private data (the buffer address, rkey and length, the QP index). */
    public static final int PARAMS_BYTES = 24;
    /** What a conn_param can carry at all. */
    public static final int MAX_PRIVATE_DATA = 255;

    public CmSettings {
        if (privateDataBytes != null && (privateDataBytes < PARAMS_BYTES || privateDataBytes > MAX_PRIVATE_DATA)) {
            throw new IllegalArgumentException("--cm-private-data must be " + PARAMS_BYTES + ".." + MAX_PRIVATE_DATA
                    + " bytes (the agent's own " + PARAMS_BYTES + " bytes, padded), got " + privateDataBytes);
        }
        if (connectPort != null && (connectPort < 1 || connectPort > 65535)) {
            throw new IllegalArgumentException("--cm-port must be 1..65535, got " + connectPort);
        }
    }
}
