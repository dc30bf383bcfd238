/* softverbs extras beyond the libibverbs ABI (version node SOFTVERBS_1.0). Callers that may
 * run against a real libibverbs look them up with dlsym and treat absence as "not softverbs". */
#ifndef SOFTVERBS_H
#define SOFTVERBS_H

#include <stddef.h>
#include <stdint.h>

struct ibv_context;

/* Replaces the device configuration used by later ibv_get_device_list calls (same syntax as
 * SOFTVERBS_DEVICES); NULL goes back to the environment. 0, or EINVAL with
 * softverbs_last_error() naming the bad part. Open contexts are not affected. */
int softverbs_configure(const char *spec);

/* The message of the last configuration or open failure (empty string if none). The pointer
 * stays valid until the calling thread calls this function again. */
const char *softverbs_last_error(void);

/* Records the packets of devices opened afterwards in this process (sent, received, dropped,
 * with the reason) into DIR/softverbs-IP-PID.wire (layout: sv_pktlog.h); NULL hands the choice
 * back to SOFTVERBS_WIRE (unset: off). 0, or EINVAL for an empty or too long name. */
int softverbs_wire(const char *dir);

/* Copies up to max counters of the context's device (names are static strings); returns the
 * total number of counters, or -1 with errno EINVAL for a bad context. */
int softverbs_query_counters(struct ibv_context *ctx, const char **names, uint64_t *values, int max);

/* QP1 (GSI) for softverbs' librdmacm. A MAD is the payload of a UD SEND from QP1 to QP1 with
 * Q_Key 0x80010000, P_Key 0xFFFF over RoCEv2. */
#define SV_GSI_MAD_MAX 256
typedef void (*softverbs_gsi_handler)(void *arg, const void *mad, size_t len, uint32_t src_ip_be,
                                      uint32_t src_qpn);
/* Attaches the receiver of every MAD arriving for QP1 of the context's device in this process
 * (called on a softverbs progress thread, without softverbs locks held); NULL detaches.
 * 0, EINVAL (not a softverbs context) or EBUSY (another handler is attached). */
int softverbs_gsi_attach(struct ibv_context *ctx, softverbs_gsi_handler fn, void *arg);
/* Sends one MAD (1..SV_GSI_MAD_MAX bytes) from QP1 of the context's device to QP1 of the device
 * at dst_ip_be (IPv4, network order). 0 or EINVAL. Delivery is unreliable, as for any MAD. */
int softverbs_gsi_send(struct ibv_context *ctx, uint32_t dst_ip_be, const void *mad, size_t len);

#endif
