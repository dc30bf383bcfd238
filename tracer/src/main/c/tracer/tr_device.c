/* Devices and contexts: list, open (ops swap + device snapshot), close, queries. */
#include <endian.h>
#include <stdlib.h>

#include "tr_loc.h"

/* Names are parenthesised in definitions: verbs.h makes some of them function-like macros. */

struct ibv_device **(ibv_get_device_list)(int *num_devices)
{
    int local = 0;
    int *n = num_devices != NULL ? num_devices : &local;
    int64_t t0 = tr_now();
    struct ibv_device **list = real_ibv_get_device_list != NULL ? real_ibv_get_device_list(n) : NULL;
    int64_t t1 = tr_now();
    int err = list == NULL ? errno : 0;
    tr_args(TR_IBV_GET_DEVICE_LIST, t0, t1 - t0, list, list != NULL ? *n : -1, err, 0, NULL);
    errno = err != 0 ? err : errno;
    return list;
}

void (ibv_free_device_list)(struct ibv_device **list)
{
    int64_t t0 = tr_now();
    real_ibv_free_device_list(list);
    int64_t t1 = tr_now();
    tr_args(TR_IBV_FREE_DEVICE_LIST, t0, t1 - t0, list, 0, 0, 0, NULL);
}

struct ibv_context *(ibv_open_device)(struct ibv_device *device)
{
    int64_t t0 = tr_now();
    struct ibv_context *ctx = real_ibv_open_device(device);
    int64_t t1 = tr_now();
    int err = ctx == NULL ? errno : 0;
    if (ctx != NULL) {
        tr_ops_attach(ctx);
    }
    uint32_t n = TR_PAYLOAD + TX_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_OPEN_DEVICE, 0, n, t0, ctx, ctx != NULL ? 0 : -1, err, t1 - t0);
        tr_text(r + TR_PAYLOAD, device != NULL ? device->name : NULL);
        tr_commit(r, n);
    }
    if (ctx != NULL) {
        tr_device_snapshot(ctx);   /* before the extended ops are swapped: its queries are not the program's */
        tr_vops_attach(ctx);
    }
    errno = err != 0 ? err : errno;
    return ctx;
}

int (ibv_close_device)(struct ibv_context *ctx)
{
    tr_poll_flush();
    int64_t t0 = tr_now();
    int ret = real_ibv_close_device(ctx);
    int64_t t1 = tr_now();
    int err = errno;
    if (ret == 0) {
        tr_ops_detach(ctx);
        tr_vops_detach(ctx);
    }
    tr_args(TR_IBV_CLOSE_DEVICE, t0, t1 - t0, ctx, ret, tr_err_of_ret(ret, err), 0, NULL);
    errno = err;
    return ret;
}

int (ibv_query_device)(struct ibv_context *ctx, struct ibv_device_attr *attr)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_device(ctx, attr);
    int64_t t1 = tr_now();
    int err = errno;
    uint32_t n = TR_PAYLOAD + TX_NSLOTS + DA_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_IBV_QUERY_DEVICE, 0, n, t0, ctx, ret, tr_err_of_ret(ret, err), t1 - t0);
        memset(r + TR_PAYLOAD, 0, (TX_NSLOTS + DA_NSLOTS) * 8);
        if (ret == 0 && attr != NULL) {
            char fw[sizeof(attr->fw_ver) + 1];
            memcpy(fw, attr->fw_ver, sizeof attr->fw_ver);
            fw[sizeof attr->fw_ver] = '\0';
            tr_text(r + TR_PAYLOAD, fw);
            device_attr_to_slots(attr, r + TR_PAYLOAD + TX_NSLOTS);
        }
        tr_commit(r, n);
    }
    errno = err;
    return ret;
}

void tr_port_record(enum tr_kind kind, uint32_t flags, int64_t t0, int64_t dur, struct ibv_context *ctx,
                        uint8_t port, int ret, int err, const struct ibv_port_attr *attr)
{
    uint32_t n = TR_PAYLOAD + PT_NSLOTS + PA_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r == NULL) {
        return;
    }
    tr_head(r, kind, flags, n, t0, ctx, ret, err, dur);
    memset(r + TR_PAYLOAD, 0, (PT_NSLOTS + PA_NSLOTS) * 8);
    r[TR_PAYLOAD + PT_PORT_NUM] = port;
    if (ret == 0) {
        port_attr_to_slots(attr, r + TR_PAYLOAD + PT_NSLOTS);
    }
    tr_commit(r, n);
}

/* The exported fallback of verbs.h's inline ibv_query_port (used when the context has no query_port op). */
int (ibv_query_port)(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *attr)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_port(ctx, port, attr);
    int64_t t1 = tr_now();
    int err = errno;
    tr_port_record(TR_IBV_QUERY_PORT, 0, t0, t1 - t0, ctx, port, ret, tr_err_of_ret(ret, err),
                (const struct ibv_port_attr *)attr);
    errno = err;
    return ret;
}

static void gid_record(enum tr_kind kind, uint32_t flags, int64_t t0, int64_t dur, struct ibv_context *ctx,
                       uint32_t port, uint32_t index, int ret, int err, const union ibv_gid *gid, int64_t type,
                       int64_t ifindex)
{
    uint32_t n = TR_PAYLOAD + GE_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r == NULL) {
        return;
    }
    tr_head(r, kind, flags, n, t0, ctx, ret, err, dur);
    int64_t *g = r + TR_PAYLOAD;
    memset(g, 0, GE_NSLOTS * 8);
    if (ret == 0 && gid != NULL) {
        memcpy(g + GE_GID_0, gid->raw, 16);
    }
    g[GE_GID_INDEX] = index;
    g[GE_PORT_NUM] = port;
    g[GE_GID_TYPE] = type;
    g[GE_NDEV_IFINDEX] = ifindex;
    tr_commit(r, n);
}

int (ibv_query_gid)(struct ibv_context *ctx, uint8_t port, int index, union ibv_gid *gid)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_gid(ctx, port, index, gid);
    int64_t t1 = tr_now();
    int err = errno;
    gid_record(TR_IBV_QUERY_GID, 0, t0, t1 - t0, ctx, port, (uint32_t)index, ret, tr_err_of_ret(ret, err), gid,
               -1, 0);
    errno = err;
    return ret;
}

int (_ibv_query_gid_ex)(struct ibv_context *ctx, uint32_t port, uint32_t index, struct ibv_gid_entry *entry,
                        uint32_t flags, size_t entry_size)
{
    int64_t t0 = tr_now();
    int ret = real__ibv_query_gid_ex(ctx, port, index, entry, flags, entry_size);
    int64_t t1 = tr_now();
    int err = errno;
    int ok = ret == 0 && entry != NULL;
    gid_record(TR_IBV_QUERY_GID_EX, 0, t0, t1 - t0, ctx, port, index, ret, tr_err_of_ret(ret, err),
               ok ? &entry->gid : NULL, ok ? (int64_t)entry->gid_type : -1, ok ? entry->ndev_ifindex : 0);
    errno = err;
    return ret;
}

int (ibv_query_pkey)(struct ibv_context *ctx, uint8_t port, int index, __be16 *pkey)
{
    int64_t t0 = tr_now();
    int ret = real_ibv_query_pkey(ctx, port, index, pkey);
    int64_t t1 = tr_now();
    int err = errno;
    int64_t args[3] = {port, index, ret == 0 && pkey != NULL ? be16toh(*pkey) : 0};
    tr_args(TR_IBV_QUERY_PKEY, t0, t1 - t0, ctx, ret, tr_err_of_ret(ret, err), 3, args);
    errno = err;
    return ret;
}

/*
 * What the trace's SESSION needs, queried by the tracer itself right after the program opened the
 * device (flagged TR_FLAG_RECORDER): identity and limits, every port, every port's GID table.
 */
void tr_device_snapshot(struct ibv_context *ctx)
{
    if (!tr_recording || real_ibv_query_device == NULL) {
        return;
    }
    int saved = errno;
    struct ibv_device_attr da;
    memset(&da, 0, sizeof da);
    int64_t t0 = tr_now();
    int ret = real_ibv_query_device(ctx, &da);
    int64_t t1 = tr_now();
    uint32_t n = TR_PAYLOAD + 2 * TX_NSLOTS + DI_NSLOTS + DA_NSLOTS;
    int64_t *r = tr_reserve(n);
    if (r != NULL) {
        tr_head(r, TR_DEVICE_INFO, TR_FLAG_RECORDER, n, t0, ctx, ret, tr_err_of_ret(ret, errno), t1 - t0);
        memset(r + TR_PAYLOAD, 0, (n - TR_PAYLOAD) * 8);
        int64_t *p = r + TR_PAYLOAD;
        tr_text(p, ctx->device->name);
        char fw[sizeof(da.fw_ver) + 1];
        memcpy(fw, da.fw_ver, sizeof da.fw_ver);
        fw[sizeof da.fw_ver] = '\0';
        tr_text(p + TX_NSLOTS, fw);
        int64_t *di = p + 2 * TX_NSLOTS;
        di[DI_DEVICE] = (int64_t)(uintptr_t)ctx->device;
        di[DI_NODE_TYPE] = ctx->device->node_type;
        di[DI_TRANSPORT_TYPE] = ctx->device->transport_type;
        di[DI_GUID] = (int64_t)be64toh(da.node_guid);
        if (ret == 0) {
            device_attr_to_slots(&da, di + DI_NSLOTS);
        }
        tr_commit(r, n);
    }
    int ports = ret == 0 ? da.phys_port_cnt : 0;
    for (int port = 1; port <= ports && port <= 255; port++) {
        struct ibv_port_attr pa;
        memset(&pa, 0, sizeof pa);
        t0 = tr_now();
        /* the inline query of verbs.h: the context's own op when it has one */
        struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);
        int pret = vctx != NULL ? vctx->query_port(ctx, (uint8_t)port, &pa, sizeof pa)
                                : real_ibv_query_port(ctx, (uint8_t)port, (struct _compat_ibv_port_attr *)&pa);
        t1 = tr_now();
        tr_port_record(TR_PORT_INFO, TR_FLAG_RECORDER, t0, t1 - t0, ctx, (uint8_t)port, pret,
                    tr_err_of_ret(pret, errno), &pa);
        int gids = pret == 0 ? pa.gid_tbl_len : 0;
        for (int i = 0; i < gids && i < 256; i++) {
            struct ibv_gid_entry e;
            memset(&e, 0, sizeof e);
            t0 = tr_now();
            int gret;
            if (real__ibv_query_gid_ex != NULL) {
                gret = real__ibv_query_gid_ex(ctx, (uint32_t)port, (uint32_t)i, &e, 0, sizeof e);
            } else {
                gret = real_ibv_query_gid(ctx, (uint8_t)port, i, &e.gid);
                e.gid_type = IBV_GID_TYPE_IB;
            }
            t1 = tr_now();
            static const union ibv_gid zero;
            if (gret != 0 || memcmp(&e.gid, &zero, sizeof zero) == 0) {
                continue;   /* an empty entry (or ENODATA): not part of the table */
            }
            gid_record(TR_GID_INFO, TR_FLAG_RECORDER, t0, t1 - t0, ctx, (uint32_t)port, (uint32_t)i, gret,
                       tr_err_of_ret(gret, errno), &e.gid, gret == 0 ? (int64_t)e.gid_type : -1, e.ndev_ifindex);
        }
    }
    errno = saved;
}

/* Bind each wrapper to its default version where an older one also exists (see tr_syms.h). */
TR_SYMVER(_ibv_query_gid_ex)
TR_SYMVER(ibv_close_device)
TR_SYMVER(ibv_free_device_list)
TR_SYMVER(ibv_get_device_list)
TR_SYMVER(ibv_open_device)
TR_SYMVER(ibv_query_device)
TR_SYMVER(ibv_query_gid)
TR_SYMVER(ibv_query_pkey)
TR_SYMVER(ibv_query_port)
