/* Protection domains. A PD counts the objects created in it (QPs, MRs, AHs, SRQs) so that
 * ibv_dealloc_pd can refuse with EBUSY while it is in use, as the kernel's use count does.
 * ibv_import_pd gives another context of the same open (ibv_import_device) a handle on a PD by
 * its handle, as uverbs does: objects made in the imported PD are the PD's own. */
#include <errno.h>
#include <stdlib.h>

#include "sv_loc.h"

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    if (!ctx) {
        errno = EINVAL;
        return NULL;
    }
    struct sv_pd *pd = calloc(1, sizeof *pd);
    if (!pd) {
        errno = ENOMEM;
        return NULL;
    }
    pd->ibpd.context = context;
    atomic_init(&pd->users, 0);
    pthread_mutex_lock(&ctx->obj_lock);
    pd->ibpd.handle = sv_ctx_new_handle(ctx);
    pd->ctx_next = ctx->pds;
    ctx->pds = pd;
    pthread_mutex_unlock(&ctx->obj_lock);
    return &pd->ibpd;
}

int ibv_dealloc_pd(struct ibv_pd *ibpd)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    if (!ctx)
        return EINVAL;
    struct sv_pd *own = sv_container_of(ibpd, struct sv_pd, ibpd);
    if (own->real) {
        /* the PD stays its owner's (a uverbs PD would go, leaving the owner a dead handle) */
        free(own);
        return 0;
    }
    pthread_mutex_lock(&ctx->obj_lock);
    if (atomic_load(&own->users) > 0) {
        pthread_mutex_unlock(&ctx->obj_lock);
        return EBUSY;
    }
    for (struct sv_pd **pp = &ctx->pds; *pp; pp = &(*pp)->ctx_next) {
        if (*pp == own) {
            *pp = own->ctx_next;
            break;
        }
    }
    pthread_mutex_unlock(&ctx->obj_lock);
    free(own);
    return 0;
}

struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)
{
    struct sv_context *ctx = sv_ctx_checked(context);
    struct sv_pd *imp = ctx ? calloc(1, sizeof *imp) : NULL;
    if (!imp) {
        errno = ctx ? ENOMEM : EINVAL;
        return NULL;
    }
    pthread_mutex_lock(&ctx->obj_lock);
    struct sv_pd *pd = ctx->pds;
    while (pd && pd->ibpd.handle != pd_handle)
        pd = pd->ctx_next;
    pthread_mutex_unlock(&ctx->obj_lock);
    if (!pd) {
        free(imp);
        errno = EINVAL;          /* no PD of this context has the handle */
        return NULL;
    }
    imp->ibpd.context = context;
    imp->ibpd.handle = pd_handle;
    imp->real = pd;
    return &imp->ibpd;
}

void ibv_unimport_pd(struct ibv_pd *ibpd)
{
    struct sv_pd *own = ibpd && sv_ctx_checked(ibpd->context) ? sv_container_of(ibpd, struct sv_pd, ibpd) : NULL;
    if (own && own->real)        /* what ibv_import_pd made; an allocated PD is left alone */
        free(own);
}
