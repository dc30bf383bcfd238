/* IBVERBS_PRIVATE_34, part 2: the ibv_cmd_* entry points for CQs, SRQs, QPs, WQs, RSS
 * indirection tables and the kernel-mediated post/poll paths. Like sv_abi_cmd_res.c: providers
 * call them only on devices they own, never on a softverbs one, so each answers EOPNOTSUPP. */
#include <errno.h>

#include "sv_driver.h"

int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel,
                      int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size,
                      struct ib_uverbs_create_cq_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_cq");
}

int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr,
                         struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size,
                         struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)
{
    return sv_abi_unsupported("ibv_cmd_create_cq_ex");
}

int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)
{
    return sv_abi_unsupported("ibv_cmd_poll_cq");
}

int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
    return sv_abi_unsupported("ibv_cmd_req_notify_cq");
}

int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd, size_t cmd_size,
                      struct ib_uverbs_resize_cq_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_resize_cq");
}

int ibv_cmd_destroy_cq(struct ibv_cq *cq)
{
    return sv_abi_unsupported("ibv_cmd_destroy_cq");
}

int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr, struct ibv_modify_cq *cmd,
                      size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_modify_cq");
}

int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq, struct ibv_srq_init_attr *attr,
                       struct ibv_create_srq *cmd, size_t cmd_size,
                       struct ib_uverbs_create_srq_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_srq");
}

int ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq,
                          struct ibv_srq_init_attr_ex *attr_ex, struct ibv_create_xsrq *cmd, size_t cmd_size,
                          struct ib_uverbs_create_srq_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_srq_ex");
}

int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask,
                       struct ibv_modify_srq *cmd, size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_modify_srq");
}

int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, struct ibv_query_srq *cmd,
                      size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_query_srq");
}

int ibv_cmd_destroy_srq(struct ibv_srq *srq)
{
    return sv_abi_unsupported("ibv_cmd_destroy_srq");
}

int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr,
                      struct ibv_create_qp *cmd, size_t cmd_size,
                      struct ib_uverbs_create_qp_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_qp");
}

int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp,
                         struct ibv_qp_init_attr_ex *attr_ex, struct ibv_create_qp *cmd, size_t cmd_size,
                         struct ib_uverbs_create_qp_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_qp_ex");
}

int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp,
                          struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd,
                          size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_qp_ex2");
}

int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp, int vqp_sz,
                    struct ibv_qp_open_attr *attr, struct ibv_open_qp *cmd, size_t cmd_size,
                    struct ib_uverbs_create_qp_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_open_qp");
}

int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr, int attr_mask,
                     struct ibv_qp_init_attr *qp_init_attr, struct ibv_query_qp *cmd, size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_query_qp");
}

int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
                      struct ibv_modify_qp *cmd, size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_modify_qp");
}

int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
                         struct ibv_modify_qp_ex *cmd, size_t cmd_size,
                         struct ib_uverbs_ex_modify_qp_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_modify_qp_ex");
}

int ibv_cmd_destroy_qp(struct ibv_qp *qp)
{
    return sv_abi_unsupported("ibv_cmd_destroy_qp");
}

/* The post verbs also report the first WR as the bad one, as a failed write() would. */
int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = wr;
    return sv_abi_unsupported("ibv_cmd_post_send");
}

int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = wr;
    return sv_abi_unsupported("ibv_cmd_post_recv");
}

int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
    if (bad_wr)
        *bad_wr = wr;
    return sv_abi_unsupported("ibv_cmd_post_srq_recv");
}

int ibv_cmd_create_wq(struct ibv_context *context, struct ibv_wq_init_attr *wq_init_attr, struct ibv_wq *wq,
                      struct ibv_create_wq *cmd, size_t cmd_size,
                      struct ib_uverbs_ex_create_wq_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_wq");
}

int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr, struct ibv_modify_wq *cmd, size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_modify_wq");
}

int ibv_cmd_destroy_wq(struct ibv_wq *wq)
{
    return sv_abi_unsupported("ibv_cmd_destroy_wq");
}

int ibv_cmd_create_rwq_ind_table(struct ibv_context *context, struct ibv_rwq_ind_table_init_attr *init_attr,
                                 struct ibv_rwq_ind_table *rwq_ind_table,
                                 struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_rwq_ind_table");
}

int ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
    return sv_abi_unsupported("ibv_cmd_destroy_rwq_ind_table");
}
