/*
 * The tracer's clock (verbs-abi's record/tr_clock.h): once calibrated (x86-64), tr_now() reads the TSC and must
 * stay within a few microseconds of clock_gettime(CLOCK_MONOTONIC) and never run backwards on a
 * thread by more than the re-anchoring step; before that, and elsewhere, it is clock_gettime.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "tr_clock.h"

static int failures;

#define CHECK(cond) do { \
        if (!(cond)) { \
            failures++; \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        } \
    } while (0)

#define SLACK_NS 5000   /* conversion error allowed (rate error over one 1 ms anchor is far below) */

static int64_t gettime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

int main(void)
{
    /* calibration: the rate is taken by the first stamp 50 ms or more after the first one. A
     * starved process (nice 19 on a busy machine) can sleep past any fixed window without such a
     * stamp, so stamps go on until the rate is there, for at most 10 s. */
    int64_t start = gettime();
#if defined(__x86_64__)
    while (__atomic_load_n(&tr_tsc_mult, __ATOMIC_ACQUIRE) == 0 && gettime() - start < 10000000000LL) {
        (void)tr_now();
        sleep_us(1000);
    }
    CHECK(tr_tsc_mult != 0);
    CHECK(tr_tsc_span != 0);
#else
    while (gettime() - start < 120000000LL) {
        (void)tr_now();
        sleep_us(1000);
    }
#endif
    int outside = 0, backwards = 0;
    int64_t last = 0;
    for (int i = 0; i < 200000; i++) {
        int64_t g0 = gettime();
        int64_t t = tr_now();
        int64_t g1 = gettime();
        if (t < g0 - SLACK_NS || t > g1 + SLACK_NS) {
            if (outside++ < 5) {
                fprintf(stderr, "tr_now %lld outside [%lld, %lld]\n", (long long)t, (long long)g0, (long long)g1);
            }
        }
        if (t < last - SLACK_NS) {
            backwards++;
        }
        last = t;
        if (i % 20000 == 0) {
            sleep_us(3000);   /* anchors expire: the next stamp re-anchors */
        }
    }
    CHECK(outside == 0);
    CHECK(backwards == 0);
    printf("test_tr_clock: %d outside, %d backwards, %d checks failed\n", outside, backwards, failures);
    return failures == 0 ? 0 : 1;
}
