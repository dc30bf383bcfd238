/* Counters and the virtual sysfs of softverbs devices. Counters live with the device's socket
 * in this process (sv_endpoint), so they count what this process sent and received on it.
 * They are read with softverbs_query_counters(), or as files laid out like the kernel's
 * /sys/class/infiniband/<dev>/ports/1/hw_counters/<name> through ibv_read_sysfs_file(). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "softverbs.h"
#include "sv_loc.h"

const char *const sv_counter_name[SV_CNT__COUNT] = {
#define SV_COUNTER_NAME(id, name) [SV_CNT_##id] = name,
    SV_COUNTER_LIST(SV_COUNTER_NAME)
#undef SV_COUNTER_NAME
};

int softverbs_query_counters(struct ibv_context *context, const char **names, uint64_t *values, int max)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || max < 0 || (max > 0 && (!names || !values))) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < max && i < SV_CNT__COUNT; i++) {
        names[i] = sv_counter_name[i];
        values[i] = atomic_load(&ctx->ep->counters[i]);
    }
    return SV_CNT__COUNT;
}

#define SV_SYSFS_PREFIX "/sys/class/infiniband/"

static int put(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int put(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n < 0 ? -1 : (n >= (int)size ? (int)size - 1 : n);
}

static int guid_str(char *buf, size_t size, uint64_t guid_be)
{
    const uint8_t *g = (const uint8_t *)&guid_be;
    return put(buf, size, "%02x%02x:%02x%02x:%02x%02x:%02x%02x", g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]);
}

static int port_file(const struct sv_device *dev, const char *f, char *buf, size_t size)
{
    unsigned int index;
    char name[64];
    bool up = sv_device_link_up(dev);
    if (!strcmp(f, "state"))
        return put(buf, size, up ? "4: ACTIVE" : "1: DOWN");
    if (!strcmp(f, "phys_state"))
        return put(buf, size, up ? "5: LinkUp" : "3: Disabled");
    if (!strcmp(f, "link_layer"))
        return put(buf, size, "Ethernet");
    if (!strcmp(f, "pkeys/0"))
        return put(buf, size, "0x%04x", SV_DEFAULT_PKEY);
    if (sscanf(f, "gids/%u", &index) == 1 && index < dev->cfg.lim.gid_tbl_len) {
        union ibv_gid gid;
        sv_device_gid(dev, (int)index, &gid, NULL);
        const uint8_t *r = gid.raw;
        return put(buf, size, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
                   r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
                   r[14], r[15]);
    }
    if (sscanf(f, "gid_attrs/types/%u", &index) == 1 && index < (unsigned)sv_device_gid_count(dev)) {
        union ibv_gid gid;
        int v2 = 0;
        sv_device_gid(dev, (int)index, &gid, &v2);
        return put(buf, size, "%s", v2 ? "RoCE v2" : "IB/RoCE v1");
    }
    if (sscanf(f, "gid_attrs/ndevs/%u", &index) == 1 && index < (unsigned)sv_device_gid_count(dev))
        return put(buf, size, "%s", sv_device_ndev_name(dev));
    if (sscanf(f, "hw_counters/%63s", name) == 1) {
        struct sv_endpoint *ep = sv_endpoint_find(dev->cfg.ip_be);
        for (int i = 0; i < SV_CNT__COUNT; i++)
            if (!strcmp(name, sv_counter_name[i]))
                return put(buf, size, "%" PRIu64, ep ? (uint64_t)atomic_load(&ep->counters[i]) : 0);
    }
    errno = ENOENT;
    return -1;
}

static int device_file(const struct sv_device *dev, const char *file, char *buf, size_t size)
{
    if (!strcmp(file, "fw_ver"))
        return put(buf, size, "%s", dev->cfg.fw_ver);
    if (!strcmp(file, "node_guid") || !strcmp(file, "sys_image_guid"))
        return guid_str(buf, size, dev->guid_be);
    if (!strcmp(file, "node_type"))
        return put(buf, size, "1: CA");
    if (!strcmp(file, "node_desc"))
        return put(buf, size, "softverbs %s", dev->cfg.name);
    if (!strncmp(file, "ports/1/", 8))
        return port_file(dev, file + 8, buf, size);
    errno = ENOENT;
    return -1;
}

int sv_sysfs_read(const char *dir, const char *file, char *buf, size_t size)
{
    size_t plen = strlen(SV_SYSFS_PREFIX);
    if (strncmp(dir, SV_SYSFS_PREFIX, plen) != 0 || strchr(dir + plen, '/')) {
        errno = ENOENT;
        return -1;
    }
    const char *name = dir + plen;
    struct ibv_device **list = ibv_get_device_list(NULL);
    if (!list) {
        errno = ENOENT;
        return -1;
    }
    int n = -1;
    errno = ENOENT;
    for (int i = 0; list[i]; i++) {
        if (!strcmp(list[i]->name, name)) {
            n = device_file(sv_device_of(list[i]), file, buf, size);
            break;
        }
    }
    int saved = errno;
    ibv_free_device_list(list);
    errno = saved;
    return n;
}
