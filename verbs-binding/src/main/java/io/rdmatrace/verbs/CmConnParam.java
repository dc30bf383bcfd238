package io.rdmatrace.verbs;

/**
 * The {@code struct rdma_conn_param} of rdma_connect / rdma_accept (flow control and SRQ off).
 *
 * @param qpNum       the QP the connection uses when the id carries none (a QP made with ibv_create_qp)
 * @param privateData sent in the REQ / REP (an RC REQ holds 56 bytes after the IP CM header, a REP 196)
 */
public record CmConnParam(int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount, int qpNum,
                          byte[] privateData) {
    public CmConnParam {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        if (privateData.length > 255) {
            throw new IllegalArgumentException("private data of " + privateData.length + " bytes: a conn_param holds at most 255");
        }
    }
}
