/* The parts of the librdmacm ABI softverbs does not model. Every symbol exists (programs load),
 * and each call fails cleanly: rsockets answer ENOSYS (a program can fall back to sockets),
 * multicast and ECE EOPNOTSUPP (softverbs has no multicast, no ECE). */
#include <errno.h>
#include <poll.h>
#include <rdma/rsocket.h>
#include <stdarg.h>
#include <sys/select.h>

#include "cm_loc.h"

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr, void *context)
{
    return cm_err(EOPNOTSUPP);
}

int rdma_join_multicast_ex(struct rdma_cm_id *id, struct rdma_cm_join_mc_attr_ex *mc_join_attr, void *context)
{
    return cm_err(EOPNOTSUPP);
}

int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
    return cm_err(EOPNOTSUPP);
}

int rdma_set_local_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
    return cm_err(EOPNOTSUPP);
}

int rdma_get_remote_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
    return cm_err(EOPNOTSUPP);
}

#define CM_NOSYS { errno = ENOSYS; return -1; }
int rsocket(int domain, int type, int protocol) CM_NOSYS
int rbind(int socket, const struct sockaddr *addr, socklen_t addrlen) CM_NOSYS
int rlisten(int socket, int backlog) CM_NOSYS
int raccept(int socket, struct sockaddr *addr, socklen_t *addrlen) CM_NOSYS
int rconnect(int socket, const struct sockaddr *addr, socklen_t addrlen) CM_NOSYS
int rshutdown(int socket, int how) CM_NOSYS
int rclose(int socket) CM_NOSYS
ssize_t rrecv(int socket, void *buf, size_t len, int flags) CM_NOSYS
ssize_t rrecvfrom(int socket, void *buf, size_t len, int flags, struct sockaddr *src_addr, socklen_t *addrlen) CM_NOSYS
ssize_t rrecvmsg(int socket, struct msghdr *msg, int flags) CM_NOSYS
ssize_t rsend(int socket, const void *buf, size_t len, int flags) CM_NOSYS
ssize_t rsendto(int socket, const void *buf, size_t len, int flags, const struct sockaddr *dest_addr,
                socklen_t addrlen) CM_NOSYS
ssize_t rsendmsg(int socket, const struct msghdr *msg, int flags) CM_NOSYS
ssize_t rread(int socket, void *buf, size_t count) CM_NOSYS
ssize_t rreadv(int socket, const struct iovec *iov, int iovcnt) CM_NOSYS
ssize_t rwrite(int socket, const void *buf, size_t count) CM_NOSYS
ssize_t rwritev(int socket, const struct iovec *iov, int iovcnt) CM_NOSYS
int rpoll(struct pollfd *fds, nfds_t nfds, int timeout) CM_NOSYS
int rselect(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, struct timeval *timeout) CM_NOSYS
int rgetpeername(int socket, struct sockaddr *addr, socklen_t *addrlen) CM_NOSYS
int rgetsockname(int socket, struct sockaddr *addr, socklen_t *addrlen) CM_NOSYS
int rsetsockopt(int socket, int level, int optname, const void *optval, socklen_t optlen) CM_NOSYS
int rgetsockopt(int socket, int level, int optname, void *optval, socklen_t *optlen) CM_NOSYS
int rfcntl(int socket, int cmd, ...) CM_NOSYS
off_t riomap(int socket, void *buf, size_t len, int prot, int flags, off_t offset) CM_NOSYS
int riounmap(int socket, void *buf, size_t len) CM_NOSYS
size_t riowrite(int socket, const void *buf, size_t count, off_t offset, int flags)
{
    errno = ENOSYS;
    return 0;
}
