package io.rdmatrace.verbs;

/**
 * {@code struct ibv_qp_init_attr} for {@link ProtectionDomain#createQp}: CQs, type, capabilities
 * and whether every send is signaled ({@code sq_sig_all}). SRQs are not part of this API.
 */
public record QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, QpType qpType, QpCap cap,
                         boolean sqSigAll) {
    public QpInitAttr {
        if (qpType == null || cap == null) {
            throw new IllegalArgumentException("qpType and cap must not be null");
        }
    }

    /** One CQ for both queues, sq_sig_all off. */
    public static QpInitAttr of(QpType qpType, CompletionQueue cq, QpCap cap) {
        return new QpInitAttr(cq, cq, qpType, cap, false);
    }
}
