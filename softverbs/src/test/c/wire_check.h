/* Minimal checks for the wire codec tests: each failed check prints file:line and the values,
 * the test keeps going, and main returns wire_check_report() (1 when anything failed). */
#ifndef WIRE_CHECK_H
#define WIRE_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int wire_check_failures;
static int wire_check_count;

#define CHECK(cond) do { \
        wire_check_count++; \
        if (!(cond)) { \
            wire_check_failures++; \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        } \
    } while (0)

#define CHECK_EQ(actual, expected) do { \
        uint64_t a_ = (uint64_t)(actual), e_ = (uint64_t)(expected); \
        wire_check_count++; \
        if (a_ != e_) { \
            wire_check_failures++; \
            fprintf(stderr, "%s:%d: %s == 0x%" PRIx64 ", expected %s == 0x%" PRIx64 "\n", \
                    __FILE__, __LINE__, #actual, a_, #expected, e_); \
        } \
    } while (0)

#define CHECK_STR(actual, expected) do { \
        const char *a_ = (actual), *e_ = (expected); \
        wire_check_count++; \
        if (a_ == NULL || strcmp(a_, e_) != 0) { \
            wire_check_failures++; \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
                    __FILE__, __LINE__, #actual, a_ ? a_ : "(null)", e_); \
        } \
    } while (0)

#define CHECK_MEM(actual, expected, len) do { \
        wire_check_count++; \
        if (memcmp((actual), (expected), (len)) != 0) { \
            wire_check_failures++; \
            fprintf(stderr, "%s:%d: %s differs from %s\n", __FILE__, __LINE__, #actual, #expected); \
            wire_check_dump("actual  ", (const uint8_t *)(actual), (len)); \
            wire_check_dump("expected", (const uint8_t *)(expected), (len)); \
        } \
    } while (0)

static inline void wire_check_dump(const char *label, const uint8_t *p, size_t len)
{
    fprintf(stderr, "  %s:", label);
    for (size_t i = 0; i < len; i++)
        fprintf(stderr, "%s%02x", (i % 16 == 0) ? "\n    " : " ", p[i]);
    fprintf(stderr, "\n");
}

static inline int wire_check_report(const char *test)
{
    printf("%s: %d checks, %d failed\n", test, wire_check_count, wire_check_failures);
    return wire_check_failures == 0 ? 0 : 1;
}

/* Fixed-seed generator so every run checks the same values (xorshift64*). */
static inline uint64_t wire_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

#endif
