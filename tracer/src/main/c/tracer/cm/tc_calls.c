/* Event channels, ids, endpoints, address and route resolution, listening, options, rdma_getaddrinfo. */
#include <string.h>

#include "tc_loc.h"

#define P(x) ((int64_t)(uintptr_t)(x))
/* Starts a record of function f about id; the wrapper fills the rest and calls tc_record_call. */
#define CALL(f, idp) struct tc_call c = {.func = CMF_##f, .id = (idp), .t0 = tc_now()}
#define DONE_INT(ret) do { c.t1 = tc_now(); c.ret = (ret); c.err = tc_err((ret), errno); } while (0)

struct rdma_event_channel *(rdma_create_event_channel)(void)
{
    CALL(rdma_create_event_channel, NULL);
    struct rdma_event_channel *ch = real_rdma_create_event_channel();
    int err = ch == NULL ? errno : 0;
    c.t1 = tc_now();
    c.ret = ch != NULL ? 0 : -1;
    c.err = err;
    c.a[0] = P(ch);
    c.a[1] = ch != NULL ? ch->fd : -1;
    tc_record_call(&c);
    if (ch == NULL) {
        errno = err;
    }
    return ch;
}

void (rdma_destroy_event_channel)(struct rdma_event_channel *channel)
{
    CALL(rdma_destroy_event_channel, NULL);
    c.a[0] = P(channel);
    real_rdma_destroy_event_channel(channel);
    c.t1 = tc_now();
    tc_record_call(&c);
}

int (rdma_create_id)(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
                     enum rdma_port_space ps)
{
    CALL(rdma_create_id, NULL);
    int ret = real_rdma_create_id(channel, id, context, ps);
    int saved = errno;
    DONE_INT(ret);
    c.id = ret == 0 && id != NULL ? *id : NULL;
    c.a[0] = P(channel);
    c.a[1] = ps;
    c.a[2] = ret == 0 && id != NULL && *id != NULL ? (*id)->qp_type : 0;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_create_ep)(struct rdma_cm_id **id, struct rdma_addrinfo *res, struct ibv_pd *pd,
                     struct ibv_qp_init_attr *qp_init_attr)
{
    CALL(rdma_create_ep, NULL);
    int ret = real_rdma_create_ep(id, res, pd, qp_init_attr);
    int saved = errno;
    DONE_INT(ret);
    struct rdma_cm_id *made = ret == 0 && id != NULL ? *id : NULL;
    c.id = made;
    c.a[0] = res != NULL ? res->ai_port_space : 0;
    c.a[1] = res != NULL ? res->ai_qp_type : 0;
    c.a[2] = P(pd);
    c.a[3] = qp_init_attr != NULL;
    c.a[4] = made != NULL && made->qp != NULL ? (int64_t)made->qp->qp_num : -1;
    if (made != NULL) {
        tc_use_id_addrs(&c, made);
    } else if (res != NULL) {
        c.src = res->ai_src_addr;
        c.dst = res->ai_dst_addr;
    }
    tc_record_call(&c);
    errno = saved;
    return ret;
}

void (rdma_destroy_ep)(struct rdma_cm_id *id)
{
    CALL(rdma_destroy_ep, id);
    real_rdma_destroy_ep(id);
    c.t1 = tc_now();
    tc_record_call(&c);
}

int (rdma_destroy_id)(struct rdma_cm_id *id)
{
    CALL(rdma_destroy_id, id);
    int ret = real_rdma_destroy_id(id);
    int saved = errno;
    DONE_INT(ret);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_bind_addr)(struct rdma_cm_id *id, struct sockaddr *addr)
{
    CALL(rdma_bind_addr, id);
    int ret = real_rdma_bind_addr(id, addr);
    int saved = errno;
    DONE_INT(ret);
    c.src = addr;
    c.dst_text = "";
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_resolve_addr)(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr,
                        int timeout_ms)
{
    CALL(rdma_resolve_addr, id);
    int ret = real_rdma_resolve_addr(id, src_addr, dst_addr, timeout_ms);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = timeout_ms;
    c.src = src_addr;
    if (src_addr == NULL) {
        c.src_text = "";
    }
    c.dst = dst_addr;
    if (dst_addr == NULL) {
        c.dst_text = "";
    }
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_resolve_route)(struct rdma_cm_id *id, int timeout_ms)
{
    CALL(rdma_resolve_route, id);
    int ret = real_rdma_resolve_route(id, timeout_ms);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = timeout_ms;
    tc_use_id_addrs(&c, id);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_listen)(struct rdma_cm_id *id, int backlog)
{
    CALL(rdma_listen, id);
    int ret = real_rdma_listen(id, backlog);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = backlog;
    tc_use_id_addrs(&c, id);
    c.dst = NULL;
    c.dst_text = "";
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_get_request)(struct rdma_cm_id *listen, struct rdma_cm_id **id)
{
    CALL(rdma_get_request, NULL);
    int ret = real_rdma_get_request(listen, id);
    int saved = errno;
    DONE_INT(ret);
    struct rdma_cm_id *made = ret == 0 && id != NULL ? *id : NULL;
    c.id = made;
    c.a[0] = P(listen);
    tc_use_id_addrs(&c, made);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_set_option)(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)
{
    CALL(rdma_set_option, id);
    int ret = real_rdma_set_option(id, level, optname, optval, optlen);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = level;
    c.a[1] = optname;
    c.a[2] = (int64_t)optlen;
    uint32_t first = 0;
    if (optval != NULL) {
        memcpy(&first, optval, optlen < sizeof first ? optlen : sizeof first);
    }
    c.a[3] = first;
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_migrate_id)(struct rdma_cm_id *id, struct rdma_event_channel *channel)
{
    CALL(rdma_migrate_id, id);
    int ret = real_rdma_migrate_id(id, channel);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = P(channel);
    tc_record_call(&c);
    errno = saved;
    return ret;
}

int (rdma_getaddrinfo)(const char *node, const char *service, const struct rdma_addrinfo *hints,
                       struct rdma_addrinfo **res)
{
    CALL(rdma_getaddrinfo, NULL);
    int ret = real_rdma_getaddrinfo(node, service, hints, res);
    int saved = errno;
    DONE_INT(ret);
    c.a[0] = hints != NULL ? hints->ai_flags : 0;
    c.a[1] = hints != NULL ? hints->ai_port_space : 0;
    c.a[2] = ret == 0 && res != NULL && *res != NULL ? (*res)->ai_port_space : 0;
    c.a[3] = ret == 0 && res != NULL && *res != NULL ? (*res)->ai_qp_type : 0;
    c.src_text = node != NULL ? node : "";
    c.dst_text = service != NULL ? service : "";
    tc_record_call(&c);
    errno = saved;
    return ret;
}
