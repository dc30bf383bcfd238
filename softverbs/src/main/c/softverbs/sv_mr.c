/* Memory regions: registration with the kernel's access rules, L_Key/R_Key lookup, and every
 * access to registered memory. Keys are (table index << 8) | 8-bit key, as on rxe. All data
 * copies happen under the table's read lock, so deregistration waits for copies in flight.
 * ibv_import_mr gives an imported PD a handle on an MR by its handle (the table index). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sv_loc.h"

#define SV_PAGE 4096u

/* Access bits the kernel accepts on a user MR (ib_check_mr_access); HUGETLB is a libibverbs
 * hint, the optional range (1<<20 .. 1<<29) is dropped silently when unsupported. */
#define SV_MR_ACCESS_OK (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | \
                         IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND | IBV_ACCESS_HUGETLB)
#define SV_MR_NEEDS_ODP  (IBV_ACCESS_ON_DEMAND)

int sv_mr_table_init(struct sv_mr_table *t)
{
    memset(t, 0, sizeof *t);
    return pthread_rwlock_init(&t->lock, NULL);
}

void sv_mr_table_destroy(struct sv_mr_table *t)
{
    for (uint32_t i = 0; i < t->cap; i++)
        if (t->slot[i]) {
            atomic_fetch_sub(&t->slot[i]->pd->users, 1);
            free(t->slot[i]);
        }
    free(t->slot);
    sv_mw_table_destroy(t);
    pthread_rwlock_destroy(&t->lock);
}

/* The MR a key names, or NULL. Table lock held. */
static struct sv_mr *lookup(struct sv_mr_table *t, uint32_t key)
{
    uint32_t index = key >> 8;
    if (index >= t->cap || !t->slot[index])
        return NULL;
    struct sv_mr *mr = t->slot[index];
    return mr->ibmr.lkey == key ? mr : NULL;
}

struct sv_mr *sv_mr_lookup(struct sv_mr_table *t, uint32_t key)
{
    return lookup(t, key);
}

static int table_insert(struct sv_mr_table *t, struct sv_mr *mr)
{
    pthread_rwlock_wrlock(&t->lock);
    if (t->count >= SV_MAX_MR) {
        pthread_rwlock_unlock(&t->lock);
        return ENOMEM;
    }
    uint32_t index = 0;
    for (uint32_t i = 1; i < t->cap; i++)   /* index 0 unused: key 0 is never valid */
        if (!t->slot[i]) {
            index = i;
            break;
        }
    if (!index) {
        uint32_t ncap = t->cap ? t->cap * 2 : 64;
        struct sv_mr **n = realloc(t->slot, ncap * sizeof *n);
        if (!n) {
            pthread_rwlock_unlock(&t->lock);
            return ENOMEM;
        }
        memset(n + t->cap, 0, (ncap - t->cap) * sizeof *n);
        index = t->cap ? t->cap : 1;
        t->slot = n;
        t->cap = ncap;
    }
    uint8_t key = ++t->next_key;
    mr->index = index;
    mr->ibmr.lkey = mr->ibmr.rkey = (index << 8) | key;
    t->slot[index] = mr;
    t->count++;
    pthread_rwlock_unlock(&t->lock);
    return 0;
}

/* EFAULT unless every page of [addr, addr+len) is mapped (what pinning would find out). */
static int check_mapped(void *addr, size_t len)
{
    uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(SV_PAGE - 1);
    uintptr_t end = ((uintptr_t)addr + len + SV_PAGE - 1) & ~(uintptr_t)(SV_PAGE - 1);
    size_t pages = (end - start) / SV_PAGE;
    unsigned char *vec = malloc(pages ? pages : 1);
    if (!vec)
        return ENOMEM;
    int rc = mincore((void *)start, end - start, vec) == 0 ? 0 : EFAULT;
    free(vec);
    return rc;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *ibpd, void *addr, size_t length, uint64_t iova,
                                unsigned int access)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    int rc = 0;
    if (!ctx) {
        rc = EINVAL;
        goto fail;
    }
    access &= ~(unsigned int)IBV_ACCESS_OPTIONAL_RANGE;   /* none supported: dropped, as libibverbs does */
    if (access & SV_MR_NEEDS_ODP) {
        rc = EOPNOTSUPP;          /* the device does not advertise on-demand paging */
        goto fail;
    }
    if (access & ~(unsigned int)SV_MR_ACCESS_OK) {
        rc = EINVAL;
        goto fail;
    }
    /* IBA 10.6.3.1 / ib_check_mr_access: remote write or atomic needs local write */
    if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) && !(access & IBV_ACCESS_LOCAL_WRITE)) {
        rc = EINVAL;
        goto fail;
    }
    if (length == 0 || (uintptr_t)addr + length < (uintptr_t)addr ||
        ((uintptr_t)addr & (SV_PAGE - 1)) != (iova & (SV_PAGE - 1))) {
        rc = EINVAL;
        goto fail;
    }
    rc = check_mapped(addr, length);
    if (rc)
        goto fail;
    struct sv_mr *mr = calloc(1, sizeof *mr);
    if (!mr) {
        rc = ENOMEM;
        goto fail;
    }
    mr->ibmr.context = ibpd->context;
    mr->ibmr.pd = ibpd;
    mr->ibmr.addr = addr;
    mr->ibmr.length = length;
    mr->pd = sv_pd(ibpd);
    mr->iova = iova;
    mr->access = access;
    rc = table_insert(&ctx->mrs, mr);
    if (rc) {
        free(mr);
        goto fail;
    }
    mr->ibmr.handle = mr->index;
    atomic_fetch_add(&mr->pd->users, 1);
    return &mr->ibmr;
fail:
    errno = rc;
    return NULL;
}

#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
    return ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, (unsigned int)access);
}

#undef ibv_reg_mr_iova
struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
    return ibv_reg_mr_iova2(pd, addr, length, iova, (unsigned int)access);
}

struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova,
                                 int fd, int access)
{
    errno = EOPNOTSUPP;   /* no device memory behind softverbs */
    return NULL;
}

int ibv_dereg_mr(struct ibv_mr *ibmr)
{
    struct sv_context *ctx = ibmr ? sv_ctx_checked(ibmr->context) : NULL;
    if (!ctx)
        return EINVAL;
    struct sv_mr_table *t = &ctx->mrs;
    pthread_rwlock_wrlock(&t->lock);
    struct sv_mr *mr = lookup(t, ibmr->lkey);
    if (mr && &mr->ibmr != ibmr && sv_container_of(ibmr, struct sv_mr, ibmr)->imported) {
        /* the MR stays its owner's (a uverbs MR would go, leaving the owner a dead handle) */
        pthread_rwlock_unlock(&t->lock);
        free(sv_container_of(ibmr, struct sv_mr, ibmr));
        return 0;
    }
    if (!mr || &mr->ibmr != ibmr || mr->num_mw) {   /* bound windows: IBA 10.6.7.2.6, rxe */
        pthread_rwlock_unlock(&t->lock);
        return EINVAL;
    }
    t->slot[mr->index] = NULL;
    t->count--;
    pthread_rwlock_unlock(&t->lock);
    atomic_fetch_sub(&mr->pd->users, 1);
    free(mr);
    return 0;
}

struct ibv_mr *ibv_import_mr(struct ibv_pd *ibpd, uint32_t mr_handle)
{
    struct sv_context *ctx = ibpd ? sv_ctx_checked(ibpd->context) : NULL;
    struct sv_mr *imp = ctx ? calloc(1, sizeof *imp) : NULL;
    if (!imp) {
        errno = ctx ? ENOMEM : EINVAL;
        return NULL;
    }
    struct sv_mr_table *t = &ctx->mrs;
    pthread_rwlock_rdlock(&t->lock);
    struct sv_mr *mr = mr_handle < t->cap ? t->slot[mr_handle] : NULL;
    if (mr && mr->pd == sv_pd(ibpd)) {
        /* what the kernel's query of the MR tells: keys and length, no address */
        imp->ibmr = (struct ibv_mr){.context = ibpd->context, .pd = ibpd, .length = mr->ibmr.length,
                                    .handle = mr_handle, .lkey = mr->ibmr.lkey, .rkey = mr->ibmr.rkey};
        imp->pd = mr->pd;
        imp->iova = mr->iova;
        imp->access = mr->access;
        imp->index = mr->index;
        imp->imported = true;
    }
    pthread_rwlock_unlock(&t->lock);
    if (!imp->imported) {
        free(imp);
        errno = EINVAL;          /* no MR of this PD has the handle */
        return NULL;
    }
    return &imp->ibmr;
}

void ibv_unimport_mr(struct ibv_mr *ibmr)
{
    if (ibmr && sv_ctx_checked(ibmr->context) && sv_container_of(ibmr, struct sv_mr, ibmr)->imported)
        free(sv_container_of(ibmr, struct sv_mr, ibmr));
}

int ibv_rereg_mr(struct ibv_mr *ibmr, int flags, struct ibv_pd *ibpd, void *addr, size_t length,
                 int access)
{
    struct sv_context *ctx = ibmr ? sv_ctx_checked(ibmr->context) : NULL;
    if (!ctx || flags & ~IBV_REREG_MR_FLAGS_SUPPORTED || !flags)
        return IBV_REREG_MR_ERR_INPUT;
    if ((flags & IBV_REREG_MR_CHANGE_PD) && (!ibpd || !sv_ctx_same(ibpd->context, ibmr->context)))
        return IBV_REREG_MR_ERR_INPUT;
    unsigned int acc = (unsigned int)access & ~(unsigned int)IBV_ACCESS_OPTIONAL_RANGE;
    if ((flags & IBV_REREG_MR_CHANGE_ACCESS) &&
        ((acc & ~(unsigned int)SV_MR_ACCESS_OK) ||
         ((acc & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) && !(acc & IBV_ACCESS_LOCAL_WRITE))))
        return IBV_REREG_MR_ERR_INPUT;
    if ((flags & IBV_REREG_MR_CHANGE_TRANSLATION) && (!length || check_mapped(addr, length)))
        return IBV_REREG_MR_ERR_INPUT;
    struct sv_mr_table *t = &ctx->mrs;
    pthread_rwlock_wrlock(&t->lock);
    struct sv_mr *mr = lookup(t, ibmr->lkey);
    if (!mr || &mr->ibmr != ibmr) {
        pthread_rwlock_unlock(&t->lock);
        return IBV_REREG_MR_ERR_INPUT;
    }
    if (flags & IBV_REREG_MR_CHANGE_TRANSLATION) {
        mr->ibmr.addr = addr;
        mr->ibmr.length = length;
        mr->iova = (uintptr_t)addr;
    }
    if (flags & IBV_REREG_MR_CHANGE_ACCESS)
        mr->access = acc;
    if (flags & IBV_REREG_MR_CHANGE_PD) {
        atomic_fetch_sub(&mr->pd->users, 1);
        mr->pd = sv_pd(ibpd);
        mr->ibmr.pd = ibpd;
        atomic_fetch_add(&mr->pd->users, 1);
    }
    pthread_rwlock_unlock(&t->lock);
    return 0;
}

/* ---- checked accesses ---- */

uint32_t sv_sge_total(const struct ibv_sge *sge, uint32_t nsge)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < nsge; i++)
        total += sge[i].length;
    return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

/* Walks the SGE list over [offset, offset+len), checking each touched SGE against its MR,
 * and copies between the list and buf in the direction asked. */
static enum sv_mem_status sge_copy(struct sv_context *ctx, struct sv_pd *pd, const struct ibv_sge *sge,
                                   uint32_t nsge, uint64_t offset, uint8_t *buf, uint32_t len, bool to_sge)
{
    if (len == 0)
        return SV_MEM_OK;
    enum sv_mem_status st = SV_MEM_OK;
    pthread_rwlock_rdlock(&ctx->mrs.lock);
    uint64_t pos = 0;
    uint32_t done = 0;
    for (uint32_t i = 0; i < nsge && done < len; i++) {
        uint64_t s_begin = pos, s_end = pos + sge[i].length;
        pos = s_end;
        if (s_end <= offset + done)
            continue;
        struct sv_mr *mr = lookup(&ctx->mrs, sge[i].lkey);
        if (!mr || mr->pd != pd) {
            st = SV_MEM_BAD_KEY;
            break;
        }
        if (to_sge && !(mr->access & IBV_ACCESS_LOCAL_WRITE)) {
            st = SV_MEM_NO_RIGHT;
            break;
        }
        uintptr_t mr_lo = (uintptr_t)mr->ibmr.addr, mr_hi = mr_lo + mr->ibmr.length;
        if (sge[i].addr < mr_lo || sge[i].addr + sge[i].length > mr_hi ||
            sge[i].addr + sge[i].length < sge[i].addr) {
            st = SV_MEM_BOUNDS;
            break;
        }
        uint64_t skip = offset + done - s_begin;
        uint64_t n = s_end - s_begin - skip;
        if (n > len - done)
            n = len - done;
        uint8_t *mem = (uint8_t *)(uintptr_t)(sge[i].addr + skip);
        if (to_sge)
            memcpy(mem, buf + done, n);
        else
            memcpy(buf + done, mem, n);
        done += (uint32_t)n;
    }
    if (st == SV_MEM_OK && done < len)
        st = SV_MEM_LENGTH;
    pthread_rwlock_unlock(&ctx->mrs.lock);
    return st;
}

enum sv_mem_status sv_sge_gather(struct sv_context *ctx, struct sv_pd *pd, const struct ibv_sge *sge,
                                 uint32_t nsge, uint64_t offset, void *dst, uint32_t len)
{
    return sge_copy(ctx, pd, sge, nsge, offset, dst, len, false);
}

enum sv_mem_status sv_sge_scatter(struct sv_context *ctx, struct sv_pd *pd, const struct ibv_sge *sge,
                                  uint32_t nsge, uint64_t offset, const void *src, uint32_t len)
{
    return sge_copy(ctx, pd, sge, nsge, offset, (uint8_t *)src, len, true);
}

/* The host address of remote-accessible [va, va+len), or a reason why not. Table lock held. */
static enum sv_mem_status rkey_resolve(const struct sv_qp *qp, uint32_t rkey, uint64_t va, uint64_t len,
                                       unsigned int right, uint8_t **host)
{
    if (sv_key_is_mw(rkey))
        return sv_mw_resolve(qp, rkey, va, len, right, host);
    struct sv_mr *mr = lookup(&qp->ctx->mrs, rkey);
    if (!mr || mr->pd != qp->pd)
        return SV_MEM_BAD_KEY;
    if (!(mr->access & right))
        return SV_MEM_NO_RIGHT;
    if (va < mr->iova || va + len < va || va + len > mr->iova + mr->ibmr.length)
        return SV_MEM_BOUNDS;
    *host = (uint8_t *)mr->ibmr.addr + (va - mr->iova);
    return SV_MEM_OK;
}

enum sv_mem_status sv_rkey_check(const struct sv_qp *qp, uint32_t rkey, uint64_t va, uint64_t len,
                                 unsigned int right)
{
    uint8_t *host;
    pthread_rwlock_rdlock(&qp->ctx->mrs.lock);
    enum sv_mem_status st = rkey_resolve(qp, rkey, va, len, right, &host);
    pthread_rwlock_unlock(&qp->ctx->mrs.lock);
    return st;
}

enum sv_mem_status sv_rkey_write(const struct sv_qp *qp, uint32_t rkey, uint64_t va, const void *src,
                                 uint32_t len)
{
    if (len == 0)
        return SV_MEM_OK;
    uint8_t *host;
    pthread_rwlock_rdlock(&qp->ctx->mrs.lock);
    enum sv_mem_status st = rkey_resolve(qp, rkey, va, len, IBV_ACCESS_REMOTE_WRITE, &host);
    if (st == SV_MEM_OK)
        memcpy(host, src, len);
    pthread_rwlock_unlock(&qp->ctx->mrs.lock);
    return st;
}

enum sv_mem_status sv_rkey_read(const struct sv_qp *qp, uint32_t rkey, uint64_t va, void *dst, uint32_t len)
{
    if (len == 0)
        return SV_MEM_OK;
    uint8_t *host;
    pthread_rwlock_rdlock(&qp->ctx->mrs.lock);
    enum sv_mem_status st = rkey_resolve(qp, rkey, va, len, IBV_ACCESS_REMOTE_READ, &host);
    if (st == SV_MEM_OK)
        memcpy(dst, host, len);
    pthread_rwlock_unlock(&qp->ctx->mrs.lock);
    return st;
}

enum sv_mem_status sv_rkey_atomic(const struct sv_qp *qp, uint32_t rkey, uint64_t va, bool is_cas,
                                  uint64_t swap_add, uint64_t compare, uint64_t *orig)
{
    uint8_t *host;
    pthread_rwlock_rdlock(&qp->ctx->mrs.lock);
    enum sv_mem_status st = rkey_resolve(qp, rkey, va, 8, IBV_ACCESS_REMOTE_ATOMIC, &host);
    if (st == SV_MEM_OK) {
        uint64_t *p = (uint64_t *)(void *)host;   /* 8-byte alignment checked by the responder */
        if (is_cas) {
            uint64_t expected = compare;
            __atomic_compare_exchange_n(p, &expected, swap_add, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            *orig = expected;
        } else {
            *orig = __atomic_fetch_add(p, swap_add, __ATOMIC_SEQ_CST);
        }
    }
    pthread_rwlock_unlock(&qp->ctx->mrs.lock);
    return st;
}
