/*
 * The tracer's clock: CLOCK_MONOTONIC nanoseconds, read from the CPU's time-stamp counter.
 *
 * Every recorded call takes two stamps (start, end). clock_gettime through the vDSO costs about
 * 25 ns on a KVM guest (kvm-clock), rdtsc about 10: on the data path the two stamps were most of
 * what recording a call added. A thread keeps an anchor (a CLOCK_MONOTONIC reading and the TSC
 * read beside it) and converts TSC ticks since then with a rate measured against
 * CLOCK_MONOTONIC over the process's first 50 ms; it re-anchors at least every millisecond, so a
 * stamp is within a fraction of a microsecond of clock_gettime's (NTP slews CLOCK_MONOTONIC by at
 * most 500 ppm), and the times of different threads and of the Java side stay comparable.
 * Until the rate is known, or off x86-64, or with RDMATRACE_CLOCK=gettime, it is clock_gettime.
 */
#ifndef RDMATRACE_TR_CLOCK_H
#define RDMATRACE_TR_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define TR_ENV_CLOCK "RDMATRACE_CLOCK"   /* "gettime": every stamp from clock_gettime */

struct tr_clock_anchor {
    uint64_t tsc;
    int64_t mono;
};
extern __thread struct tr_clock_anchor tr_anchor;
extern uint64_t tr_tsc_mult;   /* ns per tick << 32; 0 = TSC not in use (yet) */
extern uint64_t tr_tsc_span;   /* ticks an anchor is used for (about 1 ms) */

/* Re-anchors this thread (and measures the rate while it is unknown); returns clock_gettime's now. */
int64_t tr_clock_anchor_now(void);

static inline int64_t tr_now(void)
{
#if defined(__x86_64__)
    uint64_t mult = __atomic_load_n(&tr_tsc_mult, __ATOMIC_RELAXED);
    if (mult != 0) {
        uint64_t d = __rdtsc() - tr_anchor.tsc;   /* a TSC behind the anchor wraps to a huge d */
        if (d < __atomic_load_n(&tr_tsc_span, __ATOMIC_RELAXED)) {
            return tr_anchor.mono + (int64_t)((d * mult) >> 32);
        }
    }
#endif
    return tr_clock_anchor_now();
}

#endif
