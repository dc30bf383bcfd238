package io.rdmatrace.verbs;

/**
 * The answer of {@code ibv_query_qp}: every {@link QpAttr} field and the init attributes
 * (granted caps, type, sq_sig_all, CQ handles). {@code mask} is what was asked for.
 */
public record QpQuery(QpAttr attr, QpAttrMask mask, int qpNum, QpType qpType, QpCap initCap, boolean sqSigAll,
                      long sendCqHandle, long recvCqHandle) {
}
