package io.rdmatrace.verbs;

/** What rdma_init_qp_attr returned for one QP state: the attributes and the mask to modify with. */
public record CmQpAttr(QpAttr attr, QpAttrMask mask) {
}
