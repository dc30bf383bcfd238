/* Plain UDP on loopback, measured next to softverbs in the same run: what the kernel alone
 * costs for the same exchange, so the softverbs numbers can be read as ratios to it. Sockets
 * use ephemeral ports on the benchmark's device addresses (port 4791 belongs to the devices). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sv_bench.h"

#define STREAM_BUF (8 << 20)

static int udp_socket(const char *ip, struct sockaddr_in *bound)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        die("socket", errno);
    int size = STREAM_BUF;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    inet_pton(AF_INET, ip, &sa.sin_addr);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
        die("bind", errno);
    socklen_t len = sizeof *bound;
    getsockname(fd, (struct sockaddr *)bound, &len);
    return fd;
}

static void recv_one(int fd, uint8_t *buf, uint32_t size)
{
    for (int64_t deadline = now_ns() + 5000000000LL;;) {
        if (recv(fd, buf, size, MSG_DONTWAIT) >= 0)
            return;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            die("recv", errno);
        if (now_ns() > deadline)
            die("udp ping-pong: no datagram within 5 s", ETIMEDOUT);
    }
}

void udp_pingpong(const char *ip_a, const char *ip_b, uint32_t size, int iters, int warmup, int64_t *rtt)
{
    struct sockaddr_in sa, sb;
    int fa = udp_socket(ip_a, &sa), fb = udp_socket(ip_b, &sb);
    uint8_t *buf = calloc(1, size);
    if (!buf)
        die("calloc", ENOMEM);
    for (int i = -warmup; i < iters; i++) {
        int64_t t0 = now_ns();
        if (sendto(fa, buf, size, 0, (struct sockaddr *)&sb, sizeof sb) != (ssize_t)size)
            die("sendto", errno);
        recv_one(fb, buf, size);
        if (sendto(fb, buf, size, 0, (struct sockaddr *)&sa, sizeof sa) != (ssize_t)size)
            die("sendto", errno);
        recv_one(fa, buf, size);
        if (i >= 0)
            rtt[i] = now_ns() - t0;
    }
    free(buf);
    close(fa);
    close(fb);
}

struct stream {
    int fd;
    struct sockaddr_in to;
    uint32_t pkt;
    atomic_bool stop;
    int64_t first_ns, last_ns;
    uint64_t received;
};

static void *stream_send(void *arg)
{
    struct stream *s = arg;
    uint8_t buf[65536];
    memset(buf, 0x5a, s->pkt);
    while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
        sendto(s->fd, buf, s->pkt, 0, (struct sockaddr *)&s->to, sizeof s->to);   /* overruns are the receiver's loss */
    return NULL;
}

double udp_stream(const char *ip_a, const char *ip_b, uint32_t pkt, int ms)
{
    struct sockaddr_in sa, sb;
    struct stream s = {.pkt = pkt};
    s.fd = udp_socket(ip_a, &sa);
    int fb = udp_socket(ip_b, &sb);
    s.to = sb;
    pthread_t t;
    if (pthread_create(&t, NULL, stream_send, &s))
        die("pthread_create", EAGAIN);
    uint8_t buf[65536];
    int64_t end = now_ns() + (int64_t)ms * 1000000LL;
    struct pollfd p = {.fd = fb, .events = POLLIN};
    while (now_ns() < end) {
        if (poll(&p, 1, 100) != 1)
            continue;
        while (recv(fb, buf, sizeof buf, MSG_DONTWAIT) >= 0) {
            int64_t t_ns = now_ns();
            if (!s.received)
                s.first_ns = t_ns;
            s.last_ns = t_ns;
            s.received++;
        }
    }
    atomic_store(&s.stop, true);
    pthread_join(t, NULL);
    close(s.fd);
    close(fb);
    double secs = (double)(s.last_ns - s.first_ns) / 1e9;
    return s.received > 1 && secs > 0 ? (double)(s.received - 1) / secs : 0;
}
