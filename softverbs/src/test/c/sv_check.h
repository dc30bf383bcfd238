/* Checks for the softverbs unit tests: a failed check prints file:line and the values, the
 * test goes on, and main returns sv_check_report() (1 when anything failed). */
#ifndef SV_CHECK_H
#define SV_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int sv_check_failures;
static int sv_check_count;

#define CHECK(cond) do { \
        sv_check_count++; \
        if (!(cond)) { \
            sv_check_failures++; \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        } \
    } while (0)

#define CHECK_EQ(actual, expected) do { \
        long long a_ = (long long)(actual), e_ = (long long)(expected); \
        sv_check_count++; \
        if (a_ != e_) { \
            sv_check_failures++; \
            fprintf(stderr, "%s:%d: %s == %lld (0x%llx), expected %s == %lld (0x%llx)\n", \
                    __FILE__, __LINE__, #actual, a_, a_, #expected, e_, e_); \
        } \
    } while (0)

#define CHECK_CONTAINS(haystack, needle) do { \
        const char *h_ = (haystack), *n_ = (needle); \
        sv_check_count++; \
        if (h_ == NULL || strstr(h_, n_) == NULL) { \
            sv_check_failures++; \
            fprintf(stderr, "%s:%d: %s == \"%s\" does not contain \"%s\"\n", \
                    __FILE__, __LINE__, #haystack, h_ ? h_ : "(null)", n_); \
        } \
    } while (0)

static inline int sv_check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, sv_check_count, sv_check_failures);
    return sv_check_failures ? 1 : 0;
}

#endif
