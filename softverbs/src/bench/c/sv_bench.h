/* Shared by the softverbs benchmark (sv_bench.c) and its plain-UDP baselines (sv_bench_udp.c). */
#ifndef SV_BENCH_H
#define SV_BENCH_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define BENCH_MTU      1024   /* path MTU of the softverbs QPs */
#define BENCH_ROCE_HDR 16     /* BTH + ICRC around a SEND payload: the UDP payload is MTU + 16 */

int64_t now_ns(void);
void die(const char *what, int err);
int cmp_i64(const void *a, const void *b);
double pct_us(const int64_t *sorted, size_t n, double p);

/* Round trip of `size`-byte datagrams between two UDP sockets on ip_a and ip_b, one thread
 * sending and busy-polling both ends as the softverbs round trip does; fills rtt[iters]. */
void udp_pingpong(const char *ip_a, const char *ip_b, uint32_t size, int iters, int warmup, int64_t *rtt);
/* A stream of `pkt`-byte datagrams from ip_a to ip_b for `ms` milliseconds, a sender and a
 * receiver thread; returns the datagrams received per second. */
double udp_stream(const char *ip_a, const char *ip_b, uint32_t pkt, int ms);

#endif
