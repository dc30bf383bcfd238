/* rdma_getaddrinfo: name and service resolution through getaddrinfo (IPv4 first, then IPv6), with
 * the RDMA fields filled as librdmacm does: port space from the hints (RDMA_PS_TCP by default), QP
 * type to match, RAI_PASSIVE putting the address into ai_src_addr, the hints' source address when
 * the answer has none; neither node nor service returns the hints' addresses. No route data (no IB
 * ACM). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "cm_loc.h"

static int dup_addr(const struct sockaddr *a, socklen_t len, struct sockaddr **to, socklen_t *to_len)
{
    if (!a || !len)
        return 0;
    if (!(*to = malloc(len)))
        return ENOMEM;
    memcpy(*to, a, len);
    *to_len = len;
    return 0;
}

/* Neither node nor service: librdmacm returns the hints' own addresses and types (libfabric's verbs
 * provider calls it so for an endpoint's source and destination). */
static int from_hints(const struct rdma_addrinfo *hints, struct rdma_addrinfo **res)
{
    struct rdma_addrinfo *r = calloc(1, sizeof *r);
    if (!r)
        return cm_err(ENOMEM);
    r->ai_flags = hints->ai_flags;
    r->ai_family = hints->ai_family;
    r->ai_qp_type = hints->ai_qp_type;
    r->ai_port_space = hints->ai_port_space;
    if (dup_addr(hints->ai_dst_addr, hints->ai_dst_len, &r->ai_dst_addr, &r->ai_dst_len) ||
        dup_addr(hints->ai_src_addr, hints->ai_src_len, &r->ai_src_addr, &r->ai_src_len)) {
        rdma_freeaddrinfo(r);
        return cm_err(ENOMEM);
    }
    *res = r;
    return 0;
}

int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints,
                     struct rdma_addrinfo **res)
{
    if (!res || (!node && !service && !hints))
        return cm_err(EINVAL);
    int family = hints ? hints->ai_family : AF_UNSPEC;
    if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6)
        return cm_err(EAFNOSUPPORT);   /* no AF_IB: there is no IB ACM/SA here */
    if (!node && !service)
        return from_hints(hints, res);
    int flags = hints ? hints->ai_flags : 0;
    struct addrinfo ah = {.ai_family = family == AF_INET6 ? AF_INET6 : AF_INET, .ai_socktype = SOCK_STREAM};
    if (flags & RAI_NUMERICHOST)
        ah.ai_flags |= AI_NUMERICHOST;
    if (flags & RAI_PASSIVE)
        ah.ai_flags |= AI_PASSIVE;
    struct addrinfo *ai = NULL;
    int gai = getaddrinfo(node, service, &ah, &ai);
    if (gai != 0 && family == AF_UNSPEC) {
        /* IPv4 first (what softverbs connects over), then IPv6: an interface's IPv6 addresses
         * resolve and bind, as libfabric's enumeration of them expects */
        ah.ai_family = AF_INET6;
        gai = getaddrinfo(node, service, &ah, &ai);
    }
    if (gai != 0 || !ai) {
        /* librdmacm returns getaddrinfo's EAI_* code as its result */
        if (gai == EAI_SYSTEM)
            return -1;
        errno = ENOENT;
        return gai ? gai : -1;
    }
    struct rdma_addrinfo *r = calloc(1, sizeof *r);
    if (!r) {
        freeaddrinfo(ai);
        return cm_err(ENOMEM);
    }
    r->ai_flags = flags;
    r->ai_family = ai->ai_family;
    r->ai_port_space = hints && hints->ai_port_space ? hints->ai_port_space : RDMA_PS_TCP;
    r->ai_qp_type = hints && hints->ai_qp_type ? hints->ai_qp_type
                  : r->ai_port_space == RDMA_PS_UDP ? IBV_QPT_UD : IBV_QPT_RC;
    int err = flags & RAI_PASSIVE ? dup_addr(ai->ai_addr, ai->ai_addrlen, &r->ai_src_addr, &r->ai_src_len)
                                  : dup_addr(ai->ai_addr, ai->ai_addrlen, &r->ai_dst_addr, &r->ai_dst_len);
    if (!err && ai->ai_canonname) {
        char **name = flags & RAI_PASSIVE ? &r->ai_src_canonname : &r->ai_dst_canonname;
        err = (*name = strdup(ai->ai_canonname)) ? 0 : ENOMEM;
    }
    freeaddrinfo(ai);
    /* as librdmacm: the hints' source address when the answer has none */
    if (!err && !r->ai_src_len && hints)
        err = dup_addr(hints->ai_src_addr, hints->ai_src_len, &r->ai_src_addr, &r->ai_src_len);
    if (err) {
        rdma_freeaddrinfo(r);
        return cm_err(err);
    }
    *res = r;
    return 0;
}

void rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
    while (res) {
        struct rdma_addrinfo *n = res->ai_next;
        free(res->ai_src_addr);
        free(res->ai_dst_addr);
        free(res->ai_src_canonname);
        free(res->ai_dst_canonname);
        free(res->ai_route);
        free(res->ai_connect);
        free(res);
        res = n;
    }
}
