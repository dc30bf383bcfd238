/* Protection domains. A PD counts the objects created in it (QPs, MRs, AHs, SRQs) so that
 * ibv_dealloc_pd can refuse with EBUSY while it is in use, as the kernel's use count does. */
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
    pthread_mutex_lock(&ctx->obj_lock);
    pd->ibpd.handle = sv_ctx_new_handle(ctx);
    pthread_mutex_unlock(&ctx->obj_lock);
    atomic_init(&pd->users, 0);
    return &pd->ibpd;
}

int ibv_dealloc_pd(struct ibv_pd *ibpd)
{
    if (!ibpd || !sv_ctx_checked(ibpd->context))
        return EINVAL;
    struct sv_pd *pd = sv_pd(ibpd);
    if (atomic_load(&pd->users) > 0)
        return EBUSY;
    free(pd);
    return 0;
}
