/* Contexts: ibv_open_device/ibv_close_device and the ops tables that the verbs.h inline helpers
 * call through (ibv_context.ops and the extended verbs_context). The progress thread each
 * context runs is in sv_progress.c, async events in sv_async.c. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sv_loc.h"

/* The open contexts, for ibv_import_device: a process's uverbs files, as the kernel knows them. */
static pthread_mutex_t g_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sv_context *g_reg;


struct sv_context *sv_ctx_checked(struct ibv_context *ibctx)
{
    if (!ibctx)
        return NULL;
    struct sv_context *ctx = sv_ctx(ibctx);
    if (ctx->magic == SV_CONTEXT_IMPORT_MAGIC)
        ctx = ctx->import_of;
    return ctx->magic == SV_CONTEXT_MAGIC ? ctx : NULL;
}

bool sv_ctx_same(struct ibv_context *a, struct ibv_context *b)
{
    if (a == b)
        return a != NULL;
    struct sv_context *x = sv_ctx_checked(a);
    return x && x == sv_ctx_checked(b);
}

void sv_ctx_register(struct sv_context *ctx)
{
    pthread_mutex_lock(&g_reg_lock);
    ctx->refs = 1;
    ctx->reg_next = g_reg;
    g_reg = ctx;
    pthread_mutex_unlock(&g_reg_lock);
}

bool sv_ctx_unref(struct sv_context *ctx)
{
    pthread_mutex_lock(&g_reg_lock);
    bool last = --ctx->refs == 0;
    if (last) {
        for (struct sv_context **pp = &g_reg; *pp; pp = &(*pp)->reg_next) {
            if (*pp == ctx) {
                *pp = ctx->reg_next;
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_reg_lock);
    return last;
}

struct sv_context *sv_ctx_find_by_fd(int fd)
{
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL;
    pthread_mutex_lock(&g_reg_lock);
    struct sv_context *c = g_reg;
    while (c && (c->cmd_dev != st.st_dev || c->cmd_ino != st.st_ino))
        c = c->reg_next;
    if (c)
        c->refs++;
    pthread_mutex_unlock(&g_reg_lock);
    return c;
}

uint64_t sv_ctx_new_uid(struct sv_context *ctx)
{
    return ++ctx->next_uid;
}

uint32_t sv_ctx_new_handle(struct sv_context *ctx)
{
    return ++ctx->next_handle;
}

void sv_wait_acked(pthread_mutex_t *m, pthread_cond_t *cv, const uint32_t *done, const uint32_t *reported)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);   /* the ibv_* conds use the default clock */
    until.tv_sec += SV_DESTROY_WAIT_MS / 1000;
    pthread_mutex_lock(m);
    while ((int32_t)(*done - *reported) < 0) {
        if (pthread_cond_timedwait(cv, m, &until) != 0)
            break;
    }
    pthread_mutex_unlock(m);
}

/* ---- verbs_context ops ---- */

static int sv_query_port_ex(struct ibv_context *context, uint8_t port_num,
                            struct ibv_port_attr *port_attr, size_t port_attr_len)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !port_attr || port_num != SV_PORT_NUM)
        return EINVAL;
    struct ibv_port_attr full;
    sv_port_attr(ctx->dev, ctx->ep, &full);
    memset(port_attr, 0, port_attr_len);
    memcpy(port_attr, &full, port_attr_len < sizeof full ? port_attr_len : sizeof full);
    return 0;
}

static int sv_query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input,
                              struct ibv_device_attr_ex *attr, size_t attr_size)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx || !attr || attr_size < sizeof attr->orig_attr)
        return EINVAL;
    if (input && input->comp_mask)
        return EINVAL;
    memset(attr, 0, attr_size);
    sv_device_attr(ctx->dev, &attr->orig_attr);
    /* the extended fields the caller's struct has room for; everything else stays 0 (no ODP,
     * TSO, RSS, timestamps, packet pacing, tag matching, device memory) */
    if (attr_size >= offsetof(struct ibv_device_attr_ex, device_cap_flags_ex) + sizeof attr->device_cap_flags_ex)
        attr->device_cap_flags_ex = (uint32_t)attr->orig_attr.device_cap_flags;   /* legacy: the low 32 bits */
    if (attr_size >= offsetof(struct ibv_device_attr_ex, phys_port_cnt_ex) + sizeof attr->phys_port_cnt_ex)
        attr->phys_port_cnt_ex = attr->orig_attr.phys_port_cnt;
    return 0;
}

struct ibv_qp *sv_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *init);

/* ---- open / close ---- */

static void free_context(struct sv_context *ctx)
{
    if (ctx->ep)
        sv_endpoint_release(ctx->ep);
    if (ctx->vctx.context.async_fd >= 0)
        close(ctx->vctx.context.async_fd);
    if (ctx->async_wr >= 0)
        close(ctx->async_wr);
    if (ctx->wake_fd >= 0)
        close(ctx->wake_fd);
    if (ctx->vctx.context.cmd_fd >= 0)
        close(ctx->vctx.context.cmd_fd);
    sv_mr_table_destroy(&ctx->mrs);
    pthread_mutex_destroy(&ctx->obj_lock);
    pthread_mutex_destroy(&ctx->vctx.context.mutex);
    sv_device_put(ctx->dev);
    ctx->magic = 0;
    free(ctx);
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
    struct sv_device *dev = sv_device_of(device);
    if (!dev) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        errno = ENOMEM;
        return NULL;
    }
    sv_device_get(dev);
    ctx->dev = dev;
    ctx->magic = SV_CONTEXT_MAGIC;
    ctx->async_wr = ctx->wake_fd = ctx->vctx.context.async_fd = ctx->vctx.context.cmd_fd = -1;
    pthread_mutex_init(&ctx->obj_lock, NULL);
    pthread_mutex_init(&ctx->vctx.context.mutex, NULL);
    int rc = sv_mr_table_init(&ctx->mrs);
    if (rc)
        goto fail;
    rc = sv_endpoint_acquire(&dev->cfg, &ctx->ep);   /* sets softverbs_last_error */
    if (rc)
        goto fail;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        rc = errno;
        sv_error_set("device %s: cannot create the async event pipe: %s", dev->cfg.name, strerror(rc));
        goto fail;
    }
    ctx->vctx.context.async_fd = p[0];
    ctx->async_wr = p[1];
    fcntl(ctx->async_wr, F_SETFL, O_NONBLOCK);
    ctx->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (ctx->wake_fd < 0) {
        rc = errno;
        sv_error_set("device %s: cannot create an eventfd: %s", dev->cfg.name, strerror(rc));
        goto fail;
    }

    /* no uverbs character device behind softverbs: a memfd of its own names the context, so a dup
     * of it can be imported (ibv_import_device) as a dup of a uverbs fd can */
    ctx->vctx.context.cmd_fd = memfd_create("softverbs-context", MFD_CLOEXEC);
    struct stat st;
    if (ctx->vctx.context.cmd_fd < 0 || fstat(ctx->vctx.context.cmd_fd, &st) != 0) {
        rc = errno;
        sv_error_set("device %s: cannot create the context's command fd: %s", dev->cfg.name, strerror(rc));
        goto fail;
    }
    ctx->cmd_dev = st.st_dev;
    ctx->cmd_ino = st.st_ino;

    struct ibv_context *ic = &ctx->vctx.context;
    ic->device = device;
    ic->num_comp_vectors = 1;
    ic->abi_compat = __VERBS_ABI_IS_EXTENDED;
    ic->ops.poll_cq = sv_poll_cq;
    ic->ops.req_notify_cq = sv_req_notify_cq;
    ic->ops.post_send = sv_post_send;
    ic->ops.post_recv = sv_post_recv;
    ic->ops.post_srq_recv = sv_post_srq_recv;
    ic->ops.alloc_mw = sv_alloc_mw;
    ic->ops.dealloc_mw = sv_dealloc_mw;
    ic->ops.bind_mw = sv_bind_mw;
    ctx->vctx.sz = sizeof ctx->vctx;
    ctx->vctx.query_port = sv_query_port_ex;
    ctx->vctx.query_device_ex = sv_query_device_ex;
    ctx->vctx.create_qp_ex = sv_create_qp_ex;
    ctx->vctx.create_cq_ex = sv_create_cq_ex;

    /* the progress thread must not run application signal handlers */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&ctx->progress, NULL, sv_progress_main, ctx);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        sv_error_set("device %s: cannot start the progress thread: %s", dev->cfg.name, strerror(rc));
        goto fail;
    }
    sv_ctx_register(ctx);
    return ic;
fail:
    free_context(ctx);
    errno = rc;
    return NULL;
}

void sv_qp_free_on_close(struct sv_qp *qp);
void sv_cq_free_on_close(struct sv_cq *cq);
void sv_srq_free_on_close(struct sv_srq *srq);

/* An imported context is only a handle on the context it came from: closing it closes its fd. */
static int close_import(struct sv_context *imp)
{
    struct sv_context *ctx = imp->import_of;
    close(imp->vctx.context.cmd_fd);
    pthread_mutex_destroy(&imp->vctx.context.mutex);
    imp->magic = 0;
    free(imp);
    if (sv_ctx_unref(ctx))
        sv_ctx_teardown(ctx);
    return 0;
}

struct ibv_context *ibv_import_device(int cmd_fd)
{
    /* rdma-core: EINVAL for an fd that is no device's command fd */
    struct sv_context *ctx = sv_ctx_find_by_fd(cmd_fd);
    if (!ctx) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_context *imp = calloc(1, sizeof *imp);
    if (!imp) {
        if (sv_ctx_unref(ctx))
            sv_ctx_teardown(ctx);
        errno = ENOMEM;
        return NULL;
    }
    imp->vctx = ctx->vctx;         /* the same device, ops and async fd; the fd given is its own */
    pthread_mutex_init(&imp->vctx.context.mutex, NULL);
    imp->vctx.context.cmd_fd = cmd_fd;
    imp->dev = ctx->dev;
    imp->import_of = ctx;
    imp->magic = SV_CONTEXT_IMPORT_MAGIC;
    return &imp->vctx.context;
}

int ibv_close_device(struct ibv_context *context)
{
    if (context && sv_ctx(context)->magic == SV_CONTEXT_IMPORT_MAGIC)
        return close_import(sv_ctx(context));
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx)
        return EINVAL;
    /* the kernel keeps a ucontext while any of its files is open: imported contexts hold it, and
     * the application's own fd closes now */
    pthread_mutex_lock(&g_reg_lock);
    bool again = ctx->closed;
    ctx->closed = true;
    int fd = ctx->refs > 1 ? ctx->vctx.context.cmd_fd : -1;
    if (fd >= 0)
        ctx->vctx.context.cmd_fd = -1;
    pthread_mutex_unlock(&g_reg_lock);
    if (again)
        return EINVAL;
    if (fd >= 0)
        close(fd);
    if (sv_ctx_unref(ctx))
        sv_ctx_teardown(ctx);
    return 0;
}

void sv_ctx_teardown(struct sv_context *ctx)
{
    atomic_store(&ctx->stopping, true);
    uint64_t one = 1;
    ssize_t n = write(ctx->wake_fd, &one, sizeof one);
    (void)n;
    pthread_join(ctx->progress, NULL);
    /* like the kernel on close: whatever the application left behind goes away now */
    pthread_mutex_lock(&ctx->obj_lock);
    struct sv_qp *qp = ctx->qps;
    struct sv_cq *cq = ctx->cqs;
    struct sv_srq *srq = ctx->srqs;
    ctx->qps = NULL;
    ctx->cqs = NULL;
    ctx->srqs = NULL;
    pthread_mutex_unlock(&ctx->obj_lock);
    while (qp) {
        struct sv_qp *next = qp->ctx_next;
        sv_qp_free_on_close(qp);
        qp = next;
    }
    while (srq) {
        struct sv_srq *next = srq->ctx_next;
        sv_srq_free_on_close(srq);
        srq = next;
    }
    while (cq) {
        struct sv_cq *next = cq->ctx_next;
        sv_cq_free_on_close(cq);
        cq = next;
    }
    free_context(ctx);
}
