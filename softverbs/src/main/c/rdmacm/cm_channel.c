/* Event channels. channel->fd is one end of a socket pair that holds exactly one byte while events
 * wait (level-triggered, so poll/select on it behave as on /dev/infiniband/rdma_cm), and
 * rdma_get_cm_event blocks on it unless the application made it O_NONBLOCK. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cm_loc.h"

struct cm_channel *cm_channel_new(void)
{
    struct cm_channel *c = calloc(1, sizeof *c);
    int fds[2];
    if (!c)
        return NULL;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        free(c);
        return NULL;
    }
    c->ch.fd = fds[0];
    c->wr_fd = fds[1];
    pthread_mutex_init(&c->lock, NULL);
    return c;
}

void cm_channel_free(struct cm_channel *c)
{
    struct cm_event *e = c->head;
    while (e) {
        struct cm_event *n = e->next;
        free(e);
        e = n;
    }
    close(c->ch.fd);
    close(c->wr_fd);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static void mark_ready(struct cm_channel *c, bool ready)   /* c->lock held */
{
    char b = 1;
    if (ready) {
        if (send(c->wr_fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) != 1) { /* already readable */ }
    } else {
        while (recv(c->ch.fd, &b, 1, MSG_DONTWAIT) == 1) { }
    }
}

void cm_channel_push(struct cm_channel *c, struct cm_event *e)
{
    pthread_mutex_lock(&c->lock);
    bool was_empty = !c->head;
    e->next = NULL;
    if (c->tail)
        c->tail->next = e;
    else
        c->head = e;
    c->tail = e;
    if (was_empty)
        mark_ready(c, true);
    pthread_mutex_unlock(&c->lock);
}

int cm_channel_drop_id(struct cm_channel *c, const struct cm_id *id)
{
    int n = 0;
    pthread_mutex_lock(&c->lock);
    struct cm_event **pp = &c->head;
    c->tail = NULL;
    while (*pp) {
        struct cm_event *e = *pp;
        if (e->id == id || (e->ev.listen_id && cm_id_of(e->ev.listen_id) == id)) {
            *pp = e->next;
            free(e);
            n++;
        } else {
            c->tail = e;
            pp = &e->next;
        }
    }
    if (n && !c->head)
        mark_ready(c, false);
    pthread_mutex_unlock(&c->lock);
    return n;
}

struct cm_event *cm_event_new(struct cm_id *id, enum rdma_cm_event_type type, int status,
                              const void *priv, size_t priv_len)
{
    struct cm_event *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->id = id;
    e->ev.id = &id->id;
    e->ev.event = type;
    e->ev.status = status;
    if (priv && priv_len) {
        if (priv_len > sizeof e->priv)
            priv_len = sizeof e->priv;
        memcpy(e->priv, priv, priv_len);
        e->ev.param.conn.private_data = e->priv;
        e->ev.param.conn.private_data_len = (uint8_t)priv_len;
    }
    return e;
}

struct rdma_event_channel *rdma_create_event_channel(void)
{
    int err = cm_init();
    if (err) {
        errno = err;
        return NULL;
    }
    struct cm_channel *c = cm_channel_new();
    if (!c) {
        errno = ENOMEM;
        return NULL;
    }
    return &c->ch;
}

void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
    if (channel)
        cm_channel_free(cm_channel_of(channel));
}

static struct cm_event *pop(struct cm_channel *c)
{
    pthread_mutex_lock(&c->lock);
    struct cm_event *e = c->head;
    if (e) {
        c->head = e->next;
        if (!c->head) {
            c->tail = NULL;
            mark_ready(c, false);
        }
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
    if (!channel || !event)
        return cm_err(EINVAL);
    struct cm_channel *c = cm_channel_of(channel);
    int fd = channel->fd;
    for (;;) {
        struct cm_event *e = pop(c);
        if (e) {
            pthread_mutex_lock(&g_cm.lock);
            struct cm_id *id = e->id;
            id->events_reported++;
            id->delivered = true;
            if (e->conn_response && id->id.qp) {
                /* as librdmacm: with a QP on the id, the REP is processed here (RTR, RTS, RTU) */
                int err = cm_qp_to_rts(id, RDMA_MAX_RESP_RES, RDMA_MAX_INIT_DEPTH);
                if (!err)
                    err = cm_conn_establish(id);
                e->ev.event = err ? RDMA_CM_EVENT_CONNECT_ERROR : RDMA_CM_EVENT_ESTABLISHED;
                e->ev.status = err ? -err : 0;
                if (err)
                    id->connect_error = true;
            } else if (e->ev.event == RDMA_CM_EVENT_REJECTED) {
                cm_qp_to_err(id);
            }
            pthread_mutex_unlock(&g_cm.lock);
            *event = &e->ev;
            return 0;
        }
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0)
            return cm_err(EBADF);
        if (fl & O_NONBLOCK)
            return cm_err(EAGAIN);
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, -1) < 0 && errno != EINTR)
            return -1;
        if (p.revents & (POLLHUP | POLLNVAL | POLLERR)) {
            /* the channel was destroyed while this thread waited: like a read() on a closed
             * rdma_cm fd, the call never returns (programs exit with such a thread parked) */
            for (;;)
                pause();
        }
    }
}

int rdma_ack_cm_event(struct rdma_cm_event *event)
{
    if (!event)
        return cm_err(EINVAL);
    struct cm_event *e = (struct cm_event *)event;
    pthread_mutex_lock(&g_cm.lock);
    e->id->events_acked++;
    pthread_cond_broadcast(&g_cm.cond);
    pthread_mutex_unlock(&g_cm.lock);
    free(e);
    return 0;
}

const char *rdma_event_str(enum rdma_cm_event_type event)
{
    static const char *const names[] = {
        [RDMA_CM_EVENT_ADDR_RESOLVED] = "RDMA_CM_EVENT_ADDR_RESOLVED",
        [RDMA_CM_EVENT_ADDR_ERROR] = "RDMA_CM_EVENT_ADDR_ERROR",
        [RDMA_CM_EVENT_ROUTE_RESOLVED] = "RDMA_CM_EVENT_ROUTE_RESOLVED",
        [RDMA_CM_EVENT_ROUTE_ERROR] = "RDMA_CM_EVENT_ROUTE_ERROR",
        [RDMA_CM_EVENT_CONNECT_REQUEST] = "RDMA_CM_EVENT_CONNECT_REQUEST",
        [RDMA_CM_EVENT_CONNECT_RESPONSE] = "RDMA_CM_EVENT_CONNECT_RESPONSE",
        [RDMA_CM_EVENT_CONNECT_ERROR] = "RDMA_CM_EVENT_CONNECT_ERROR",
        [RDMA_CM_EVENT_UNREACHABLE] = "RDMA_CM_EVENT_UNREACHABLE",
        [RDMA_CM_EVENT_REJECTED] = "RDMA_CM_EVENT_REJECTED",
        [RDMA_CM_EVENT_ESTABLISHED] = "RDMA_CM_EVENT_ESTABLISHED",
        [RDMA_CM_EVENT_DISCONNECTED] = "RDMA_CM_EVENT_DISCONNECTED",
        [RDMA_CM_EVENT_DEVICE_REMOVAL] = "RDMA_CM_EVENT_DEVICE_REMOVAL",
        [RDMA_CM_EVENT_MULTICAST_JOIN] = "RDMA_CM_EVENT_MULTICAST_JOIN",
        [RDMA_CM_EVENT_MULTICAST_ERROR] = "RDMA_CM_EVENT_MULTICAST_ERROR",
        [RDMA_CM_EVENT_ADDR_CHANGE] = "RDMA_CM_EVENT_ADDR_CHANGE",
        [RDMA_CM_EVENT_TIMEWAIT_EXIT] = "RDMA_CM_EVENT_TIMEWAIT_EXIT",
    };
    if ((unsigned)event < sizeof names / sizeof names[0] && names[event])
        return names[event];
    return "UNKNOWN EVENT";
}
