/* The tracer's clock (tr_clock.h): anchors and the TSC rate. */
#include <stdlib.h>
#include <string.h>

#include "tr_clock.h"

__thread struct tr_clock_anchor tr_anchor;
uint64_t tr_tsc_mult;
uint64_t tr_tsc_span;

#define CALIBRATE_NS 50000000LL   /* the rate is measured over at least this long */
#define ANCHOR_NS 1000000LL       /* an anchor serves this long */
#define PAIR_TICKS 2000ULL        /* a clock_gettime taking longer (preempted, < 1 us at 2 GHz+) is no anchor */

static uint64_t cal_tsc;          /* the process's first anchor: the rate's baseline */
static int64_t cal_mono;
static int clock_off = -1;        /* RDMATRACE_CLOCK=gettime, or not x86-64 */

static int64_t gettime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t tr_clock_anchor_now(void)
{
#if defined(__x86_64__)
    if (__atomic_load_n(&clock_off, __ATOMIC_RELAXED) < 0) {
        const char *c = getenv(TR_ENV_CLOCK);
        __atomic_store_n(&clock_off, c != NULL && strcmp(c, "gettime") == 0, __ATOMIC_RELAXED);
    }
    if (clock_off) {
        return gettime();
    }
    /* a CLOCK_MONOTONIC reading and the TSC around it; a pair split by preemption is no anchor */
    uint64_t before = 0, after = PAIR_TICKS + 1;
    int64_t mono = 0;
    for (int i = 0; i < 3 && after - before > PAIR_TICKS; i++) {
        before = __rdtsc();
        mono = gettime();
        after = __rdtsc();
    }
    if (after - before > PAIR_TICKS) {
        tr_anchor.tsc = 0;   /* the next stamp anchors again */
        return mono;
    }
    uint64_t tsc = before + (after - before) / 2;
    if (__atomic_load_n(&tr_tsc_mult, __ATOMIC_ACQUIRE) == 0) {
        uint64_t zero = 0;
        if (__atomic_load_n(&cal_tsc, __ATOMIC_ACQUIRE) == 0) {
            if (__atomic_compare_exchange_n(&cal_tsc, &zero, tsc, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                __atomic_store_n(&cal_mono, mono, __ATOMIC_RELEASE);
            }
            return mono;
        }
        int64_t base_mono = __atomic_load_n(&cal_mono, __ATOMIC_ACQUIRE);
        uint64_t base_tsc = __atomic_load_n(&cal_tsc, __ATOMIC_ACQUIRE);
        if (base_mono == 0 || mono - base_mono < CALIBRATE_NS || tsc <= base_tsc) {
            return mono;   /* not long enough yet: clock_gettime meanwhile */
        }
        uint64_t ticks = tsc - base_tsc;
        uint64_t mult = (uint64_t)(((unsigned __int128)(mono - base_mono) << 32) / ticks);
        uint64_t span = (uint64_t)(((unsigned __int128)ticks * ANCHOR_NS) / (uint64_t)(mono - base_mono));
        if (mult == 0 || span == 0) {
            __atomic_store_n(&clock_off, 1, __ATOMIC_RELAXED);   /* a TSC far faster than 4 GHz: not worth it */
            return mono;
        }
        __atomic_store_n(&tr_tsc_span, span, __ATOMIC_RELAXED);
        __atomic_store_n(&tr_tsc_mult, mult, __ATOMIC_RELEASE);
    }
    tr_anchor.tsc = tsc;
    tr_anchor.mono = mono;
    return mono;
#else
    return gettime();
#endif
}
