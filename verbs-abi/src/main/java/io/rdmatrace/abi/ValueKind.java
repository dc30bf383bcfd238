package io.rdmatrace.abi;

/**
 * What a field's value is, which decides how a scenario spells it, how the recorder writes it
 * and how replay moves it to replay-time values.
 */
public enum ValueKind {
    /** A plain number (a count, an index, an IBTA encoding). */
    NUMBER,
    /** 0 or 1; recorded as a boolean. */
    BOOL,
    /** {@code enum ibv_qp_state}: a scenario may name it (RTS). */
    QP_STATE,
    /** {@code enum ibv_mtu}: a scenario may give bytes (1024) or the enum. */
    MTU,
    /** {@code enum ibv_mig_state}: 0..2. */
    MIG_STATE,
    /** {@code enum ibv_access_flags} bits: a scenario may name them. */
    ACCESS_FLAGS,
    /** A QP number of the peer: replay substitutes the peer's QPN of the replay run. */
    PEER_QPN,
    /** A GID of the peer (16 bytes; IPv6 text in traces and scenarios): replay substitutes the peer's GID. */
    PEER_GID
}
