/* The packet log's records (sv_pktlog.h): header, BTH/AETH fields of a sent NAK, a dropped and
 * a noted packet with their reasons, a datagram cut at the MTU, nesting, and the count of what
 * did not fit. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "sv_check.h"
#include "sv_loc.h"
#include "sv_pkt.h"
#include "sv_pktlog.h"
#include "softverbs.h"

static const struct sv_flow FLOW = {.src_ip_be = 0x0101007f, .dst_ip_be = 0x0201007f,
                                    .src_port = SV_ROCE_UDP_PORT, .dst_port = SV_ROCE_UDP_PORT};

static ssize_t encode(uint8_t opcode, uint32_t qpn, uint32_t psn, uint8_t flags, uint8_t syndrome,
                      uint32_t payload_len, uint8_t *buf, size_t cap)
{
    static const uint8_t payload[2048];
    struct sv_pkt p;
    memset(&p, 0, sizeof p);
    p.opcode = opcode;
    p.pkey = 0xFFFF;
    p.dest_qpn = qpn;
    p.psn = psn;
    p.flags = flags;
    p.aeth.syndrome = syndrome;
    p.payload = payload;
    p.payload_len = payload_len;
    return sv_pkt_encode(&p, &FLOW, buf, cap);
}

int main(void)
{
    char dir[] = "/tmp/sv_pktlog_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ(softverbs_wire(""), EINVAL);
    CHECK_EQ(softverbs_wire(NULL), 0);
    unsetenv("SOFTVERBS_WIRE");
    CHECK(sv_pktlog_dir() == NULL);            /* off by default */
    CHECK(sv_pktlog_open(0x0201007f) == NULL);
    CHECK_EQ(softverbs_wire(dir), 0);
    CHECK(strcmp(sv_pktlog_dir(), dir) == 0);
    struct sv_pktlog *log = sv_pktlog_open(0x0201007f);
    CHECK(log != NULL);
    if (!log)
        return sv_check_report("test_sv_pktlog");

    char path[256];
    snprintf(path, sizeof path, "%s/softverbs-127.0.1.2-%ld.wire", dir, (long)getpid());
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0);
    struct stat st;
    CHECK_EQ(fstat(fd, &st), 0);
    const uint8_t *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(map != MAP_FAILED);
    const struct sv_pktlog_header *h = (const void *)map;
    CHECK(memcmp(h->magic, SV_PKTLOG_MAGIC, 8) == 0);
    CHECK_EQ(h->record_len, 32u);
    CHECK_EQ(h->capacity, SV_PKTLOG_CAPACITY);
    CHECK_EQ(h->ip_be, 0x0201007fu);
    CHECK_EQ(h->reason_count, (uint32_t)SV_CNT__COUNT);
    CHECK_EQ((size_t)st.st_size, h->header_len + (size_t)h->capacity * 32);
    const char *names = (const char *)(h + 1);
    CHECK(strcmp(names + SV_CNT_OUT_OF_SEQ_REQUEST * SV_PKTLOG_NAME_LEN, "out_of_seq_request") == 0);
    const struct sv_pktlog_rec *rec = (const void *)(map + h->header_len);

    /* a NAK (PSN sequence error) sent to 127.0.1.1 */
    uint8_t buf[4400];
    ssize_t n = encode(SV_OP_RC_ACKNOWLEDGE, 0x11, 0xbed0c3, 0, 0x60, 0, buf, sizeof buf);
    CHECK(n > 0);
    uint64_t before = sv_now_ns();
    sv_pktlog_raw(log, SV_PKT_SENT, FLOW.src_ip_be, buf, (size_t)n);
    CHECK_EQ(atomic_load(&h->next), 1u);
    CHECK_EQ(rec[0].dir, SV_PKT_SENT);
    CHECK_EQ(rec[0].opcode, SV_OP_RC_ACKNOWLEDGE);
    CHECK_EQ(rec[0].dest_qpn, 0x11u);
    CHECK_EQ(rec[0].psn, 0xbed0c3u);
    CHECK_EQ(rec[0].syndrome, 0x60);
    CHECK_EQ(rec[0].flags, SV_PKTLOG_F_AETH | SV_PKTLOG_F_DECODED);
    CHECK_EQ(rec[0].reason, 0xff);
    CHECK_EQ(rec[0].peer_ip_be, FLOW.src_ip_be);
    CHECK_EQ(rec[0].ip_len, (uint16_t)(n + 28));
    CHECK_EQ(rec[0].payload_len, 0);
    CHECK(rec[0].mono_ns >= before && rec[0].mono_ns <= sv_now_ns());

    /* a SEND ONLY with AckReq being handled: received, then dropped out of sequence; a NAK sent
     * meanwhile nests; a duplicate is only noted */
    n = encode(SV_OP_RC_SEND_ONLY, 0x12, 0x105, SV_BTH_ACKREQ, 0, 1001, buf, sizeof buf);
    CHECK(n > 0);
    struct sv_pktlog_cur cur, inner;
    sv_pktlog_push(&cur, FLOW.src_ip_be, buf, (size_t)n, (size_t)n);
    sv_pktlog_received(log);
    uint8_t nak[64];
    ssize_t m = encode(SV_OP_RC_ACKNOWLEDGE, 0x99, 0x100, 0, 0x60, 0, nak, sizeof nak);
    sv_pktlog_push(&inner, FLOW.src_ip_be, nak, (size_t)m, (size_t)m);
    sv_pktlog_note(log, SV_CNT_TX_SOCK_BUSY);
    sv_pktlog_pop(&inner);
    sv_pktlog_note(log, SV_CNT_OUT_OF_SEQ_REQUEST);
    sv_pktlog_note(log, SV_CNT_DUPLICATE_REQUEST);
    sv_pktlog_pop(&cur);
    sv_pktlog_note(log, SV_CNT_RCVD_DROPPED);   /* no current packet: nothing */
    CHECK_EQ(atomic_load(&h->next), 5u);
    CHECK_EQ(rec[1].dir, SV_PKT_RECEIVED);
    CHECK_EQ(rec[1].opcode, SV_OP_RC_SEND_ONLY);
    CHECK_EQ(rec[1].flags, SV_PKTLOG_F_ACKREQ | SV_PKTLOG_F_DECODED);
    CHECK_EQ(rec[1].payload_len, 1001);
    CHECK_EQ(rec[2].dir, SV_PKT_NOTED);
    CHECK_EQ(rec[2].dest_qpn, 0x99u);
    CHECK_EQ(rec[2].reason, SV_CNT_TX_SOCK_BUSY);
    CHECK_EQ(rec[3].dir, SV_PKT_DROPPED);
    CHECK_EQ(rec[3].reason, SV_CNT_OUT_OF_SEQ_REQUEST);
    CHECK_EQ(rec[3].psn, 0x105u);
    CHECK_EQ(rec[4].dir, SV_PKT_NOTED);
    CHECK_EQ(rec[4].reason, SV_CNT_DUPLICATE_REQUEST);

    /* a 4140-byte datagram cut to 8 bytes at the MTU: its length, nothing read past the cut */
    sv_pktlog_push(&cur, FLOW.src_ip_be, buf, 4140 - 28, 8);
    sv_pktlog_note(log, SV_CNT_RCVD_LINK_MTU_DROP);
    sv_pktlog_pop(&cur);
    CHECK_EQ(rec[5].dir, SV_PKT_DROPPED);
    CHECK_EQ(rec[5].ip_len, 4140);
    CHECK_EQ(rec[5].opcode, 0);
    CHECK_EQ(rec[5].flags, 0);
    CHECK_EQ(rec[5].reason, SV_CNT_RCVD_LINK_MTU_DROP);

    /* full: what does not fit is counted, never written past the end */
    for (uint32_t i = 6; i < SV_PKTLOG_CAPACITY + 10; i++)
        sv_pktlog_raw(log, SV_PKT_SENT, FLOW.src_ip_be, nak, (size_t)m);
    CHECK_EQ(atomic_load(&h->next), (uint64_t)SV_PKTLOG_CAPACITY + 10);
    CHECK_EQ(rec[SV_PKTLOG_CAPACITY - 1].dir, SV_PKT_SENT);

    sv_pktlog_close(log);
    munmap((void *)map, (size_t)st.st_size);
    close(fd);
    unlink(path);
    rmdir(dir);
    softverbs_wire(NULL);
    return sv_check_report("test_sv_pktlog");
}
