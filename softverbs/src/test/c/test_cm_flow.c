/* The CM state machine end to end, both sides in one process on two softverbs devices (CM MADs
 * really travel between 127.X.Y.1 and 127.X.Y.2): the event sequences of connect/accept/
 * disconnect/timewait, the QP attributes the CM sets, private data both ways, REJ reason 8 with no
 * listener, a consumer reject (28), UD through SIDR, hostile MADs dropped and counted, crossed
 * and unmatched DREQs, the REQ retransmission schedule ending in UNREACHABLE (timers driven
 * with a clock far ahead), a loopback address no device has binding as the wildcard,
 * rdma_getaddrinfo from the hints alone, and IPv6 addresses of the GID table binding. */
#include <arpa/inet.h>
#include <rdma/rdma_cma.h>

#include "cm_loc.h"
#include "sv_check.h"
#include "sv_testdev.h"

int softverbs_cm_query_counters(const char **names, uint64_t *values, int max);

static char ip_a[32], ip_b[32];
static uint16_t g_port = 20000;

static struct sockaddr_in sin_of(const char *ip, uint16_t port)
{
    struct sockaddr_in s = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, ip, &s.sin_addr);
    return s;
}

/* the next event of the channel within SV_TEST_WAIT_MS, or NULL */
static struct rdma_cm_event *next_event(struct rdma_event_channel *ch)
{
    struct pollfd p = {.fd = ch->fd, .events = POLLIN};
    if (poll(&p, 1, SV_TEST_WAIT_MS) != 1)
        return NULL;
    struct rdma_cm_event *e = NULL;
    return rdma_get_cm_event(ch, &e) == 0 ? e : NULL;
}

/* expects an event of type; returns it (caller acks) or NULL after a failed check */
static struct rdma_cm_event *expect(struct rdma_event_channel *ch, enum rdma_cm_event_type type)
{
    struct rdma_cm_event *e = next_event(ch);
    CHECK(e != NULL);
    if (!e)
        return NULL;
    if (e->event != type)
        fprintf(stderr, "got %s (status %d), expected %s\n", rdma_event_str(e->event), e->status, rdma_event_str(type));
    CHECK_EQ(e->event, type);
    return e;
}

static uint64_t counter(const char *name)
{
    const char *names[16];
    uint64_t values[16];
    int n = softverbs_cm_query_counters(names, values, 16);
    for (int i = 0; i < n && i < 16; i++)
        if (!strcmp(names[i], name))
            return values[i];
    return ~0ull;
}

struct end {
    struct rdma_cm_id *id;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
};

static void make_qp(struct end *e, enum ibv_qp_type type)
{
    e->pd = ibv_alloc_pd(e->id->verbs);
    e->cq = ibv_create_cq(e->id->verbs, 16, NULL, NULL, 0);
    struct ibv_qp_init_attr a = {.send_cq = e->cq, .recv_cq = e->cq, .qp_type = type,
                                 .cap = {.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1}};
    CHECK_EQ(rdma_create_qp(e->id, e->pd, &a), 0);
}

static void end_fini(struct end *e)
{
    rdma_destroy_qp(e->id);
    ibv_destroy_cq(e->cq);
    ibv_dealloc_pd(e->pd);
    CHECK_EQ(rdma_destroy_id(e->id), 0);
}

/* an active id on device b resolved towards a:port */
static struct rdma_cm_id *resolved(struct rdma_event_channel *ch, enum rdma_port_space ps, uint16_t port)
{
    struct rdma_cm_id *id;
    CHECK_EQ(rdma_create_id(ch, &id, NULL, ps), 0);
    struct sockaddr_in src = sin_of(ip_b, 0), dst = sin_of(ip_a, port);
    CHECK_EQ(rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 2000), 0);
    struct rdma_cm_event *e = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(rdma_resolve_route(id, 2000), 0);
    e = expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(id->route.num_paths, 1);
    return id;
}

static struct rdma_cm_id *listening(struct rdma_event_channel *ch, enum rdma_port_space ps, uint16_t port)
{
    struct rdma_cm_id *id;
    CHECK_EQ(rdma_create_id(ch, &id, NULL, ps), 0);
    struct sockaddr_in s = sin_of(ip_a, port);
    CHECK_EQ(rdma_bind_addr(id, (struct sockaddr *)&s), 0);
    CHECK_EQ(rdma_listen(id, 4), 0);
    return id;
}

static void test_rc_lifecycle(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    uint16_t port = g_port++;
    struct rdma_cm_id *l = listening(sch, RDMA_PS_TCP, port);
    struct end c = {.id = resolved(cch, RDMA_PS_TCP, port)}, s = {0};
    make_qp(&c, IBV_QPT_RC);
    struct ibv_qp_attr qa;
    struct ibv_qp_init_attr qi;
    CHECK_EQ(ibv_query_qp(c.id->qp, &qa, IBV_QP_STATE, &qi), 0);
    CHECK_EQ(qa.qp_state, IBV_QPS_INIT);                /* INIT at create, as librdmacm */
    struct rdma_conn_param cp = {.private_data = "hello", .private_data_len = 6, .responder_resources = 2,
                                 .initiator_depth = 3, .retry_count = 5, .rnr_retry_count = 7};
    CHECK_EQ(rdma_connect(c.id, &cp), 0);
    struct rdma_cm_event *e = expect(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
    if (!e)
        return;
    CHECK(e->listen_id == l);
    CHECK(!strcmp(e->param.conn.private_data, "hello"));
    CHECK_EQ(e->param.conn.private_data_len, 56);      /* 92 - the 36-byte IP CM header */
    CHECK_EQ(e->param.conn.responder_resources, 3);    /* its initiator depth, seen from here */
    CHECK_EQ(e->param.conn.initiator_depth, 2);
    CHECK_EQ(e->param.conn.qp_num, c.id->qp->qp_num);
    CHECK_EQ(ntohs(rdma_get_dst_port(e->id)), ntohs(rdma_get_src_port(c.id)));
    s.id = e->id;
    rdma_ack_cm_event(e);
    make_qp(&s, IBV_QPT_RC);
    struct rdma_conn_param ap = {.private_data = "world", .private_data_len = 6, .responder_resources = 3,
                                 .initiator_depth = 2, .rnr_retry_count = 6};
    CHECK_EQ(rdma_accept(s.id, &ap), 0);
    CHECK_EQ(ibv_query_qp(s.id->qp, &qa, IBV_QP_STATE, &qi), 0);
    CHECK_EQ(qa.qp_state, IBV_QPS_RTS);                 /* RTR and RTS before the REP goes out */
    e = expect(cch, RDMA_CM_EVENT_ESTABLISHED);         /* the REP, processed at get time (RTR/RTS/RTU) */
    if (e) {
        CHECK(!strcmp(e->param.conn.private_data, "world"));
        rdma_ack_cm_event(e);
    }
    e = expect(sch, RDMA_CM_EVENT_ESTABLISHED);         /* the RTU */
    if (e)
        rdma_ack_cm_event(e);
    /* the CM's QP attributes: each end's remote QPN and PSNs are the other's */
    struct ibv_qp_attr ca, sa;
    int mask = IBV_QP_STATE | IBV_QP_DEST_QPN | IBV_QP_SQ_PSN | IBV_QP_RQ_PSN | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
               IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC |
               IBV_QP_ACCESS_FLAGS;
    CHECK_EQ(ibv_query_qp(c.id->qp, &ca, mask, &qi), 0);
    CHECK_EQ(ibv_query_qp(s.id->qp, &sa, mask, &qi), 0);
    CHECK_EQ(ca.qp_state, IBV_QPS_RTS);
    CHECK_EQ(ca.dest_qp_num, s.id->qp->qp_num);
    CHECK_EQ(sa.dest_qp_num, c.id->qp->qp_num);
    CHECK_EQ(ca.sq_psn, sa.rq_psn);
    CHECK_EQ(sa.sq_psn, ca.rq_psn);
    CHECK_EQ(ca.path_mtu, IBV_MTU_1024);
    CHECK_EQ(ca.timeout, 17);                          /* packet life 16 + 1 */
    CHECK_EQ(ca.retry_cnt, 5);
    CHECK_EQ(sa.retry_cnt, 5);
    CHECK_EQ(ca.rnr_retry, 6);                         /* the REP's RNR retry count */
    CHECK_EQ(sa.rnr_retry, 7);                         /* the REQ's */
    CHECK_EQ(ca.max_rd_atomic, 4);                     /* min(own 3, its responder resources 3), rounded up */
    CHECK_EQ(sa.max_dest_rd_atomic, 4);                /* 3 rounded up to a power of two by the device */
    CHECK(ca.qp_access_flags & IBV_ACCESS_REMOTE_READ);
    /* data flows on the connection the CM set up */
    char buf[64] = "payload", rbuf[64] = {0};
    struct ibv_mr *rmr = ibv_reg_mr(s.pd, rbuf, sizeof rbuf, IBV_ACCESS_LOCAL_WRITE);
    struct ibv_mr *smr = ibv_reg_mr(c.pd, buf, sizeof buf, 0);
    struct ibv_sge rs = {(uintptr_t)rbuf, sizeof rbuf, rmr->lkey}, ss = {(uintptr_t)buf, 8, smr->lkey};
    struct ibv_recv_wr rw = {.wr_id = 1, .sg_list = &rs, .num_sge = 1}, *brw;
    struct ibv_send_wr sw = {.wr_id = 2, .sg_list = &ss, .num_sge = 1, .opcode = IBV_WR_SEND,
                             .send_flags = IBV_SEND_SIGNALED}, *bsw;
    CHECK_EQ(ibv_post_recv(s.id->qp, &rw, &brw), 0);
    CHECK_EQ(ibv_post_send(c.id->qp, &sw, &bsw), 0);
    struct ibv_wc wc;
    CHECK(sv_test_wait_wc(s.cq, &wc, SV_TEST_WAIT_MS));
    CHECK_EQ(wc.status, IBV_WC_SUCCESS);
    CHECK(!strcmp(rbuf, "payload"));
    CHECK(sv_test_wait_wc(c.cq, &wc, SV_TEST_WAIT_MS));
    ibv_dereg_mr(rmr);
    ibv_dereg_mr(smr);
    /* disconnect: DREQ/DREP, DISCONNECTED on both ends, then timewait */
    CHECK_EQ(rdma_disconnect(c.id), 0);
    CHECK_EQ(ibv_query_qp(c.id->qp, &qa, IBV_QP_STATE, &qi), 0);
    CHECK_EQ(qa.qp_state, IBV_QPS_ERR);
    e = expect(sch, RDMA_CM_EVENT_DISCONNECTED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(rdma_disconnect(s.id), 0);                /* answers the DREQ */
    e = expect(cch, RDMA_CM_EVENT_DISCONNECTED);
    if (e)
        rdma_ack_cm_event(e);
    e = expect(cch, RDMA_CM_EVENT_TIMEWAIT_EXIT);
    if (e)
        rdma_ack_cm_event(e);
    e = expect(sch, RDMA_CM_EVENT_TIMEWAIT_EXIT);
    if (e)
        rdma_ack_cm_event(e);
    end_fini(&c);
    end_fini(&s);
    CHECK_EQ(rdma_destroy_id(l), 0);
}

static void test_rejects(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    uint16_t port = g_port++;
    struct rdma_cm_id *l = listening(sch, RDMA_PS_TCP, port);
    /* nobody listens on port+1: REJ reason 8, invalid service ID */
    struct end c = {.id = resolved(cch, RDMA_PS_TCP, (uint16_t)(port + 1))};
    make_qp(&c, IBV_QPT_RC);
    CHECK_EQ(rdma_connect(c.id, NULL), 0);
    struct rdma_cm_event *e = expect(cch, RDMA_CM_EVENT_REJECTED);
    if (e) {
        CHECK_EQ(e->status, 8);
        rdma_ack_cm_event(e);
    }
    struct ibv_qp_attr qa;
    struct ibv_qp_init_attr qi;
    CHECK_EQ(ibv_query_qp(c.id->qp, &qa, IBV_QP_STATE, &qi), 0);
    CHECK_EQ(qa.qp_state, IBV_QPS_ERR);
    end_fini(&c);
    /* the listener refuses: reason 28 with its private data */
    struct rdma_cm_id *x = resolved(cch, RDMA_PS_TCP, port);
    CHECK_EQ(rdma_connect(x, &(struct rdma_conn_param){.qp_num = 0x99}), 0);
    e = expect(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
    if (e) {
        CHECK_EQ(rdma_reject(e->id, "nope", 5), 0);
        struct rdma_cm_id *child = e->id;
        rdma_ack_cm_event(e);
        CHECK_EQ(rdma_destroy_id(child), 0);
    }
    e = expect(cch, RDMA_CM_EVENT_REJECTED);
    if (e) {
        CHECK_EQ(e->status, 28);
        CHECK(e->param.conn.private_data && !strcmp(e->param.conn.private_data, "nope"));
        rdma_ack_cm_event(e);
    }
    CHECK_EQ(rdma_destroy_id(x), 0);
    /* a second listener on the same port is refused */
    struct rdma_cm_id *l2;
    CHECK_EQ(rdma_create_id(sch, &l2, NULL, RDMA_PS_TCP), 0);
    struct sockaddr_in s = sin_of(ip_a, port);
    CHECK_EQ(rdma_bind_addr(l2, (struct sockaddr *)&s), -1);
    CHECK_EQ(errno, EADDRINUSE);
    CHECK_EQ(rdma_destroy_id(l2), 0);
    CHECK_EQ(rdma_destroy_id(l), 0);
}

static void test_ud(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    uint16_t port = g_port++;
    struct rdma_cm_id *l = listening(sch, RDMA_PS_UDP, port);
    struct end c = {.id = resolved(cch, RDMA_PS_UDP, port)}, s = {0};
    make_qp(&c, IBV_QPT_UD);
    struct ibv_qp_attr qa;
    struct ibv_qp_init_attr qi;
    CHECK_EQ(ibv_query_qp(c.id->qp, &qa, IBV_QP_STATE | IBV_QP_QKEY, &qi), 0);
    CHECK_EQ(qa.qp_state, IBV_QPS_RTS);                 /* a UD QP is ready at once */
    CHECK_EQ(qa.qkey, RDMA_UDP_QKEY);
    CHECK_EQ(rdma_connect(c.id, &(struct rdma_conn_param){.private_data = "ud", .private_data_len = 3}), 0);
    struct rdma_cm_event *e = expect(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
    if (!e)
        return;
    CHECK(!strcmp(e->param.ud.private_data, "ud"));
    s.id = e->id;
    rdma_ack_cm_event(e);
    make_qp(&s, IBV_QPT_UD);
    CHECK_EQ(rdma_accept(s.id, NULL), 0);
    e = expect(cch, RDMA_CM_EVENT_ESTABLISHED);
    if (e) {
        CHECK_EQ(e->param.ud.qp_num, s.id->qp->qp_num);
        CHECK_EQ(e->param.ud.qkey, RDMA_UDP_QKEY);
        CHECK_EQ(e->param.ud.ah_attr.is_global, 1);
        CHECK_EQ(e->param.ud.ah_attr.grh.sgid_index, 3);
        rdma_ack_cm_event(e);
    }
    end_fini(&c);
    end_fini(&s);
    /* SIDR to a port nobody listens on: UNREACHABLE with SIDR status 1 */
    struct rdma_cm_id *x = resolved(cch, RDMA_PS_UDP, (uint16_t)(port + 1));
    CHECK_EQ(rdma_connect(x, NULL), 0);
    e = expect(cch, RDMA_CM_EVENT_UNREACHABLE);
    if (e) {
        CHECK_EQ(e->status, 1);
        rdma_ack_cm_event(e);
    }
    CHECK_EQ(rdma_destroy_id(x), 0);
    CHECK_EQ(rdma_destroy_id(l), 0);
}

static void test_addr_errors(struct rdma_event_channel *cch)
{
    struct rdma_cm_id *id;
    CHECK_EQ(rdma_create_id(cch, &id, NULL, RDMA_PS_TCP), 0);
    struct sockaddr_in dst = sin_of("192.0.2.1", 1);   /* TEST-NET-1: no softverbs device reaches it */
    CHECK_EQ(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 100), 0);
    struct rdma_cm_event *e = expect(cch, RDMA_CM_EVENT_ADDR_ERROR);
    if (e) {
        CHECK_EQ(e->status, -ENODEV);
        rdma_ack_cm_event(e);
    }
    CHECK_EQ(rdma_resolve_route(id, 100), -1);         /* no address: EINVAL */
    CHECK_EQ(errno, EINVAL);
    struct sockaddr_in bad = sin_of("192.0.2.1", 1);
    struct rdma_cm_id *id2;
    CHECK_EQ(rdma_create_id(cch, &id2, NULL, RDMA_PS_TCP), 0);
    CHECK_EQ(rdma_bind_addr(id2, (struct sockaddr *)&bad), -1);
    CHECK_EQ(errno, ENODEV);
    CHECK_EQ(rdma_destroy_id(id2), 0);
    CHECK_EQ(rdma_destroy_id(id), 0);
    CHECK_EQ(rdma_create_id(cch, &id, NULL, (enum rdma_port_space)0x42), -1);
    CHECK_EQ(rdma_destroy_id(NULL), -1);
}

static void test_hostile(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    struct cm_dev *b = NULL;
    uint32_t a_ip;
    inet_pton(AF_INET, ip_a, &a_ip);
    for (int i = 0; i < g_cm.ndev; i++)
        if (g_cm.dev[i].ip_be != a_ip)
            b = &g_cm.dev[i];
    CHECK(b != NULL);
    if (!b)
        return;
    uint64_t malformed = counter("mads_malformed"), unmatched = counter("mads_unmatched");
    uint8_t mad[300];
    memset(mad, 0xA5, sizeof mad);
    softverbs_gsi_send(b->verbs, a_ip, mad, 100);      /* short */
    softverbs_gsi_send(b->verbs, a_ip, mad, 256);      /* wrong class */
    struct cm_msg m = {.attr = CM_ATTR_REP, .remote_comm_id = 0xDEAD};
    uint8_t enc[CM_MAD_LEN];
    cm_mad_encode(&m, enc);
    softverbs_gsi_send(b->verbs, a_ip, enc, sizeof enc);   /* a REP nobody asked for */
    m = (struct cm_msg){.attr = CM_ATTR_REQ, .service_id = 0x0000000001060001ull};
    cm_mad_encode(&m, enc);                            /* a REQ without the IP CM header */
    softverbs_gsi_send(b->verbs, a_ip, enc, sizeof enc);
    srand(7);
    for (int i = 0; i < 200; i++) {                   /* random CM messages */
        for (size_t j = 0; j < CM_MAD_LEN; j++)
            enc[j] = (uint8_t)rand();
        enc[0] = 1; enc[1] = 7; enc[2] = 2; enc[3] = 3; enc[16] = 0; enc[17] = (uint8_t)(0x11 + rand() % 8);
        softverbs_gsi_send(b->verbs, a_ip, enc, sizeof enc);
    }
    uint64_t end = sv_test_ms() + SV_TEST_WAIT_MS;
    while (sv_test_ms() < end && (counter("mads_malformed") < malformed + 2 || counter("mads_unmatched") < unmatched + 1))
        usleep(1000);
    CHECK(counter("mads_malformed") >= malformed + 2);
    CHECK(counter("mads_unmatched") >= unmatched + 1);
    /* still serving: a full connection works afterwards */
    test_rc_lifecycle(sch, cch);
}

/* c (device b) connected to s (device a) through a listener on port; false after a failed check */
static bool connect_pair(struct rdma_event_channel *sch, struct rdma_event_channel *cch, uint16_t port,
                         struct rdma_cm_id **l, struct end *c, struct end *s)
{
    *l = listening(sch, RDMA_PS_TCP, port);
    c->id = resolved(cch, RDMA_PS_TCP, port);
    make_qp(c, IBV_QPT_RC);
    struct rdma_conn_param cp = {.retry_count = 7, .rnr_retry_count = 7};
    CHECK_EQ(rdma_connect(c->id, &cp), 0);
    struct rdma_cm_event *e = expect(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
    if (!e)
        return false;
    s->id = e->id;
    rdma_ack_cm_event(e);
    make_qp(s, IBV_QPT_RC);
    CHECK_EQ(rdma_accept(s->id, &cp), 0);
    e = expect(cch, RDMA_CM_EVENT_ESTABLISHED);
    if (e)
        rdma_ack_cm_event(e);
    e = expect(sch, RDMA_CM_EVENT_ESTABLISHED);
    if (e)
        rdma_ack_cm_event(e);
    return e != NULL;
}

static struct cm_dev *dev_at(const char *ip)
{
    uint32_t ip_be;
    inet_pton(AF_INET, ip, &ip_be);
    for (int i = 0; i < g_cm.ndev; i++)
        if (g_cm.dev[i].ip_be == ip_be)
            return &g_cm.dev[i];
    return NULL;
}

/* Both ends disconnect at once, and a DREQ reaches an end that has forgotten the connection:
 * as ib_cm, the crossing DREQ answers ours (DISCONNECTED at once, no more retries) and a DREQ
 * that matches nothing is answered with a DREP (cm_issue_drep), so neither end waits out 15
 * retransmissions (69 s) for a DREP that will never come. */
static void test_disconnect_races(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    struct rdma_cm_id *l;
    struct end c = {0}, s = {0};
    struct cm_dev *a = dev_at(ip_a);
    CHECK(a != NULL);
    if (!a || !connect_pair(sch, cch, g_port++, &l, &c, &s))
        return;
    pthread_mutex_lock(&g_cm.lock);
    uint32_t c_comm = cm_id_checked(c.id)->local_comm_id, s_comm = cm_id_checked(s.id)->local_comm_id;
    pthread_mutex_unlock(&g_cm.lock);
    CHECK_EQ(rdma_disconnect(c.id), 0);                /* c's DREQ is out... */
    struct rdma_cm_event *e = expect(sch, RDMA_CM_EVENT_DISCONNECTED);
    if (e)
        rdma_ack_cm_event(e);
    struct cm_msg m = {.attr = CM_ATTR_DREQ, .local_comm_id = s_comm, .remote_comm_id = c_comm,
                       .qpn = c.id->qp->qp_num};
    uint8_t enc[CM_MAD_LEN];
    cm_mad_encode(&m, enc);
    uint32_t b_ip;
    inet_pton(AF_INET, ip_b, &b_ip);
    softverbs_gsi_send(a->verbs, b_ip, enc, sizeof enc);   /* ...when s's crosses it */
    e = expect(cch, RDMA_CM_EVENT_DISCONNECTED);
    if (e) {
        CHECK_EQ(e->status, 0);
        rdma_ack_cm_event(e);
    }
    uint64_t retrans = counter("retransmits");
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&g_cm.lock);
        cm_conn_timers(cm_now_ms() + 4700);
        pthread_mutex_unlock(&g_cm.lock);
    }
    CHECK_EQ(counter("retransmits"), retrans);        /* c's DREQ was answered by s's */
    CHECK_EQ(rdma_disconnect(c.id), 0);                /* c's DREP; s (DREQ_RCVD) enters timewait */
    CHECK_EQ(rdma_disconnect(s.id), 0);
    end_fini(&c);
    end_fini(&s);
    CHECK_EQ(rdma_destroy_id(l), 0);

    /* s forgets the connection without a word (as when its DREQ was out and it was destroyed) */
    if (!connect_pair(sch, cch, g_port++, &l, &c, &s))
        return;
    pthread_mutex_lock(&g_cm.lock);
    cm_id_checked(s.id)->state = CM_ST_DEAD;
    pthread_mutex_unlock(&g_cm.lock);
    uint64_t unmatched = counter("mads_unmatched");
    CHECK_EQ(rdma_disconnect(c.id), 0);
    e = expect(cch, RDMA_CM_EVENT_DISCONNECTED);       /* the DREP of a's CM for no connection */
    if (e) {
        CHECK_EQ(e->status, 0);
        rdma_ack_cm_event(e);
    }
    CHECK_EQ(counter("mads_unmatched"), unmatched + 1);
    end_fini(&c);
    end_fini(&s);
    CHECK_EQ(rdma_destroy_id(l), 0);
}

static void test_req_timeout(struct rdma_event_channel *cch)
{
    /* a device address nobody owns: the REQ goes unanswered */
    struct rdma_cm_id *id;
    CHECK_EQ(rdma_create_id(cch, &id, NULL, RDMA_PS_TCP), 0);
    char nobody[32];
    sv_test_ip(nobody, sizeof nobody, 9);
    struct sockaddr_in src = sin_of(ip_b, 0), dst = sin_of(nobody, 1);
    CHECK_EQ(rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 100), 0);
    struct rdma_cm_event *e = expect(cch, RDMA_CM_EVENT_ADDR_RESOLVED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(rdma_resolve_route(id, 100), 0);
    e = expect(cch, RDMA_CM_EVENT_ROUTE_RESOLVED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(rdma_connect(id, NULL), 0);
    uint64_t retrans = counter("retransmits");
    /* 15 retransmissions, 4.6 s apart (2 x packet life 16 + response timeout 20), then UNREACHABLE */
    CHECK_EQ(2 * cm_iba_time_ms(CM_PACKET_LIFETIME) + cm_iba_time_ms(CM_RESPONSE_TIMEOUT), 4608);
    for (int i = 0; i <= CM_MAX_CM_RETRIES; i++) {
        pthread_mutex_lock(&g_cm.lock);
        cm_conn_timers(cm_now_ms() + 4700);
        pthread_mutex_unlock(&g_cm.lock);
    }
    CHECK_EQ(counter("retransmits"), retrans + CM_MAX_CM_RETRIES);
    e = expect(cch, RDMA_CM_EVENT_UNREACHABLE);
    if (e) {
        CHECK_EQ(e->status, -ETIMEDOUT);
        rdma_ack_cm_event(e);
    }
    CHECK_EQ(rdma_destroy_id(id), 0);
}

/* A loopback address no device owns binds as the wildcard, as the kernel's rdma_cm does (libfabric's
 * server binds "localhost"): no device yet, and the listen hears a connect to a device's address. */
static void test_loopback_wildcard(struct rdma_event_channel *sch, struct rdma_event_channel *cch)
{
    uint16_t port = g_port++;
    struct rdma_cm_id *l;
    CHECK_EQ(rdma_create_id(sch, &l, NULL, RDMA_PS_TCP), 0);
    struct sockaddr_in lo = sin_of("127.0.0.1", port);
    if (strcmp(ip_a, "127.0.0.1") == 0 || strcmp(ip_b, "127.0.0.1") == 0)
        lo = sin_of("127.255.255.254", port);
    CHECK_EQ(rdma_bind_addr(l, (struct sockaddr *)&lo), 0);
    CHECK(l->verbs == NULL);
    CHECK_EQ(ntohs(rdma_get_src_port(l)), port);
    CHECK_EQ(rdma_listen(l, 4), 0);
    struct rdma_cm_id *x = resolved(cch, RDMA_PS_TCP, port);   /* towards a's own address */
    CHECK_EQ(rdma_connect(x, &(struct rdma_conn_param){.qp_num = 0x99}), 0);
    struct rdma_cm_event *e = expect(sch, RDMA_CM_EVENT_CONNECT_REQUEST);
    if (e) {
        CHECK(e->listen_id == l);
        CHECK(e->id->verbs != NULL);                   /* the request came in on device a */
        CHECK_EQ(rdma_reject(e->id, NULL, 0), 0);
        struct rdma_cm_id *child = e->id;
        rdma_ack_cm_event(e);
        CHECK_EQ(rdma_destroy_id(child), 0);
    }
    e = expect(cch, RDMA_CM_EVENT_REJECTED);
    if (e)
        rdma_ack_cm_event(e);
    CHECK_EQ(rdma_destroy_id(x), 0);
    /* a wildcard listener holds the port on every device */
    struct rdma_cm_id *l2;
    CHECK_EQ(rdma_create_id(sch, &l2, NULL, RDMA_PS_TCP), 0);
    struct sockaddr_in s = sin_of(ip_a, port);
    CHECK_EQ(rdma_bind_addr(l2, (struct sockaddr *)&s), -1);
    CHECK_EQ(errno, EADDRINUSE);
    CHECK_EQ(rdma_destroy_id(l2), 0);
    CHECK_EQ(rdma_destroy_id(l), 0);
}

/* rdma_getaddrinfo with neither node nor service gives back the hints' addresses (libfabric's verbs
 * provider makes its endpoints' addresses so); with no hints either it is EINVAL. */
static void test_addrinfo_from_hints(void)
{
    struct sockaddr_in src = sin_of(ip_b, 0), dst = sin_of(ip_a, 4242);
    struct rdma_addrinfo hints = {.ai_flags = RAI_PASSIVE, .ai_family = AF_INET, .ai_qp_type = IBV_QPT_RC,
                                  .ai_port_space = RDMA_PS_TCP, .ai_src_len = sizeof src,
                                  .ai_src_addr = (struct sockaddr *)&src, .ai_dst_len = sizeof dst,
                                  .ai_dst_addr = (struct sockaddr *)&dst};
    struct rdma_addrinfo *r = NULL;
    CHECK_EQ(rdma_getaddrinfo(NULL, NULL, &hints, &r), 0);
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ(r->ai_flags, RAI_PASSIVE);
        CHECK_EQ(r->ai_port_space, RDMA_PS_TCP);
        CHECK_EQ(r->ai_qp_type, IBV_QPT_RC);
        CHECK_EQ(r->ai_src_len, sizeof src);
        CHECK(r->ai_src_addr && r->ai_src_addr != hints.ai_src_addr && !memcmp(r->ai_src_addr, &src, sizeof src));
        CHECK_EQ(r->ai_dst_len, sizeof dst);
        CHECK(r->ai_dst_addr && !memcmp(r->ai_dst_addr, &dst, sizeof dst));
        CHECK(r->ai_next == NULL);
        rdma_freeaddrinfo(r);
    }
    r = NULL;
    CHECK_EQ(rdma_getaddrinfo(NULL, NULL, NULL, &r), -1);
    CHECK_EQ(errno, EINVAL);
}

/* The IPv6 addresses of a device's GID table (its link-local fe80:: here) resolve and bind to the
 * device, as libfabric's enumeration of the interfaces expects; connecting from one is refused
 * (RoCE v2 over IPv4 only), an IPv6 address no device has is ENODEV. */
static void test_ipv6_bind(struct rdma_event_channel *cch)
{
    int n = 0;
    struct ibv_context **devs = rdma_get_devices(&n);
    union ibv_gid gid;
    CHECK(n >= 1 && ibv_query_gid(devs[0], 1, 0, &gid) == 0);
    rdma_free_devices(devs);
    CHECK(IN6_IS_ADDR_LINKLOCAL((struct in6_addr *)gid.raw));
    char text[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, gid.raw, text, sizeof text);
    struct rdma_addrinfo hints = {.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST}, *r = NULL;
    CHECK_EQ(rdma_getaddrinfo(text, NULL, &hints, &r), 0);
    if (!r)
        return;
    CHECK_EQ(r->ai_family, AF_INET6);
    CHECK_EQ(r->ai_src_len, sizeof(struct sockaddr_in6));
    CHECK(!memcmp(&((struct sockaddr_in6 *)r->ai_src_addr)->sin6_addr, gid.raw, 16));
    struct rdma_cm_id *id;
    CHECK_EQ(rdma_create_id(cch, &id, NULL, RDMA_PS_TCP), 0);
    CHECK_EQ(rdma_bind_addr(id, r->ai_src_addr), 0);
    CHECK(id->verbs != NULL);
    CHECK(ntohs(rdma_get_src_port(id)) != 0);
    CHECK_EQ(id->route.addr.src_addr.sa_family, AF_INET6);
    struct sockaddr_in dst = sin_of(ip_a, 1);
    CHECK_EQ(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 100), -1);
    CHECK_EQ(errno, EAFNOSUPPORT);
    CHECK_EQ(rdma_destroy_id(id), 0);
    rdma_freeaddrinfo(r);
    struct sockaddr_in6 other = {.sin6_family = AF_INET6};
    inet_pton(AF_INET6, "fd00::5:1", &other.sin6_addr);
    CHECK_EQ(rdma_create_id(cch, &id, NULL, RDMA_PS_TCP), 0);
    CHECK_EQ(rdma_bind_addr(id, (struct sockaddr *)&other), -1);
    CHECK_EQ(errno, ENODEV);
    CHECK_EQ(rdma_destroy_id(id), 0);
}

int main(void)
{
    sv_test_ip(ip_a, sizeof ip_a, 1);
    sv_test_ip(ip_b, sizeof ip_b, 2);
    char spec[128];
    snprintf(spec, sizeof spec, "a@%s,b@%s", ip_a, ip_b);
    if (softverbs_configure(spec)) {
        fprintf(stderr, "configure: %s\n", softverbs_last_error());
        return 1;
    }
    g_port = (uint16_t)(20000 + getpid() % 20000);
    struct rdma_event_channel *sch = rdma_create_event_channel(), *cch = rdma_create_event_channel();
    CHECK(sch && cch);
    if (!sch || !cch)
        return sv_check_report("test_cm_flow");
    int n = 0;
    struct ibv_context **devs = rdma_get_devices(&n);
    CHECK_EQ(n, 2);
    rdma_free_devices(devs);
    test_rc_lifecycle(sch, cch);
    test_rejects(sch, cch);
    test_ud(sch, cch);
    test_addr_errors(cch);
    test_loopback_wildcard(sch, cch);
    test_addrinfo_from_hints();
    test_ipv6_bind(cch);
    test_hostile(sch, cch);
    test_disconnect_races(sch, cch);
    test_req_timeout(cch);
    rdma_destroy_event_channel(sch);
    rdma_destroy_event_channel(cch);
    return sv_check_report("test_cm_flow");
}
