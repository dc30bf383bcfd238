/* Writing the CM's records into the tracing libibverbs' ring: addresses as text, private data bounded. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "tc_loc.h"
#include "tr_cm_event.h"

enum {
    TC_CALL_SLOTS = TR_PAYLOAD + CMC_NSLOTS + 2 * TX_NSLOTS + CM_PDATA_NSLOTS,
    TC_EVENT_SLOTS = TR_PAYLOAD + CME_NSLOTS + 2 * TX_NSLOTS + CM_PDATA_NSLOTS,
};

/* 64 bytes of NUL-padded text into a TEXT block. */
static void put_text(int64_t *slots, const char *text)
{
    char *dst = (char *)slots;
    memset(dst, 0, TX_NSLOTS * 8);
    if (text != NULL) {
        size_t n = strnlen(text, TX_NSLOTS * 8 - 1);
        memcpy(dst, text, n);
    }
}

static void head(int64_t *r, enum tr_kind kind, uint32_t nslots, int64_t t0, const void *handle, int64_t ret,
                 int err, int64_t dur)
{
    r[RH_KIND_LEN] = (int64_t)((uint64_t)kind | ((uint64_t)nslots << 32));
    r[RH_MONO_NS] = t0;
    r[RH_TID] = 0;
    r[RH_HANDLE] = (int64_t)(uintptr_t)handle;
    r[RH_NSLOTS + STATUS_RET] = ret;
    r[RH_NSLOTS + STATUS_ERRNO] = err;
    r[RH_NSLOTS + STATUS_DURATION_NS] = dur;
    r[RH_NSLOTS + STATUS_EXTRA] = 0;
}

void tc_use_id_addrs(struct tc_call *c, const struct rdma_cm_id *id)
{
    if (id != NULL && c->src == NULL && c->src_text == NULL) {
        c->src = &id->route.addr.src_addr;
    }
    if (id != NULL && c->dst == NULL && c->dst_text == NULL) {
        c->dst = &id->route.addr.dst_addr;
    }
}

void tc_record_call(const struct tc_call *c)
{
    int64_t *r = rdmatrace_ring_reserve(TC_CALL_SLOTS);
    if (r == NULL) {
        return;
    }
    head(r, TR_RDMA_CALL, TC_CALL_SLOTS, c->t0, c->id, c->ret, c->err, c->t1 - c->t0);
    int64_t *p = r + TR_PAYLOAD;
    p[CMC_FUNC] = c->func;
    p[CMC_ID] = (int64_t)(uintptr_t)c->id;
    for (int i = 0; i < 8; i++) {
        p[CMC_A0 + i] = c->a[i];
    }
    p[CMC_PDATA_LEN] = c->pdata != NULL ? c->plen : 0;
    char text[TX_NSLOTS * 8];
    if (c->src_text != NULL) {
        put_text(p + CMC_NSLOTS, c->src_text);
    } else {
        tr_cm_addr_text(c->src, text, sizeof text);
        put_text(p + CMC_NSLOTS, text);
    }
    if (c->dst_text != NULL) {
        put_text(p + CMC_NSLOTS + TX_NSLOTS, c->dst_text);
    } else {
        tr_cm_addr_text(c->dst, text, sizeof text);
        put_text(p + CMC_NSLOTS + TX_NSLOTS, text);
    }
    tr_cm_pdata_block(p + CMC_NSLOTS + 2 * TX_NSLOTS, c->pdata, c->plen);
    rdmatrace_ring_commit(r, TC_CALL_SLOTS);
}

void tc_record_event(const struct rdma_cm_event *ev, int64_t t0, int64_t t1)
{
    int64_t *r = rdmatrace_ring_reserve(TC_EVENT_SLOTS);
    if (r == NULL || ev == NULL) {
        return;
    }
    const struct rdma_cm_id *id = ev->id;
    /* stamped when delivered: rdma_get_cm_event may have waited seconds for it (t1 - t0) */
    head(r, TR_RDMA_CM_EVENT, TC_EVENT_SLOTS, t1, id, 0, 0, t1 - t0);
    int64_t *p = r + TR_PAYLOAD;
    unsigned plen;
    const void *pdata = tr_cm_event_block(p, ev, &plen);
    char text[TX_NSLOTS * 8];
    tr_cm_addr_text(id != NULL ? &id->route.addr.src_addr : NULL, text, sizeof text);
    put_text(p + CME_NSLOTS, text);
    tr_cm_addr_text(id != NULL ? &id->route.addr.dst_addr : NULL, text, sizeof text);
    put_text(p + CME_NSLOTS + TX_NSLOTS, text);
    tr_cm_pdata_block(p + CME_NSLOTS + 2 * TX_NSLOTS, pdata, plen);
    rdmatrace_ring_commit(r, TC_EVENT_SLOTS);
}
