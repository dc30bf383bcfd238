package io.rdmatrace.verbs;

/** {@code struct ibv_qp_cap}: queue depths, SGE counts and inline size. */
public record QpCap(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    public static final QpCap NONE = new QpCap(0, 0, 0, 0, 0);
}
