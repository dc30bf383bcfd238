/* softverbs extras beyond the libibverbs ABI (version node SOFTVERBS_1.0). Callers that may
 * run against a real libibverbs look them up with dlsym and treat absence as "not softverbs". */
#ifndef SOFTVERBS_H
#define SOFTVERBS_H

#include <stdint.h>

struct ibv_context;

/* Replaces the device configuration used by later ibv_get_device_list calls (same syntax as
 * SOFTVERBS_DEVICES); NULL goes back to the environment. 0, or EINVAL with
 * softverbs_last_error() naming the bad part. Open contexts are not affected. */
int softverbs_configure(const char *spec);

/* The message of the last configuration or open failure (empty string if none). The pointer
 * stays valid until the calling thread calls this function again. */
const char *softverbs_last_error(void);

/* Copies up to max counters of the context's device (names are static strings); returns the
 * total number of counters, or -1 with errno EINVAL for a bad context. */
int softverbs_query_counters(struct ibv_context *ctx, const char **names, uint64_t *values, int max);

#endif
