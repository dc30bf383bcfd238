/* rdma_getaddrinfo: name and service resolution through getaddrinfo (IPv4), with the RDMA
 * fields filled as librdmacm does: port space from the hints (RDMA_PS_TCP by default), QP type
 * to match, RAI_PASSIVE putting the address into ai_src_addr. No route data (no IB ACM). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include "cm_loc.h"

static struct sockaddr *dup_sin(const struct sockaddr_in *sin)
{
    struct sockaddr_in *s = malloc(sizeof *s);
    if (s)
        *s = *sin;
    return (struct sockaddr *)s;
}

int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints,
                     struct rdma_addrinfo **res)
{
    if (!res || (!node && !service))
        return cm_err(EINVAL);
    if (hints && hints->ai_family && hints->ai_family != AF_INET)
        return cm_err(EAFNOSUPPORT);   /* IPv4 only (softverbs carries RoCE v2 over IPv4) */
    int flags = hints ? hints->ai_flags : 0;
    struct addrinfo ah = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM};
    if (flags & RAI_NUMERICHOST)
        ah.ai_flags |= AI_NUMERICHOST;
    if (flags & RAI_PASSIVE)
        ah.ai_flags |= AI_PASSIVE;
    struct addrinfo *ai = NULL;
    int gai = getaddrinfo(node, service, &ah, &ai);
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
    r->ai_family = AF_INET;
    r->ai_port_space = hints && hints->ai_port_space ? hints->ai_port_space : RDMA_PS_TCP;
    r->ai_qp_type = hints && hints->ai_qp_type ? hints->ai_qp_type
                  : r->ai_port_space == RDMA_PS_UDP ? IBV_QPT_UD : IBV_QPT_RC;
    struct sockaddr *addr = dup_sin((const struct sockaddr_in *)ai->ai_addr);
    if (ai->ai_canonname)
        (flags & RAI_PASSIVE ? (void)(r->ai_src_canonname = strdup(ai->ai_canonname))
                             : (void)(r->ai_dst_canonname = strdup(ai->ai_canonname)));
    freeaddrinfo(ai);
    if (!addr) {
        free(r);
        return cm_err(ENOMEM);
    }
    if (flags & RAI_PASSIVE) {
        r->ai_src_addr = addr;
        r->ai_src_len = sizeof(struct sockaddr_in);
    } else {
        r->ai_dst_addr = addr;
        r->ai_dst_len = sizeof(struct sockaddr_in);
        if (hints && hints->ai_src_addr && hints->ai_src_addr->sa_family == AF_INET) {
            r->ai_src_addr = dup_sin((const struct sockaddr_in *)hints->ai_src_addr);
            r->ai_src_len = r->ai_src_addr ? sizeof(struct sockaddr_in) : 0;
        }
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
