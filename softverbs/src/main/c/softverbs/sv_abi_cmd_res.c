/* IBVERBS_PRIVATE_34, part 1: the ibv_cmd_* entry points a provider uses to talk to the kernel
 * for contexts, devices, PDs, MRs, MWs, device memory, XRC domains, counters, flows and AHs.
 * They exist so provider libraries (libmlx5, libefa, ...) load next to softverbs; a provider
 * only calls them on a device it owns, and it never owns a softverbs device (there is no
 * uverbs character device), so each one answers EOPNOTSUPP as a kernel without the command
 * would. Queues (CQ/SRQ/QP/WQ) and posting: sv_abi_cmd_queue.c. */
#include <errno.h>

#include "sv_driver.h"

int ibv_cmd_get_context(struct verbs_context *context, struct ibv_get_context *cmd, size_t cmd_size,
                        struct ib_uverbs_get_context_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_get_context");
}

int ibv_cmd_query_context(struct ibv_context *ctx, struct ibv_command_buffer *driver)
{
    return sv_abi_unsupported("ibv_cmd_query_context");
}

int ibv_cmd_query_device_any(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
                             struct ibv_device_attr_ex *attr, size_t attr_size,
                             struct ib_uverbs_ex_query_device_resp *resp, size_t *resp_size)
{
    return sv_abi_unsupported("ibv_cmd_query_device_any");
}

int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr,
                       struct ibv_query_port *cmd, size_t cmd_size)
{
    return sv_abi_unsupported("ibv_cmd_query_port");
}

int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd, struct ibv_alloc_pd *cmd,
                     size_t cmd_size, struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_alloc_pd");
}

int ibv_cmd_dealloc_pd(struct ibv_pd *pd)
{
    return sv_abi_unsupported("ibv_cmd_dealloc_pd");
}

int ibv_cmd_open_xrcd(struct ibv_context *context, struct verbs_xrcd *xrcd, int vxrcd_size,
                      struct ibv_xrcd_init_attr *attr, struct ibv_open_xrcd *cmd, size_t cmd_size,
                      struct ib_uverbs_open_xrcd_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_open_xrcd");
}

int ibv_cmd_close_xrcd(struct verbs_xrcd *xrcd)
{
    return sv_abi_unsupported("ibv_cmd_close_xrcd");
}

int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va, int access,
                   struct verbs_mr *vmr, struct ibv_reg_mr *cmd, size_t cmd_size,
                   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_reg_mr");
}

int ibv_cmd_rereg_mr(struct verbs_mr *vmr, uint32_t flags, void *addr, size_t length, uint64_t hca_va,
                     int access, struct ibv_pd *pd, struct ibv_rereg_mr *cmd, size_t cmd_sz,
                     struct ib_uverbs_rereg_mr_resp *resp, size_t resp_sz)
{
    return sv_abi_unsupported("ibv_cmd_rereg_mr");
}

int ibv_cmd_dereg_mr(struct verbs_mr *vmr)
{
    return sv_abi_unsupported("ibv_cmd_dereg_mr");
}

int ibv_cmd_query_mr(struct ibv_pd *pd, struct verbs_mr *vmr, uint32_t mr_handle)
{
    return sv_abi_unsupported("ibv_cmd_query_mr");
}

int ibv_cmd_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice, uint32_t flags,
                      struct ibv_sge *sg_list, uint32_t num_sge)
{
    return sv_abi_unsupported("ibv_cmd_advise_mr");
}

int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd,
                          int access, struct verbs_mr *vmr)
{
    return sv_abi_unsupported("ibv_cmd_reg_dmabuf_mr");
}

int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type, struct ibv_mw *mw, struct ibv_alloc_mw *cmd,
                     size_t cmd_size, struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_alloc_mw");
}

int ibv_cmd_dealloc_mw(struct ibv_mw *mw)
{
    return sv_abi_unsupported("ibv_cmd_dealloc_mw");
}

int ibv_cmd_alloc_dm(struct ibv_context *ctx, const struct ibv_alloc_dm_attr *dm_attr, struct verbs_dm *dm,
                     struct ibv_command_buffer *link)
{
    return sv_abi_unsupported("ibv_cmd_alloc_dm");
}

int ibv_cmd_free_dm(struct verbs_dm *dm)
{
    return sv_abi_unsupported("ibv_cmd_free_dm");
}

int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset, size_t length,
                      unsigned int access, struct verbs_mr *vmr, struct ibv_command_buffer *link)
{
    return sv_abi_unsupported("ibv_cmd_reg_dm_mr");
}

int ibv_cmd_create_counters(struct ibv_context *context, struct ibv_counters_init_attr *init_attr,
                            struct verbs_counters *vcounters, struct ibv_command_buffer *link)
{
    return sv_abi_unsupported("ibv_cmd_create_counters");
}

int ibv_cmd_destroy_counters(struct verbs_counters *vcounters)
{
    return sv_abi_unsupported("ibv_cmd_destroy_counters");
}

int ibv_cmd_read_counters(struct verbs_counters *vcounters, uint64_t *counters_value, uint32_t ncounters,
                          uint32_t flags, struct ibv_command_buffer *link)
{
    return sv_abi_unsupported("ibv_cmd_read_counters");
}

int ibv_cmd_create_flow(struct ibv_qp *qp, struct ibv_flow *flow_id, struct ibv_flow_attr *flow_attr,
                        void *ucmd, size_t ucmd_size)
{
    return sv_abi_unsupported("ibv_cmd_create_flow");
}

int ibv_cmd_destroy_flow(struct ibv_flow *flow_id)
{
    return sv_abi_unsupported("ibv_cmd_destroy_flow");
}

int ibv_cmd_create_flow_action_esp(struct ibv_context *ctx, struct ibv_flow_action_esp_attr *attr,
                                   struct verbs_flow_action *flow_action, struct ibv_command_buffer *driver)
{
    return sv_abi_unsupported("ibv_cmd_create_flow_action_esp");
}

int ibv_cmd_modify_flow_action_esp(struct verbs_flow_action *flow_action, struct ibv_flow_action_esp_attr *attr,
                                   struct ibv_command_buffer *driver)
{
    return sv_abi_unsupported("ibv_cmd_modify_flow_action_esp");
}

int ibv_cmd_destroy_flow_action(struct verbs_flow_action *action)
{
    return sv_abi_unsupported("ibv_cmd_destroy_flow_action");
}

int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah, struct ibv_ah_attr *attr,
                      struct ib_uverbs_create_ah_resp *resp, size_t resp_size)
{
    return sv_abi_unsupported("ibv_cmd_create_ah");
}

int ibv_cmd_destroy_ah(struct ibv_ah *ah)
{
    return sv_abi_unsupported("ibv_cmd_destroy_ah");
}

int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
    return sv_abi_unsupported("ibv_cmd_attach_mcast");
}

int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
    return sv_abi_unsupported("ibv_cmd_detach_mcast");
}
