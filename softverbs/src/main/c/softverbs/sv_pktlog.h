/* The packet log: with softverbs_wire(DIR) (or SOFTVERBS_WIRE=DIR) each device opened afterwards
 * records every RoCEv2 packet it sends, receives or drops into DIR/softverbs-IP-PID.wire, a file
 * of fixed little-endian records mapped into memory: a header, then up to SV_PKTLOG_CAPACITY
 * records. Writing one is an atomic index increment and a 32-byte copy (no malloc, no system
 * call); records beyond the capacity are counted (next - capacity), not kept. rdmatrace's
 * capture --wire turns the records into PACKET trace events. Off (the default) it costs one
 * branch per packet. */
#ifndef SV_PKTLOG_H
#define SV_PKTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "sv_counters.h"

#define SV_PKTLOG_MAGIC     "SVWIRE1"   /* 8 bytes with the NUL */
#define SV_PKTLOG_CAPACITY  65536u      /* records: 2 MiB per device */
#define SV_PKTLOG_NAME_LEN  32u         /* each reason name, NUL-padded */

/* direction of a record */
enum sv_pktlog_dir {
    SV_PKT_SENT = 1,       /* put on the wire */
    SV_PKT_RECEIVED = 2,   /* arrived and decoded (what rcvd_pkts counts) */
    SV_PKT_DROPPED = 3,    /* discarded; reason = the counter that counted it */
    SV_PKT_NOTED = 4,      /* handled, but a counter moved for it (duplicate, NAK received, retry...) */
};

/* The file header; the reason names (SV_CNT__COUNT of SV_PKTLOG_NAME_LEN bytes, counter order)
 * follow it and records start at header_len. */
struct sv_pktlog_header {
    char     magic[8];
    uint32_t header_len;
    uint32_t record_len;       /* sizeof(struct sv_pktlog_rec) */
    uint32_t capacity;
    uint32_t ip_be;            /* the device's IPv4 address, network order */
    _Atomic uint64_t next;     /* records reserved; above capacity: that many minus capacity lost */
    uint32_t reason_count;
    uint32_t reason_name_len;
    uint64_t mono_ns_at_open;  /* CLOCK_MONOTONIC, the clock of every record */
    uint64_t real_ns_at_open;  /* CLOCK_REALTIME at the same moment */
    uint64_t reserved;
};
_Static_assert(sizeof(struct sv_pktlog_header) == 64, "the reason names start at byte 64");

struct sv_pktlog_rec {
    uint64_t mono_ns;          /* CLOCK_MONOTONIC */
    uint32_t dest_qpn;         /* BTH DestQP */
    uint32_t psn;              /* BTH PSN */
    uint32_t peer_ip_be;       /* the other end: destination when sent, source when received */
    uint16_t ip_len;           /* IPv4 datagram length (UDP payload + 28) */
    uint16_t payload_len;      /* bytes after the headers (0 when the packet did not decode) */
    uint8_t  dir;              /* enum sv_pktlog_dir */
    uint8_t  opcode;           /* BTH opcode */
    uint8_t  flags;            /* bit 0 AckReq, bit 1 has AETH, bit 2 decoded */
    uint8_t  syndrome;         /* AETH syndrome when flags bit 1 */
    uint8_t  reason;           /* enum sv_counter for DROPPED/NOTED, else 0xff */
    uint8_t  reserved[3];
};
_Static_assert(sizeof(struct sv_pktlog_rec) == 32, "the on-disk record is 32 bytes");
_Static_assert(SV_CNT__COUNT < 0xff, "a reason fits a byte");

#define SV_PKTLOG_F_ACKREQ  0x1
#define SV_PKTLOG_F_AETH    0x2
#define SV_PKTLOG_F_DECODED 0x4

struct sv_pktlog;
struct sv_endpoint;

/* softverbs_wire's directory, else SOFTVERBS_WIRE, else NULL (off). */
const char *sv_pktlog_dir(void);
/* Opens DIR/softverbs-IP-PID.wire for a device at ip_be; NULL when off or on failure (said on
 * stderr once: a capture asked for it). */
struct sv_pktlog *sv_pktlog_open(uint32_t ip_be);
void sv_pktlog_close(struct sv_pktlog *log);
/* Records one packet; buf is the UDP payload (BTH first), len its length (all in buf). */
void sv_pktlog_raw(struct sv_pktlog *log, enum sv_pktlog_dir dir, uint32_t peer_ip_be, const uint8_t *buf,
                   size_t len);
/* The thread's current packet (the one sv_note's counters are about): pushed around the handling
 * of a received datagram or the sending of one, popped after; they nest (a NAK sent while a
 * request is handled). Only with a log open. */
struct sv_pktlog_cur {
    struct sv_pktlog_cur *prev;
    uint32_t peer_ip_be;
    const uint8_t *buf;
    size_t len;     /* the datagram's length */
    size_t avail;   /* bytes of it in buf (a datagram above the MTU is cut) */
};
void sv_pktlog_push(struct sv_pktlog_cur *cur, uint32_t peer_ip_be, const uint8_t *buf, size_t len, size_t avail);
void sv_pktlog_pop(struct sv_pktlog_cur *cur);
/* The current packet was counted by c: a DROPPED or NOTED record (no-op without one). */
void sv_pktlog_note(struct sv_pktlog *log, enum sv_counter c);
/* The current packet was received (decoded): a RECEIVED record. */
void sv_pktlog_received(struct sv_pktlog *log);

#endif
