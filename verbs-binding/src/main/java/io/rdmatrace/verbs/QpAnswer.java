package io.rdmatrace.verbs;

import io.rdmatrace.abi.QpField;

/**
 * An {@code ibv_query_qp} answer read field by field, as a recorder writes it: an immutable
 * {@link QpQuery}, or a {@link QpQueryBuffer} until its next query. Neither decodes a whole
 * {@link QpAttr} for these reads.
 */
public sealed interface QpAnswer permits QpQuery, QpQueryBuffer {
    int qpNum();

    QpType qpType();

    /** The capabilities the QP was granted (its init attributes, not the answer's cap). */
    QpCap initCap();

    boolean sqSigAll();

    long sendCqHandle();

    long recvCqHandle();

    /** A number field, as {@link QpAttr#get} reads it (unsigned for a u32); a GID field throws. */
    long get(QpField f);

    /** A GID field, as {@link QpAttr#gid} reads it. */
    Gid gid(QpField f);

    /** True when GID field {@code f} is {@code gid}, compared in place. */
    boolean gidEquals(QpField f, Gid gid);
}
