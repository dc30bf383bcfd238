/* IBVERBS_PRIVATE_34, the provider framework: driver registration, context set-up helpers,
 * the ioctl command path, provider logging and sysfs reads. Provider libraries (libmlx5,
 * libefa, ...) bind to these when they are loaded next to softverbs, e.g. by perftest or
 * librdmacm. Their constructors register with verbs_register_driver_34 and are then never
 * asked to open anything: every softverbs device carries softverbs' own device ops
 * (sv_verbs_device_ops), so a provider's "is this my device" check fails and its direct-verbs
 * calls (mlx5dv_*, efadv_*) answer EOPNOTSUPP. What needs a kernel uverbs device answers
 * EOPNOTSUPP too; what is pure bookkeeping (verbs_init_cq, the logger, the attribute count,
 * the sysfs read) does what libibverbs does. Command entry points: sv_abi_cmd_*.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv_driver.h"
#include "sv_loc.h"

const struct verbs_device_ops sv_verbs_device_ops = {
    .name = "softverbs",
};

int sv_abi_unsupported(const char *entry)
{
    sv_error_set("%s: a provider entry point; softverbs has no kernel uverbs device behind it "
                 "(EOPNOTSUPP)", entry);
    sv_log(NULL, "%s called: EOPNOTSUPP (no provider owns a softverbs device)", entry);
    errno = EOPNOTSUPP;
    return EOPNOTSUPP;
}

/* ---- driver registration ---- */

/* Providers register from their constructor. softverbs keeps no provider list: it never
 * matches a provider to a device, it is the device. */
void verbs_register_driver_34(const struct verbs_device_ops *ops)
{
    if (ops && ops->name)
        sv_log(NULL, "provider %s registered (it will own no softverbs device)", ops->name);
}

/* IBVERBS_1.1 only (no default version): the pre-rdma-core-13 registration, kept by
 * libibverbs as a no-op for old libfabric usnic providers. */
typedef struct ibv_device *(*sv_driver_init_1_1)(const char *uverbs_sys_path, int abi_version);
void sv_register_driver_1_1(const char *name, sv_driver_init_1_1 init_func);
__asm__(".symver sv_register_driver_1_1, ibv_register_driver@IBVERBS_1.1");
void sv_register_driver_1_1(const char *name, sv_driver_init_1_1 init_func)
{
}

/* ---- contexts ---- */

/* Read by providers' destroy paths after a device was disassociated (hot-unplug); softverbs
 * devices never disassociate. */
bool verbs_allow_disassociate_destroy;

void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size,
                                    struct verbs_context *context_offset, uint32_t driver_id)
{
    sv_abi_unsupported("_verbs_init_and_alloc_context");
    return NULL;
}

/* libibverbs' ibv_open_device is verbs_open_device(device, NULL); provider-private open data
 * (e.g. mlx5dv_context_attr) means nothing to a softverbs device. */
struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data)
{
    if (!sv_device_of(device)) {
        errno = EINVAL;
        return NULL;
    }
    if (private_data) {
        sv_abi_unsupported("verbs_open_device with provider data");
        return NULL;
    }
    return ibv_open_device(device);
}

/* No provider context ever comes to life on softverbs (_verbs_init_and_alloc_context fails),
 * so there is nothing to tear down or to give ops to. */
void verbs_uninit_context(struct verbs_context *context)
{
}

void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops)
{
}

/* The common part of a provider's CQ set-up, as libibverbs does it. */
void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel,
                   void *cq_context)
{
    if (!cq)
        return;
    cq->context = context;
    cq->channel = channel;
    if (channel && context) {
        pthread_mutex_lock(&context->mutex);
        ++channel->refcnt;
        pthread_mutex_unlock(&context->mutex);
    }
    cq->cq_context = cq_context;
    cq->comp_events_completed = 0;
    cq->async_events_completed = 0;
    pthread_mutex_init(&cq->mutex, NULL);
    pthread_cond_init(&cq->cond, NULL);
}

/* ---- the ioctl command path ---- */

/* Attributes in this frame plus every linked frame: how large the final buffer must be. */
unsigned int __ioctl_final_num_attrs(unsigned int num_attrs, struct ibv_command_buffer *link)
{
    for (; link; link = link->next)
        num_attrs += (unsigned int)(link->next_attr - link->hdr.attrs);
    return num_attrs;
}

int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd)
{
    return sv_abi_unsupported("execute_ioctl");
}

/* ---- provider logging: VERBS_LOG_LEVEL and VERBS_LOG_FILE, as a release libibverbs ---- */

static pthread_once_t g_vlog_once = PTHREAD_ONCE_INIT;
static uint32_t g_vlog_level;       /* set once, read-only afterwards */
static FILE *g_vlog_fp;

static void vlog_init(void)
{
    const char *level = getenv("VERBS_LOG_LEVEL");
    const char *file = getenv("VERBS_LOG_FILE");
    if (!level || !file)
        return;                     /* release libibverbs logs only into a named file */
    g_vlog_fp = fopen(file, "a");
    if (g_vlog_fp)
        g_vlog_level = (uint32_t)strtoul(level, NULL, 0);
}

void __verbs_log(struct verbs_context *ctx, uint32_t level, const char *fmt, ...)
{
    pthread_once(&g_vlog_once, vlog_init);
    if (!g_vlog_fp || level > g_vlog_level || !fmt)
        return;
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(g_vlog_fp, fmt, ap);
    va_end(ap);
    fflush(g_vlog_fp);
    errno = saved;
}

/* ---- sysfs ---- */

/* The discovery record a provider gets for its device; softverbs creates none, but a provider
 * holding one from elsewhere reads through it the usual way. */
struct verbs_sysfs_dev {
    struct sv_list_node entry;
    void *provider_data;
    const struct verbs_match_ent *match;
    unsigned int flags;
    char sysfs_name[IBV_SYSFS_NAME_MAX];
    dev_t sysfs_cdev;
    char ibdev_name[IBV_SYSFS_NAME_MAX];
    char ibdev_path[IBV_SYSFS_PATH_MAX];
    /* more fields follow in libibverbs; none is read here */
};

int ibv_read_ibdev_sysfs_file(char *buf, size_t size, struct verbs_sysfs_dev *sysfs_dev,
                              const char *fnfmt, ...)
{
    if (!sysfs_dev || !fnfmt) {
        errno = EINVAL;
        return -1;
    }
    char path[IBV_SYSFS_PATH_MAX];
    va_list ap;
    va_start(ap, fnfmt);
    int n = vsnprintf(path, sizeof path, fnfmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return ibv_read_sysfs_file(sysfs_dev->ibdev_path, path, buf, size);
}
