/* Devices: the list handed out by ibv_get_device_list, each device's identity (a MAC derived
 * from its IPv4 address, the node GUID and GID table derived from that, as on a RoCE NIC), its
 * P_Key table, and the device/port/GID queries. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv_loc.h"

/* ---- the device list ---- */

static const uint8_t zero_mac[6];

/* MAC, node GUID and GID table. The MAC is the bound interface's (a RoCE port's is its
 * netdev's), else - and for lo, whose MAC is zero - locally administered 02:00:<IPv4>, like a
 * veth a container tool made. */
static void device_identity(struct sv_device *dev)
{
    const struct sv_netdev *nd = &dev->cfg.netdev;
    if (nd->name[0] && memcmp(nd->mac, zero_mac, 6) != 0) {
        memcpy(dev->mac, nd->mac, 6);
    } else {
        const uint8_t *ip = (const uint8_t *)&dev->cfg.ip_be;
        uint8_t mac[6] = {0x02, 0x00, ip[0], ip[1], ip[2], ip[3]};
        memcpy(dev->mac, mac, sizeof mac);
    }
    const uint8_t *mac = dev->mac;
    /* modified EUI-64 of the MAC (RFC 4291 appendix A), as rxe derives its node GUID */
    uint8_t eui[8] = {(uint8_t)(mac[0] ^ 0x02), mac[1], mac[2], 0xFF, 0xFE, mac[3], mac[4], mac[5]};
    memcpy(&dev->guid_be, eui, sizeof eui);
    sv_device_build_gids(dev);
}

struct ibv_device **ibv_get_device_list(int *num_devices)
{
    struct sv_devcfg_list cfg;
    if (num_devices)
        *num_devices = 0;
    if (sv_config_current(&cfg)) {
        errno = EINVAL;
        return NULL;
    }
    struct ibv_device **list = calloc((size_t)cfg.count + 1, sizeof *list);
    if (!list) {
        errno = ENOMEM;
        return NULL;
    }
    for (int i = 0; i < cfg.count; i++) {
        struct sv_device *dev = calloc(1, sizeof *dev);
        if (!dev) {
            for (int j = 0; j < i; j++)
                sv_device_put(sv_device_of(list[j]));
            free(list);
            errno = ENOMEM;
            return NULL;
        }
        dev->magic = SV_DEVICE_MAGIC;
        dev->cfg = cfg.dev[i];
        dev->index = i;
        atomic_init(&dev->refcnt, 1);
        device_identity(dev);

        dev->vdev.ops = &sv_verbs_device_ops;   /* providers see a device that is not theirs */
        atomic_init(&dev->vdev.refcount, 1);
        struct ibv_device *d = &dev->vdev.device;
        d->node_type = IBV_NODE_CA;
        d->transport_type = IBV_TRANSPORT_IB;    /* RoCE devices report the IB transport */
        snprintf(d->name, sizeof d->name, "%s", dev->cfg.name);
        snprintf(d->dev_name, sizeof d->dev_name, "uverbs%d", i);
        snprintf(d->dev_path, sizeof d->dev_path, "/sys/class/infiniband_verbs/uverbs%d", i);
        snprintf(d->ibdev_path, sizeof d->ibdev_path, "/sys/class/infiniband/%s", dev->cfg.name);
        list[i] = d;
    }
    if (num_devices)
        *num_devices = cfg.count;
    return list;
}

void ibv_free_device_list(struct ibv_device **list)
{
    if (!list)
        return;
    for (int i = 0; list[i]; i++) {
        struct sv_device *dev = sv_device_of(list[i]);
        if (dev)
            sv_device_put(dev);
    }
    free(list);
}

struct sv_device *sv_device_of(struct ibv_device *ibdev)
{
    if (!ibdev)
        return NULL;
    struct sv_device *dev = sv_container_of(ibdev, struct sv_device, vdev.device);
    return dev->magic == SV_DEVICE_MAGIC ? dev : NULL;
}

void sv_device_get(struct sv_device *dev)
{
    atomic_fetch_add(&dev->refcnt, 1);
}

void sv_device_put(struct sv_device *dev)
{
    if (atomic_fetch_sub(&dev->refcnt, 1) == 1) {
        dev->magic = 0;
        free(dev);
    }
}

const char *ibv_get_device_name(struct ibv_device *device)
{
    if (!sv_device_of(device)) {
        errno = EINVAL;
        return NULL;
    }
    return device->name;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
    struct sv_device *dev = sv_device_of(device);
    if (!dev) {
        errno = EINVAL;
        return 0;
    }
    return dev->guid_be;
}

int ibv_get_device_index(struct ibv_device *device)
{
    struct sv_device *dev = sv_device_of(device);
    if (!dev) {
        errno = EINVAL;
        return -1;
    }
    return dev->index;
}

/* ---- GIDs, built once per device as the kernel's RoCE GID cache fills them (roce_gid_mgmt):
 * the default GID fe80::<EUI-64 of the MAC> first, then each IPv4 address as ::ffff:IPv4 (the
 * device's own first), then each IPv6 address not equal to the default; every address once per
 * GID type. mlx5 layout (default): RoCE v1 and v2 per address (0/1 link-local, 2/3 the
 * device's IPv4); rxe (gid=rxe): RoCE v2 only (0 link-local, 1 IPv4). A bare-address device
 * has just its one IPv4 address. ---- */

static void add_gid(struct sv_device *dev, const union ibv_gid *gid)
{
    bool rxe = dev->cfg.gid_layout == SV_GID_LAYOUT_RXE;
    for (int v2 = rxe ? 1 : 0; v2 <= 1; v2++) {
        if (dev->gid_count == (int)SV_ARRAY_SIZE(dev->gids) ||
            (uint32_t)dev->gid_count >= dev->cfg.lim.gid_tbl_len)   /* a profile's smaller table */
            return;
        dev->gids[dev->gid_count].gid = *gid;
        dev->gids[dev->gid_count].roce_v2 = v2;
        dev->gid_count++;
    }
}

void sv_device_build_gids(struct sv_device *dev)
{
    union ibv_gid g;
    dev->gid_count = 0;
    memset(&g, 0, sizeof g);
    g.raw[0] = 0xFE;
    g.raw[1] = 0x80;
    memcpy(&g.raw[8], &dev->guid_be, 8);
    union ibv_gid dflt = g;
    add_gid(dev, &g);
    const struct sv_netdev *nd = &dev->cfg.netdev;
    int n4 = nd->name[0] ? nd->n_ipv4 : 1;
    for (int i = 0; i < n4; i++) {
        uint32_t ip = nd->name[0] ? nd->ipv4_be[i] : dev->cfg.ip_be;
        memset(&g, 0, sizeof g);
        g.raw[10] = 0xFF;
        g.raw[11] = 0xFF;
        memcpy(&g.raw[12], &ip, 4);
        add_gid(dev, &g);
    }
    for (int i = 0; nd->name[0] && i < nd->n_ipv6; i++) {
        memcpy(g.raw, &nd->ipv6[i], 16);
        if (memcmp(g.raw, dflt.raw, 16) != 0)
            add_gid(dev, &g);
    }
}

int sv_device_gid_count(const struct sv_device *dev)
{
    return dev->gid_count;
}

unsigned int sv_device_ndev_ifindex(const struct sv_device *dev)
{
    return dev->cfg.netdev.name[0] ? dev->cfg.netdev.ifindex : 1;   /* lo carries a bare device */
}

const char *sv_device_ndev_name(const struct sv_device *dev)
{
    return dev->cfg.netdev.name[0] ? dev->cfg.netdev.name : "lo";
}

bool sv_device_link_up(const struct sv_device *dev)
{
    return !dev->cfg.netdev.name[0] || dev->cfg.netdev.up;
}

int sv_device_gid(const struct sv_device *dev, int index, union ibv_gid *gid, int *roce_v2)
{
    if (index < 0 || (uint32_t)index >= dev->cfg.lim.gid_tbl_len)
        return EINVAL;
    memset(gid, 0, sizeof *gid);
    if (index >= dev->gid_count)
        return ENODATA;    /* what the kernel's GID cache says for an empty slot */
    *gid = dev->gids[index].gid;
    if (roce_v2)
        *roce_v2 = dev->gids[index].roce_v2;
    return 0;
}

bool sv_gid_to_ipv4(const union ibv_gid *gid, uint32_t *ip_be)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (memcmp(gid->raw, prefix, sizeof prefix) != 0)
        return false;
    memcpy(ip_be, &gid->raw[12], 4);
    return true;
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !gid || port_num != SV_PORT_NUM) {
        errno = EINVAL;
        return -1;
    }
    int rc = sv_device_gid(ctx->dev, index, gid, NULL);
    if (rc == ENODATA)
        return 0;          /* libibverbs reports an empty slot as the zero GID */
    if (rc) {
        errno = rc;
        return -1;
    }
    return 0;
}

/* IBVERBS_PRIVATE_34: ibv_devinfo prints "RoCE v1"/"RoCE v2" from it. */
enum sv_gid_type_sysfs { SV_GID_TYPE_SYSFS_IB_ROCE_V1, SV_GID_TYPE_SYSFS_ROCE_V2 };
int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index,
                       enum sv_gid_type_sysfs *type)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !type || port_num != SV_PORT_NUM || index >= ctx->dev->cfg.lim.gid_tbl_len) {
        errno = EINVAL;
        return -1;
    }
    union ibv_gid gid;
    int v2 = 0;
    if (sv_device_gid(ctx->dev, (int)index, &gid, &v2) == ENODATA) {
        *type = SV_GID_TYPE_SYSFS_IB_ROCE_V1;
        return 0;
    }
    *type = v2 ? SV_GID_TYPE_SYSFS_ROCE_V2 : SV_GID_TYPE_SYSFS_IB_ROCE_V1;
    return 0;
}

static void fill_gid_entry(const struct sv_device *dev, uint32_t index, struct ibv_gid_entry *e)
{
    int v2 = 0;
    memset(e, 0, sizeof *e);
    sv_device_gid(dev, (int)index, &e->gid, &v2);
    e->gid_index = index;
    e->port_num = SV_PORT_NUM;
    e->gid_type = v2 ? IBV_GID_TYPE_ROCE_V2 : IBV_GID_TYPE_ROCE_V1;
    e->ndev_ifindex = sv_device_ndev_ifindex(dev);   /* the interface the entry's address is on */
}

int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
                      struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !entry || entry_size < sizeof *entry)
        return EINVAL;
    if (flags)
        return EOPNOTSUPP;
    if (port_num != SV_PORT_NUM || gid_index >= ctx->dev->cfg.lim.gid_tbl_len)
        return EINVAL;
    if (gid_index >= (uint32_t)sv_device_gid_count(ctx->dev))
        return ENODATA;
    fill_gid_entry(ctx->dev, gid_index, entry);
    return 0;
}

ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries,
                             size_t max_entries, uint32_t flags, size_t entry_size)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || (!entries && max_entries) || entry_size < sizeof *entries)
        return -EINVAL;
    if (flags)
        return -EOPNOTSUPP;
    uint32_t n = (uint32_t)sv_device_gid_count(ctx->dev);
    if (max_entries < n)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++)
        fill_gid_entry(ctx->dev, i, (struct ibv_gid_entry *)((char *)entries + i * entry_size));
    return n;
}

/* ---- P_Key table: one entry, 0xFFFF ---- */

int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !pkey || port_num != SV_PORT_NUM || index < 0 || index >= SV_PKEY_TBL_LEN) {
        errno = EINVAL;
        return -1;
    }
    *pkey = htons(SV_DEFAULT_PKEY);
    return 0;
}

int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)
{
    __be16 entry;
    for (int i = 0; i < SV_PKEY_TBL_LEN; i++) {
        if (ibv_query_pkey(context, port_num, i, &entry))
            return -1;
        if (entry == pkey)
            return i;
    }
    errno = ENOENT;
    return -1;
}

/* ---- device and port attributes ---- */

void sv_device_attr(const struct sv_device *dev, struct ibv_device_attr *a)
{
    memset(a, 0, sizeof *a);
    snprintf(a->fw_ver, sizeof a->fw_ver, "%s", dev->cfg.fw_ver);
    a->node_guid = dev->guid_be;
    a->sys_image_guid = dev->guid_be;
    a->max_mr_size = UINT64_MAX;
    a->page_size_cap = 0xfffff000u;
    a->vendor_id = dev->cfg.vendor_id;
    a->vendor_part_id = dev->cfg.vendor_part_id;
    a->hw_ver = dev->cfg.hw_ver;
    a->max_qp = SV_MAX_QP;
    a->max_qp_wr = (int)dev->cfg.lim.max_qp_wr;
    a->device_cap_flags = IBV_DEVICE_BAD_PKEY_CNTR | IBV_DEVICE_BAD_QKEY_CNTR |
                          IBV_DEVICE_SYS_IMAGE_GUID | IBV_DEVICE_RC_RNR_NAK_GEN |
                          IBV_DEVICE_MEM_WINDOW | IBV_DEVICE_MEM_WINDOW_TYPE_2B;   /* sv_mw.c, as rxe */
    a->max_sge = (int)dev->cfg.lim.max_sge;
    a->max_sge_rd = (int)dev->cfg.lim.max_sge;
    a->max_cq = SV_MAX_CQ;
    a->max_cqe = (int)dev->cfg.lim.max_cqe;
    a->max_mr = SV_MAX_MR;
    a->max_pd = SV_MAX_PD;
    a->max_mw = SV_MAX_MW;
    a->max_qp_rd_atom = (int)dev->cfg.lim.max_qp_rd_atom;
    a->max_res_rd_atom = (int)dev->cfg.lim.max_res_rd_atom;
    a->max_qp_init_rd_atom = (int)dev->cfg.lim.max_qp_init_rd_atom;
    a->atomic_cap = IBV_ATOMIC_HCA;
    a->max_ah = SV_MAX_AH;
    a->max_srq = SV_MAX_SRQ;
    a->max_srq_wr = (int)SV_MAX_SRQ_WR;
    a->max_srq_sge = SV_MAX_SRQ_SGE;
    a->max_pkeys = 64;            /* rxe's device attribute, although its table has one entry */
    a->local_ca_ack_delay = 15;
    a->phys_port_cnt = 1;
}

void sv_port_attr(const struct sv_device *dev, const struct sv_endpoint *ep, struct ibv_port_attr *a)
{
    memset(a, 0, sizeof *a);
    bool up = sv_device_link_up(dev);
    a->state = up ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
    a->max_mtu = IBV_MTU_4096;
    a->active_mtu = sv_mtu_from_link(dev->cfg.link_mtu);
    a->gid_tbl_len = (int)dev->cfg.lim.gid_tbl_len;
    a->port_cap_flags = IBV_PORT_CM_SUP;
    a->max_msg_sz = SV_MAX_MSG_SZ;
    if (ep) {
        a->bad_pkey_cntr = (uint32_t)atomic_load(&ep->counters[SV_CNT_BAD_PKEY]);
        a->qkey_viol_cntr = (uint32_t)atomic_load(&ep->counters[SV_CNT_QKEY_VIOLATION]);
    }
    a->pkey_tbl_len = SV_PKEY_TBL_LEN;
    a->max_vl_num = 1;
    a->active_width = 1;          /* 1X: what rxe reports when it cannot read the link speed */
    a->active_speed = 1;          /* SDR */
    a->phys_state = up ? 5 : 3;   /* LinkUp, or Disabled as rxe on a down netdev */
    a->link_layer = IBV_LINK_LAYER_ETHERNET;
    a->flags = IBV_QPF_GRH_REQUIRED;
}

int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !device_attr)
        return EINVAL;
    sv_device_attr(ctx->dev, device_attr);
    return 0;
}

#undef ibv_query_port
int ibv_query_port(struct ibv_context *context, uint8_t port_num,
                   struct _compat_ibv_port_attr *port_attr)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !port_attr || port_num != SV_PORT_NUM)
        return EINVAL;
    /* the compat name is the v44 struct ibv_port_attr, which is what callers pass */
    sv_port_attr(ctx->dev, ctx->ep, (struct ibv_port_attr *)port_attr);
    return 0;
}

int ibv_resolve_eth_l2_from_gid(struct ibv_context *context, struct ibv_ah_attr *attr,
                                uint8_t eth_mac[6], uint16_t *vid)
{
    uint32_t ip_be;
    if (!sv_ctx_checked(context) || !attr || !eth_mac || !vid)
        return EINVAL;
    if (!attr->is_global || !sv_gid_to_ipv4(&attr->grh.dgid, &ip_be))
        return EINVAL;
    const uint8_t *ip = (const uint8_t *)&ip_be;
    uint8_t mac[6] = {0x02, 0x00, ip[0], ip[1], ip[2], ip[3]};
    memcpy(eth_mac, mac, sizeof mac);
    *vid = 0xFFFF;   /* no VLAN */
    return 0;
}
