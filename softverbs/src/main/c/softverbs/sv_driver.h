/* The provider-facing half of libibverbs (rdma-core 44's driver.h and cmd_ioctl.h, which
 * libibverbs-dev does not ship): the structs whose layout providers read, and opaque names for
 * the command structs the IBVERBS_PRIVATE_34 entry points take by pointer. Layouts here are
 * ABI facts of IBVERBS_PRIVATE_34; a change there changes the node's number. */
#ifndef SV_DRIVER_H
#define SV_DRIVER_H

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- devices: what verbs_get_device() (container_of the ibv_device) finds ---- */

struct verbs_sysfs_dev;              /* sysfs discovery record; softverbs has none */
struct verbs_match_ent;
struct verbs_device;

struct verbs_device_ops {
    const char *name;
    uint32_t match_min_abi_version;
    uint32_t match_max_abi_version;
    const struct verbs_match_ent *match_table;
    const struct verbs_device_ops **static_providers;
    bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);
    struct verbs_context *(*alloc_context)(struct ibv_device *device, int cmd_fd, void *private_data);
    struct verbs_context *(*import_context)(struct ibv_device *device, int cmd_fd);
    struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
    void (*uninit_device)(struct verbs_device *device);
};

struct sv_list_node {                /* ccan list_node */
    struct sv_list_node *next, *prev;
};

/* Providers tell their devices apart by `ops` (e.g. mlx5: ops == &mlx5_dev_ops): a softverbs
 * device carries softverbs' own ops here, so every provider's check says "not mine". */
struct verbs_device {
    struct ibv_device device;        /* must be first */
    const struct verbs_device_ops *ops;
    atomic_int refcount;
    struct sv_list_node entry;
    struct verbs_sysfs_dev *sysfs;
    uint64_t core_support;
};

/* ---- driver objects the ibv_cmd_* entry points fill ---- */

struct verbs_xrcd {
    struct ibv_xrcd xrcd;
    uint32_t comp_mask;
    uint32_t handle;
};

struct verbs_srq {
    struct ibv_srq srq;
    enum ibv_srq_type srq_type;
    struct verbs_xrcd *xrcd;
    struct ibv_cq *cq;
    uint32_t srq_num;
};

struct verbs_mr {
    struct ibv_mr ibv_mr;
    int mr_type;                     /* enum ibv_mr_type */
    int access;
};

struct verbs_qp {
    union {
        struct ibv_qp qp;
        struct ibv_qp_ex qp_ex;
    };
    uint32_t comp_mask;
    struct verbs_xrcd *xrcd;
};

struct verbs_cq {
    union {
        struct ibv_cq cq;
        struct ibv_cq_ex cq_ex;
    };
};

struct verbs_flow_action {
    struct ibv_flow_action action;
    uint32_t handle;
    int type;                        /* enum ibv_flow_action_type */
};

struct verbs_dm {
    struct ibv_dm dm;
    uint32_t handle;
};

struct verbs_counters {
    struct ibv_counters counters;
    uint32_t handle;
};

struct verbs_context_ops;            /* the provider's op table; only passed through */

/* ---- the ioctl command buffer (cmd_ioctl.h) ---- */

struct ibv_command_buffer {
    struct ibv_command_buffer *next;
    struct ib_uverbs_attr *next_attr;
    struct ib_uverbs_attr *last_attr;
    uint8_t uhw_in_idx;
    uint8_t uhw_out_idx;
    uint8_t uhw_in_headroom_dwords;
    uint8_t uhw_out_headroom_dwords;
    uint8_t buffer_error : 1;
    uint8_t fallback_require_ex : 1;
    uint8_t fallback_ioctl_only : 1;
    struct ib_uverbs_ioctl_hdr hdr;
};

/* ---- write()-interface command structs (kern-abi.h): opaque, passed by pointer only ---- */
struct ibv_get_context;
struct ibv_query_port;
struct ibv_alloc_pd;
struct ibv_open_xrcd;
struct ibv_reg_mr;
struct ibv_rereg_mr;
struct ibv_alloc_mw;
struct ibv_create_cq;
struct ibv_create_cq_ex;
struct ibv_resize_cq;
struct ibv_modify_cq;
struct ibv_create_srq;
struct ibv_create_xsrq;
struct ibv_modify_srq;
struct ibv_query_srq;
struct ibv_create_qp;
struct ibv_create_qp_ex;
struct ibv_open_qp;
struct ibv_query_qp;
struct ibv_modify_qp;
struct ibv_modify_qp_ex;
struct ibv_create_wq;
struct ibv_modify_wq;

/* driver.h's sysfs helper (sv_compat.c) */
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

/* The device ops every softverbs device carries (sv_abi_driver.c). */
extern const struct verbs_device_ops sv_verbs_device_ops;

/* A provider entry point was called: there is no kernel uverbs device behind softverbs, so it
 * cannot run. Records why (softverbs_last_error, SOFTVERBS_LOG), sets errno and returns
 * EOPNOTSUPP. */
int sv_abi_unsupported(const char *entry);

#endif
