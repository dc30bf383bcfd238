/* The ABI beyond today's verbs, through the built libibverbs.so.1 (linked like a program):
 * the ibv_copy_*_kern marshalling helpers librdmacm uses, the IBVERBS_1.0 entry points (an RC
 * SEND between two devices done only through them and the 1.0 op table), and the
 * IBVERBS_PRIVATE_34 provider entry points' contract on a softverbs device. */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <infiniband/sa.h>
#include <rdma/ib_user_sa.h>

#include "sv_abi_compat10.h"
#include "sv_check.h"
#include "sv_driver.h"
#include "sv_testdev.h"

void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst, struct ib_uverbs_ah_attr *src);
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst, struct ib_uverbs_qp_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst, struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst, struct ibv_sa_path_rec *src);
int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd, struct ibv_alloc_pd *cmd,
                     size_t cmd_size, struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int execute_ioctl(struct ibv_context *context, struct ibv_command_buffer *cmd);
unsigned int __ioctl_final_num_attrs(unsigned int num_attrs, struct ibv_command_buffer *link);
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size,
                                    struct verbs_context *context_offset, uint32_t driver_id);
struct ibv_context *verbs_open_device(struct ibv_device *device, void *private_data);
void verbs_init_cq(struct ibv_cq *cq, struct ibv_context *context, struct ibv_comp_channel *channel,
                   void *cq_context);

static void test_kern_copies(void)
{
    struct ib_uverbs_qp_attr k;
    memset(&k, 0, sizeof k);
    k.qp_state = 5;   /* not copied: callers set the state themselves */
    k.cur_qp_state = 3;
    k.path_mtu = IBV_MTU_4096;
    k.qkey = 0x11112222;
    k.rq_psn = 0x123456;
    k.sq_psn = 0x654321;
    k.dest_qp_num = 0x77;
    k.qp_access_flags = IBV_ACCESS_REMOTE_READ;
    k.max_send_wr = 31;
    k.max_inline_data = 64;
    k.ah_attr.grh.dgid[15] = 9;
    k.ah_attr.grh.flow_label = 0xabcde;
    k.ah_attr.grh.sgid_index = 3;
    k.ah_attr.grh.hop_limit = 64;
    k.ah_attr.dlid = 0x1234;
    k.ah_attr.is_global = 1;
    k.ah_attr.port_num = 1;
    k.alt_ah_attr.sl = 2;
    k.pkey_index = 1;
    k.max_dest_rd_atomic = 16;
    k.timeout = 14;
    k.retry_cnt = 7;
    k.rnr_retry = 6;
    k.alt_timeout = 9;
    struct ibv_qp_attr a;
    memset(&a, 0xEE, sizeof a);
    ibv_copy_qp_attr_from_kern(&a, &k);
    CHECK_EQ(a.qp_state, 0xEEEEEEEE);
    CHECK_EQ(a.cur_qp_state, 3);
    CHECK_EQ(a.path_mtu, IBV_MTU_4096);
    CHECK_EQ(a.qkey, 0x11112222);
    CHECK_EQ(a.rq_psn, 0x123456);
    CHECK_EQ(a.sq_psn, 0x654321);
    CHECK_EQ(a.dest_qp_num, 0x77);
    CHECK_EQ(a.qp_access_flags, IBV_ACCESS_REMOTE_READ);
    CHECK_EQ(a.cap.max_send_wr, 31);
    CHECK_EQ(a.cap.max_inline_data, 64);
    CHECK_EQ(a.ah_attr.grh.dgid.raw[15], 9);
    CHECK_EQ(a.ah_attr.grh.flow_label, 0xabcde);
    CHECK_EQ(a.ah_attr.grh.sgid_index, 3);
    CHECK_EQ(a.ah_attr.grh.hop_limit, 64);
    CHECK_EQ(a.ah_attr.dlid, 0x1234);
    CHECK_EQ(a.ah_attr.is_global, 1);
    CHECK_EQ(a.alt_ah_attr.sl, 2);
    CHECK_EQ(a.pkey_index, 1);
    CHECK_EQ(a.max_dest_rd_atomic, 16);
    CHECK_EQ(a.timeout, 14);
    CHECK_EQ(a.retry_cnt, 7);
    CHECK_EQ(a.rnr_retry, 6);
    CHECK_EQ(a.alt_timeout, 9);

    struct ibv_sa_path_rec p;
    memset(&p, 0, sizeof p);
    p.dgid.raw[0] = 0xfe;
    p.sgid.raw[15] = 1;
    p.dlid = htons(7);
    p.pkey = htons(0xffff);
    p.flow_label = htonl(0x12345);
    p.mtu = IBV_MTU_1024;
    p.rate = 3;
    p.packet_life_time = 18;
    p.preference = 1;
    p.reversible = 1;
    p.numb_path = 1;
    struct ib_user_path_rec kp;
    memset(&kp, 0, sizeof kp);
    ibv_copy_path_rec_to_kern(&kp, &p);
    CHECK_EQ(kp.dgid[0], 0xfe);
    CHECK_EQ(kp.sgid[15], 1);
    CHECK_EQ(kp.dlid, htons(7));
    CHECK_EQ(kp.pkey, htons(0xffff));
    CHECK_EQ(kp.flow_label, htonl(0x12345));
    CHECK_EQ(kp.mtu, IBV_MTU_1024);
    CHECK_EQ(kp.packet_life_time, 18);
    struct ibv_sa_path_rec back;
    memset(&back, 0, sizeof back);
    ibv_copy_path_rec_from_kern(&back, &kp);
    CHECK(memcmp(&back, &p, sizeof p) == 0);
}

/* ---- IBVERBS_1.0 ---- */

#define V10(ret, name, ...) typedef ret (*name##_1_0_fn)(__VA_ARGS__); static name##_1_0_fn name##_1_0
V10(struct ibv_device_1_0 **, ibv_get_device_list, int *);
V10(void, ibv_free_device_list, struct ibv_device_1_0 **);
V10(const char *, ibv_get_device_name, struct ibv_device_1_0 *);
V10(struct ibv_context_1_0 *, ibv_open_device, struct ibv_device_1_0 *);
V10(int, ibv_close_device, struct ibv_context_1_0 *);
V10(struct ibv_pd_1_0 *, ibv_alloc_pd, struct ibv_context_1_0 *);
V10(int, ibv_dealloc_pd, struct ibv_pd_1_0 *);
V10(struct ibv_mr_1_0 *, ibv_reg_mr, struct ibv_pd_1_0 *, void *, size_t, int);
V10(int, ibv_dereg_mr, struct ibv_mr_1_0 *);
V10(struct ibv_cq_1_0 *, ibv_create_cq, struct ibv_context_1_0 *, int, void *, struct ibv_comp_channel *, int);
V10(int, ibv_destroy_cq, struct ibv_cq_1_0 *);
V10(struct ibv_qp_1_0 *, ibv_create_qp, struct ibv_pd_1_0 *, struct ibv_qp_init_attr_1_0 *);
V10(int, ibv_modify_qp, struct ibv_qp_1_0 *, struct ibv_qp_attr *, int);
V10(int, ibv_query_qp, struct ibv_qp_1_0 *, struct ibv_qp_attr *, int, struct ibv_qp_init_attr_1_0 *);
V10(int, ibv_destroy_qp, struct ibv_qp_1_0 *);

static int bind_1_0(void)
{
#define BIND(name) if (!(name##_1_0 = (name##_1_0_fn)dlvsym(RTLD_DEFAULT, #name, "IBVERBS_1.0"))) return -1
    BIND(ibv_get_device_list);
    BIND(ibv_free_device_list);
    BIND(ibv_get_device_name);
    BIND(ibv_open_device);
    BIND(ibv_close_device);
    BIND(ibv_alloc_pd);
    BIND(ibv_dealloc_pd);
    BIND(ibv_reg_mr);
    BIND(ibv_dereg_mr);
    BIND(ibv_create_cq);
    BIND(ibv_destroy_cq);
    BIND(ibv_create_qp);
    BIND(ibv_modify_qp);
    BIND(ibv_query_qp);
    BIND(ibv_destroy_qp);
#undef BIND
    return 0;
}

struct side10 {
    struct ibv_context_1_0 *ctx;
    struct ibv_pd_1_0 *pd;
    struct ibv_cq_1_0 *cq;
    struct ibv_qp_1_0 *qp;
    struct ibv_mr_1_0 *mr;
    char buf[256];
    int cq_tag;
};

static int connect_1_0(struct ibv_qp_1_0 *qp, uint32_t dest_qpn, const char *dest_ip)
{
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT, .port_num = 1,
                            .qp_access_flags = IBV_ACCESS_REMOTE_WRITE};
    int rc = ibv_modify_qp_1_0(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    if (rc)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = dest_qpn;
    a.rq_psn = 0x100;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 1;
    a.ah_attr.is_global = 1;
    a.ah_attr.port_num = 1;
    a.ah_attr.grh.hop_limit = 1;
    a.ah_attr.grh.sgid_index = 3;
    sv_test_gid(&a.ah_attr.grh.dgid, dest_ip);
    rc = ibv_modify_qp_1_0(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (rc)
        return rc;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.sq_psn = 0x100;
    a.max_rd_atomic = 1;
    return ibv_modify_qp_1_0(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                         IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void side10_init(struct side10 *s, struct ibv_device_1_0 *dev)
{
    s->ctx = ibv_open_device_1_0(dev);
    CHECK(s->ctx != NULL);
    if (!s->ctx)
        return;
    CHECK(s->ctx->real_context != NULL);
    CHECK(s->ctx->ops.post_send != NULL && s->ctx->ops.poll_cq != NULL);
    s->pd = ibv_alloc_pd_1_0(s->ctx);
    s->cq = ibv_create_cq_1_0(s->ctx, 16, &s->cq_tag, NULL, 0);
    s->mr = s->pd ? ibv_reg_mr_1_0(s->pd, s->buf, sizeof s->buf, IBV_ACCESS_LOCAL_WRITE) : NULL;
    CHECK(s->pd && s->cq && s->mr);
    if (!s->pd || !s->cq || !s->mr)
        return;
    CHECK_EQ(s->mr->lkey, s->mr->real_mr->lkey);
    CHECK(s->cq->cq_context == &s->cq_tag);
    struct ibv_qp_init_attr_1_0 init = {.send_cq = s->cq, .recv_cq = s->cq, .qp_type = IBV_QPT_RC,
                                        .cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
                                                .max_recv_sge = 1}};
    s->qp = ibv_create_qp_1_0(s->pd, &init);
    CHECK(s->qp != NULL);
}

static void side10_fini(struct side10 *s)
{
    if (s->qp)
        CHECK_EQ(ibv_destroy_qp_1_0(s->qp), 0);
    if (s->mr)
        CHECK_EQ(ibv_dereg_mr_1_0(s->mr), 0);
    if (s->cq)
        CHECK_EQ(ibv_destroy_cq_1_0(s->cq), 0);
    if (s->pd)
        CHECK_EQ(ibv_dealloc_pd_1_0(s->pd), 0);
    if (s->ctx)
        CHECK_EQ(ibv_close_device_1_0(s->ctx), 0);
}

static int poll10(struct side10 *s, struct ibv_wc *wc)
{
    uint64_t end = sv_test_ms() + SV_TEST_WAIT_MS;
    do {
        int n = s->ctx->ops.poll_cq(s->cq, 1, wc);
        if (n)
            return n;
        usleep(100);
    } while (sv_test_ms() < end);
    return 0;
}

static void test_compat_1_0(void)
{
    CHECK_EQ(bind_1_0(), 0);
    if (!ibv_destroy_qp_1_0)
        return;
    char ipa[32], ipb[32], spec[128];
    sv_test_ip(ipa, sizeof ipa, 1);
    sv_test_ip(ipb, sizeof ipb, 2);
    snprintf(spec, sizeof spec, "a@%s,b@%s", ipa, ipb);
    CHECK_EQ(softverbs_configure(spec), 0);
    int n = -1;
    struct ibv_device_1_0 **list = ibv_get_device_list_1_0(&n);
    CHECK(list != NULL);
    CHECK_EQ(n, 2);
    if (!list || n != 2)
        return;
    CHECK(list[2] == NULL);
    CHECK(strcmp(ibv_get_device_name_1_0(list[0]), "a") == 0);
    CHECK(strcmp(ibv_get_device_name_1_0(list[1]), "b") == 0);

    struct side10 a = {0}, b = {0};
    side10_init(&a, list[0]);
    side10_init(&b, list[1]);
    if (a.qp && b.qp) {
        CHECK_EQ(connect_1_0(a.qp, b.qp->qp_num, ipb), 0);
        CHECK_EQ(connect_1_0(b.qp, a.qp->qp_num, ipa), 0);
        CHECK_EQ(a.qp->state, IBV_QPS_RTS);

        struct ibv_qp_attr qa;
        struct ibv_qp_init_attr_1_0 qi;
        CHECK_EQ(ibv_query_qp_1_0(a.qp, &qa, IBV_QP_STATE, &qi), 0);
        CHECK_EQ(qa.qp_state, IBV_QPS_RTS);
        CHECK(qi.send_cq == a.cq);

        struct ibv_sge rsge = {.addr = (uintptr_t)b.buf, .length = sizeof b.buf, .lkey = b.mr->lkey};
        struct ibv_recv_wr_1_0 rwr = {.wr_id = 7, .sg_list = &rsge, .num_sge = 1}, *rbad = NULL;
        CHECK_EQ(b.ctx->ops.post_recv(b.qp, &rwr, &rbad), 0);
        strcpy(a.buf, "hello 1.0");
        struct ibv_sge ssge = {.addr = (uintptr_t)a.buf, .length = 10, .lkey = a.mr->lkey};
        struct ibv_send_wr_1_0 swr = {.wr_id = 9, .sg_list = &ssge, .num_sge = 1, .opcode = IBV_WR_SEND,
                                      .send_flags = IBV_SEND_SIGNALED}, *sbad = NULL;
        CHECK_EQ(a.ctx->ops.post_send(a.qp, &swr, &sbad), 0);
        struct ibv_wc wc;
        CHECK_EQ(poll10(&a, &wc), 1);
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
        CHECK_EQ(wc.wr_id, 9);
        CHECK_EQ(poll10(&b, &wc), 1);
        CHECK_EQ(wc.status, IBV_WC_SUCCESS);
        CHECK_EQ(wc.wr_id, 7);
        CHECK_EQ(wc.byte_len, 10);
        CHECK(strcmp(b.buf, "hello 1.0") == 0);

        /* a bad WR is reported as the caller's 1.0 WR */
        struct ibv_send_wr_1_0 bad2 = swr;
        bad2.num_sge = 99;
        struct ibv_send_wr_1_0 good1 = swr;
        good1.send_flags = 0;
        good1.next = &bad2;
        sbad = NULL;
        CHECK_EQ(a.ctx->ops.post_send(a.qp, &good1, &sbad), EINVAL);
        CHECK(sbad == &bad2);
    }
    side10_fini(&a);
    side10_fini(&b);
    ibv_free_device_list_1_0(list);
}

/* ---- IBVERBS_PRIVATE_34 on a softverbs device ---- */

static void test_private(void)
{
    char ip[32], spec[64];
    sv_test_ip(ip, sizeof ip, 3);
    snprintf(spec, sizeof spec, "p@%s", ip);
    CHECK_EQ(softverbs_configure(spec), 0);
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    CHECK_EQ(n, 1);
    if (n != 1)
        return;
    struct verbs_device *vdev = (struct verbs_device *)list[0];
    CHECK(vdev->ops != NULL && strcmp(vdev->ops->name, "softverbs") == 0);
    CHECK(vdev->sysfs == NULL);

    int dummy = 0;
    errno = 0;
    CHECK(verbs_open_device(list[0], &dummy) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    struct ibv_context *ctx = verbs_open_device(list[0], NULL);
    CHECK(ctx != NULL);
    errno = 0;
    CHECK(_verbs_init_and_alloc_context(list[0], -1, 4096, NULL, 0) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    if (ctx) {
        struct ibv_pd pd;
        CHECK_EQ(ibv_cmd_alloc_pd(ctx, &pd, NULL, 0, NULL, 0), EOPNOTSUPP);
        CHECK_CONTAINS(softverbs_last_error(), "ibv_cmd_alloc_pd");
        CHECK_EQ(execute_ioctl(ctx, NULL), EOPNOTSUPP);
        struct ibv_send_wr wr = {0}, *bad = NULL;
        CHECK_EQ(ibv_cmd_post_send(NULL, &wr, &bad), EOPNOTSUPP);
        CHECK(bad == &wr);

        struct ibv_cq cq;
        memset(&cq, 0xAB, sizeof cq);
        verbs_init_cq(&cq, ctx, NULL, &dummy);
        CHECK(cq.context == ctx && cq.channel == NULL && cq.cq_context == &dummy);
        CHECK_EQ(cq.comp_events_completed, 0);
        pthread_cond_destroy(&cq.cond);
        pthread_mutex_destroy(&cq.mutex);
        CHECK_EQ(ibv_close_device(ctx), 0);
    }

    /* attributes of this frame plus every linked frame */
    struct {
        struct ibv_command_buffer b;
        struct ib_uverbs_attr attrs[4];
    } f1, f2;
    memset(&f1, 0, sizeof f1);
    memset(&f2, 0, sizeof f2);
    f2.b.next_attr = &f2.b.hdr.attrs[3];
    f1.b.next = &f2.b;
    f1.b.next_attr = &f1.b.hdr.attrs[2];
    CHECK_EQ(__ioctl_final_num_attrs(1, &f1.b), 6);
    CHECK_EQ(__ioctl_final_num_attrs(1, NULL), 1);
    ibv_free_device_list(list);
}

int main(void)
{
    test_kern_copies();
    test_compat_1_0();
    test_private();
    return sv_check_report("so_test_abi");
}
