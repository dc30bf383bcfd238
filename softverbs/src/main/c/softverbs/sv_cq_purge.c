/* Purging a QP's completions from a CQ, as mlx5 does when a QP moves to RESET
 * (__mlx5_cq_clean): a QP that is reset and reused must not poll the flush errors or late
 * completions of its previous life. Entries of other QPs keep their order. */
#include "sv_loc.h"

uint32_t sv_cq_purge_qp(struct sv_cq *cq, uint32_t qp_num)
{
    if (!cq)
        return 0;
    pthread_mutex_lock(&cq->lock);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < cq->count; i++) {
        const struct ibv_wc *wc = &cq->ring[(cq->head + i) % cq->slots];
        if (wc->qp_num != qp_num)
            cq->ring[(cq->head + kept++) % cq->slots] = *wc;
    }
    uint32_t purged = cq->count - kept;
    cq->count = kept;
    if (cq->overflowed && cq->count < cq->slots)
        cq->overflowed = false;
    pthread_mutex_unlock(&cq->lock);
    return purged;
}
