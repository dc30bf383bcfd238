/* The control path through the public verbs API: device/port/GID/P_Key queries, the device
 * conflict between processes, create-time checks and caps rounding, EBUSY on destroy, reg_mr
 * access rules, counters and the virtual sysfs. One device, no traffic. (modify_qp and
 * posting: test_sv_modify.c.) */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "sv_check.h"
#include "sv_testdev.h"

enum test_gid_type { TEST_GID_ROCE_V1, TEST_GID_ROCE_V2 };
int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index, enum test_gid_type *type);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

static char ip1[32], ip3[32];

static void test_queries(struct ibv_context *ctx)
{
    struct ibv_device_attr da;
    CHECK_EQ(ibv_query_device(ctx, &da), 0);
    CHECK(!strcmp(da.fw_ver, "0.0.0"));
    CHECK_EQ(da.vendor_id, 0xFFFFFF);
    CHECK_EQ(da.phys_port_cnt, 1);
    CHECK_EQ(da.max_qp_wr, 1 << 20);
    CHECK_EQ(da.max_cqe, 32767);
    CHECK_EQ(da.atomic_cap, IBV_ATOMIC_HCA);

    struct ibv_device_attr_ex dx;
    CHECK_EQ(ibv_query_device_ex(ctx, NULL, &dx), 0);   /* through verbs_context */
    CHECK_EQ(dx.orig_attr.max_qp_rd_atom, 128);

    struct ibv_port_attr pa;
    CHECK_EQ(ibv_query_port(ctx, 1, &pa), 0);
    CHECK_EQ(pa.state, IBV_PORT_ACTIVE);
    CHECK_EQ(pa.link_layer, IBV_LINK_LAYER_ETHERNET);
    CHECK_EQ(pa.max_mtu, IBV_MTU_4096);
    CHECK_EQ(pa.active_mtu, IBV_MTU_1024);   /* link MTU 1500 */
    CHECK_EQ(pa.pkey_tbl_len, 1);
    CHECK_EQ(pa.gid_tbl_len, 1024);
    CHECK_EQ(pa.lid, 0);
    CHECK(pa.flags & IBV_QPF_GRH_REQUIRED);
    CHECK_EQ(ibv_query_port(ctx, 2, &pa), EINVAL);

    union ibv_gid gid, want;
    CHECK_EQ(ibv_query_gid(ctx, 1, 3, &gid), 0);
    sv_test_gid(&want, ip1);
    CHECK(!memcmp(&gid, &want, sizeof gid));
    CHECK_EQ(ibv_query_gid(ctx, 1, 2, &gid), 0);
    CHECK(!memcmp(&gid, &want, sizeof gid));
    CHECK_EQ(ibv_query_gid(ctx, 1, 0, &gid), 0);
    CHECK(gid.raw[0] == 0xfe && gid.raw[1] == 0x80 && gid.raw[11] == 0xff && gid.raw[12] == 0xfe);
    CHECK_EQ(ibv_query_gid(ctx, 1, 4, &gid), 0);   /* empty slot: zero GID */
    CHECK(gid.global.subnet_prefix == 0 && gid.global.interface_id == 0);
    CHECK_EQ(ibv_query_gid(ctx, 1, 1024, &gid), -1);
    enum test_gid_type t;
    CHECK_EQ(ibv_query_gid_type(ctx, 1, 3, &t), 0);
    CHECK_EQ(t, TEST_GID_ROCE_V2);
    CHECK_EQ(ibv_query_gid_type(ctx, 1, 2, &t), 0);
    CHECK_EQ(t, TEST_GID_ROCE_V1);
    struct ibv_gid_entry e;
    CHECK_EQ(ibv_query_gid_ex(ctx, 1, 1, &e, 0), 0);
    CHECK_EQ(e.gid_type, IBV_GID_TYPE_ROCE_V2);
    CHECK_EQ(ibv_query_gid_ex(ctx, 1, 4, &e, 0), ENODATA);
    struct ibv_gid_entry tbl[8];
    CHECK_EQ(ibv_query_gid_table(ctx, tbl, 8, 0), 4);

    __be16 pkey;
    CHECK_EQ(ibv_query_pkey(ctx, 1, 0, &pkey), 0);
    CHECK_EQ(ntohs(pkey), 0xFFFF);
    CHECK_EQ(ibv_query_pkey(ctx, 1, 1, &pkey), -1);
    CHECK_EQ(ibv_get_pkey_index(ctx, 1, htons(0xFFFF)), 0);

    char buf[128];
    CHECK(ibv_read_sysfs_file(ctx->device->ibdev_path, "ports/1/gid_attrs/types/3", buf, sizeof buf) > 0);
    CHECK(!strcmp(buf, "RoCE v2"));
    CHECK(ibv_read_sysfs_file(ctx->device->ibdev_path, "fw_ver", buf, sizeof buf) > 0);
    CHECK(!strcmp(buf, "0.0.0"));
    CHECK(ibv_read_sysfs_file(ctx->device->ibdev_path, "ports/1/hw_counters/rcvd_pkts", buf, sizeof buf) > 0);
    CHECK(ibv_read_sysfs_file(ctx->device->ibdev_path, "ports/1/hw_counters/nonsense", buf, sizeof buf) < 0);

    const char *names[64];
    uint64_t values[64];
    int n = softverbs_query_counters(ctx, names, values, 64);
    CHECK(n > 20 && n <= 64);
    CHECK(!strcmp(names[0], "sent_pkts"));
    CHECK_EQ(sv_test_counter(ctx, "rcvd_bad_icrc"), 0);
    CHECK_EQ(softverbs_query_counters(NULL, names, values, 64), -1);
}

static void test_open_conflict(void)
{
    /* another "host" (here: a plain socket) holding IP:4791 makes open fail with EADDRINUSE */
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(4791)};
    inet_pton(AF_INET, ip3, &sa.sin_addr);
    CHECK_EQ(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    char spec[128];
    snprintf(spec, sizeof spec, "busy@%s", ip3);
    CHECK(softverbs_configure(spec) == 0);
    struct ibv_device **list = ibv_get_device_list(NULL);
    errno = 0;
    CHECK(ibv_open_device(list[0]) == NULL);
    CHECK_EQ(errno, EADDRINUSE);
    CHECK_CONTAINS(softverbs_last_error(), "already bound by another process");
    ibv_free_device_list(list);
    close(fd);
}

static void test_cq(struct ibv_context *ctx)
{
    struct ibv_cq *cq = ibv_create_cq(ctx, 501, NULL, NULL, 0);
    CHECK(cq != NULL);
    CHECK_EQ(cq->cqe, 511);   /* rxe: roundup_pow_of_two(n + 1) - 1 */
    CHECK_EQ(ibv_resize_cq(cq, 1000), 0);
    CHECK_EQ(cq->cqe, 1023);
    CHECK_EQ(ibv_destroy_cq(cq), 0);
    errno = 0;
    CHECK(ibv_create_cq(ctx, 0, NULL, NULL, 0) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_create_cq(ctx, 32768, NULL, NULL, 0) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_create_cq(ctx, 10, NULL, NULL, 1) == NULL);   /* num_comp_vectors is 1 */
    CHECK_EQ(errno, EINVAL);
}

static void test_qp_create(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq)
{
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 1, .max_recv_wr = 500, .max_send_sge = 1, .max_recv_sge = 1}};
    struct ibv_qp *qp = ibv_create_qp(pd, &init);
    CHECK(qp != NULL);
    CHECK_EQ(qp->qp_num, 17);   /* the first user QP, as on rxe */
    CHECK_EQ(init.cap.max_send_wr, 1);
    CHECK_EQ(init.cap.max_recv_wr, 511);
    CHECK_EQ(init.cap.max_send_sge, 1);
    CHECK_EQ(init.cap.max_inline_data, 16);   /* one 16-byte SGE's worth */
    struct ibv_qp_attr a;
    struct ibv_qp_init_attr qi;
    CHECK_EQ(ibv_query_qp(qp, &a, IBV_QP_CAP, &qi), 0);
    CHECK_EQ(a.qp_state, IBV_QPS_RESET);
    CHECK_EQ(a.path_mtu, IBV_MTU_256);
    CHECK_EQ(qi.cap.max_recv_wr, 511);
    CHECK_EQ(qi.qp_type, IBV_QPT_RC);
    CHECK_EQ(ibv_destroy_qp(qp), 0);

    struct ibv_qp_init_attr bad = init;
    bad.cap.max_send_sge = 33;
    errno = 0;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);
    bad = init;
    bad.cap.max_inline_data = 513;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);
    bad = init;
    bad.cap.max_recv_wr = (1u << 20) + 1;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);
    bad = init;
    bad.qp_type = IBV_QPT_RAW_PACKET;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    bad = init;
    bad.qp_type = (enum ibv_qp_type)7;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);
    bad = init;
    bad.recv_cq = NULL;
    CHECK(ibv_create_qp(pd, &bad) == NULL);
    CHECK_EQ(errno, EINVAL);

    /* create_qp_ex: the plain subset works; send ops the transport lacks are EOPNOTSUPP
     * (the supported ones are test_sv_qp_ex's) */
    struct ibv_qp_init_attr_ex ex = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD, .pd = pd,
                                     .comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS,
                                     .cap = {.max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1, .max_recv_sge = 1}};
    qp = ibv_create_qp_ex(ctx, &ex);
    CHECK(qp != NULL);
    CHECK_EQ(ex.cap.max_send_wr, 3);
    if (qp)
        ibv_destroy_qp(qp);
    ex.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    ex.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE;
    errno = 0;
    CHECK(ibv_create_qp_ex(ctx, &ex) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
}

static void test_busy_and_mr(struct ibv_context *ctx)
{
    struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
    CHECK(ch != NULL && ch->fd >= 0);
    struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, ch, 0);
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_qp *qp = sv_test_make_qp(pd, cq, IBV_QPT_RC, 1);
    CHECK_EQ(ibv_destroy_cq(cq), EBUSY);
    CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
    CHECK_EQ(ibv_destroy_comp_channel(ch), EBUSY);
    CHECK_EQ(ibv_destroy_qp(qp), 0);

    static char mem[8192];
    errno = 0;
    CHECK(ibv_reg_mr(pd, mem, sizeof mem, IBV_ACCESS_REMOTE_WRITE) == NULL);   /* needs LOCAL_WRITE */
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_reg_mr(pd, mem, sizeof mem, IBV_ACCESS_REMOTE_ATOMIC) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_reg_mr(pd, mem, sizeof mem, IBV_ACCESS_ON_DEMAND) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    CHECK(ibv_reg_mr(pd, mem, sizeof mem, 1 << 11) == NULL);   /* unknown bit */
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_reg_mr(pd, mem, 0, IBV_ACCESS_LOCAL_WRITE) == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK(ibv_reg_mr(pd, (void *)4096, 4096, IBV_ACCESS_LOCAL_WRITE) == NULL);   /* not mapped */
    CHECK_EQ(errno, EFAULT);
    struct ibv_mr *mr = ibv_reg_mr(pd, mem, sizeof mem,
                                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
    CHECK(mr != NULL);
    if (mr) {
        CHECK_EQ(mr->lkey, mr->rkey);
        CHECK(mr->addr == mem && mr->length == sizeof mem);
        CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
        CHECK_EQ(ibv_dereg_mr(mr), 0);
    }
    CHECK_EQ(ibv_destroy_cq(cq), 0);
    CHECK_EQ(ibv_destroy_comp_channel(ch), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
}

/* ibv_import_device on a dup of a context's command fd, as uverbs: a second context sharing the
 * first one's objects; ibv_import_pd/ibv_import_mr by handle; the original closing first. */
static void test_import(const char *spec)
{
    struct ibv_context *ctx = sv_test_open(spec, "ctl");
    CHECK(ctx != NULL && ctx->cmd_fd >= 0);
    if (!ctx)
        return;
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    static char buf[8192] __attribute__((aligned(4096)));
    struct ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    CHECK(pd != NULL && mr != NULL);
    int fd = dup(ctx->cmd_fd);
    struct ibv_context *imp = ibv_import_device(fd);
    CHECK(imp != NULL && imp != ctx);
    if (!imp)
        return;
    CHECK_EQ(imp->cmd_fd, fd);
    CHECK(imp->device == ctx->device);
    struct ibv_device_attr da;
    CHECK_EQ(ibv_query_device(imp, &da), 0);
    struct ibv_pd *ipd = ibv_import_pd(imp, pd->handle);
    CHECK(ipd != NULL && ipd != pd && ipd->handle == pd->handle && ipd->context == imp);
    struct ibv_mr *imr = ipd ? ibv_import_mr(ipd, mr->handle) : NULL;
    CHECK(imr != NULL && imr->lkey == mr->lkey && imr->rkey == mr->rkey && imr->length == mr->length);
    CHECK(imr && imr->addr == NULL);                     /* the kernel's query of an MR has no address */
    /* objects of the imported context and PD mix with the original's, and the PD counts them */
    struct ibv_cq *cq = ibv_create_cq(imp, 4, NULL, NULL, 0);
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1}};
    struct ibv_qp *qp = ipd ? ibv_create_qp(ipd, &init) : NULL;
    CHECK(cq != NULL && qp != NULL);
    CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
    struct ibv_qp_attr ia = {.qp_state = IBV_QPS_INIT, .port_num = 1, .qp_access_flags = IBV_ACCESS_REMOTE_WRITE};
    CHECK_EQ(ibv_modify_qp(qp, &ia, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS), 0);
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = 64, .lkey = imr ? imr->lkey : 0};
    struct ibv_recv_wr wr = {.sg_list = &sge, .num_sge = 1}, *bad = NULL;
    CHECK_EQ(ibv_post_recv(qp, &wr, &bad), 0);          /* the imported MR's key in the imported PD's QP */
    /* refused: a pipe is no context's fd, a handle no PD or MR has */
    int p[2];
    CHECK_EQ(pipe(p), 0);
    errno = 0;
    CHECK(ibv_import_device(p[0]) == NULL && errno == EINVAL);
    close(p[0]);
    close(p[1]);
    CHECK(ibv_import_device(-1) == NULL && errno == EINVAL);
    CHECK(ibv_import_pd(imp, 0x7fffffff) == NULL && errno == EINVAL);
    CHECK(ipd && ibv_import_mr(ipd, 0x7fffffff) == NULL && errno == EINVAL);
    CHECK_EQ(ibv_destroy_qp(qp), 0);
    ibv_unimport_mr(imr);
    ibv_unimport_pd(ipd);
    CHECK_EQ(ibv_dereg_mr(mr), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
    /* the original closes first: the imported context still works, and closing it ends both */
    CHECK_EQ(ibv_close_device(ctx), 0);
    CHECK_EQ(ibv_close_device(ctx), EINVAL);            /* closed once already */
    struct ibv_pd *late = ibv_alloc_pd(imp);
    CHECK(late != NULL);
    CHECK_EQ(ibv_dealloc_pd(late), 0);
    CHECK_EQ(ibv_destroy_cq(cq), 0);
    CHECK_EQ(ibv_close_device(imp), 0);
    CHECK_EQ(fcntl(fd, F_GETFD), -1);                    /* the imported context closed the fd it owned */
}

int main(void)
{
    sv_test_ip(ip1, sizeof ip1, 1);
    sv_test_ip(ip3, sizeof ip3, 3);
    char spec[128];
    snprintf(spec, sizeof spec, "ctl@%s", ip1);
    struct ibv_context *ctx = sv_test_open(spec, "ctl");
    CHECK(ctx != NULL);
    if (!ctx)
        return sv_check_report("test_sv_control");
    struct ibv_context *again = sv_test_open(spec, "ctl");   /* same process: shares the socket */
    CHECK(again != NULL);
    if (again)
        CHECK_EQ(ibv_close_device(again), 0);
    test_queries(ctx);
    test_cq(ctx);
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
    test_qp_create(ctx, pd, cq);
    test_busy_and_mr(ctx);
    CHECK_EQ(ibv_destroy_cq(cq), 0);
    CHECK_EQ(ibv_dealloc_pd(pd), 0);
    CHECK_EQ(ibv_close_device(ctx), 0);
    test_open_conflict();
    test_import(spec);
    CHECK(!strcmp(ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR), "transport retry counter exceeded"));
    CHECK(!strcmp(ibv_wc_status_str(IBV_WC_WR_FLUSH_ERR), "Work Request Flushed Error"));
    CHECK(!strcmp(ibv_event_type_str(IBV_EVENT_COMM_EST), "communication established"));
    CHECK_EQ(ibv_rate_to_mbps(IBV_RATE_100_GBPS), 103125);
    softverbs_configure(NULL);
    return sv_check_report("test_sv_control");
}
