/* A program that, like NCCL, finds libibverbs with dlopen and its verbs with dlvsym, and links
 * nothing of it: `rdmatrace record` must still see its calls (the tracer is found by soname).
 * It also posts chains through the inline ops: three receive WRs of two SGEs each on an INIT QP
 * (accepted), then two send WRs on the same QP (refused in INIT: the error and bad_wr are recorded).
 * Its receive CQ is an extended one (ibv_create_cq_ex): moving the QP to ERR flushes the three
 * receives, which are then read with ibv_start_poll / ibv_next_poll / ibv_end_poll. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <infiniband/verbs.h>

#define SYM(name) __typeof__(&name) p_##name = (__typeof__(&name))dlvsym(h, #name, "IBVERBS_1.1")

static char buf[6][256];

int main(void)
{
    void *h = dlopen("libibverbs.so.1", RTLD_NOW);
    if (h == NULL) {
        fprintf(stderr, "dlopen_verbs: %s\n", dlerror());
        return 1;
    }
    SYM(ibv_get_device_list);
    SYM(ibv_free_device_list);
    SYM(ibv_open_device);
    SYM(ibv_close_device);
    SYM(ibv_alloc_pd);
    SYM(ibv_dealloc_pd);
    SYM(ibv_create_cq);
    SYM(ibv_destroy_cq);
    SYM(ibv_create_qp);
    SYM(ibv_modify_qp);
    SYM(ibv_destroy_qp);
    SYM(ibv_dereg_mr);
    struct ibv_mr *(*p_reg_mr)(struct ibv_pd *, void *, size_t, int) =
        (struct ibv_mr * (*)(struct ibv_pd *, void *, size_t, int))dlvsym(h, "ibv_reg_mr", "IBVERBS_1.1");
    if (!p_ibv_get_device_list || !p_ibv_open_device || !p_ibv_alloc_pd || !p_reg_mr || !p_ibv_create_qp) {
        fprintf(stderr, "dlopen_verbs: a verb is missing\n");
        return 1;
    }
    int n = 0;
    struct ibv_device **list = p_ibv_get_device_list(&n);
    if (list == NULL || n < 1) {
        fprintf(stderr, "dlopen_verbs: no device\n");
        return 1;
    }
    struct ibv_context *ctx = p_ibv_open_device(list[0]);
    struct ibv_pd *pd = ctx != NULL ? p_ibv_alloc_pd(ctx) : NULL;
    struct ibv_mr *mr = pd != NULL ? p_reg_mr(pd, buf, sizeof buf, IBV_ACCESS_LOCAL_WRITE) : NULL;
    struct ibv_cq *cq = ctx != NULL ? p_ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;
    struct ibv_cq_init_attr_ex cq_attr = {.cqe = 16, .wc_flags = IBV_WC_STANDARD_FLAGS};
    struct ibv_cq_ex *cqx = ctx != NULL ? ibv_create_cq_ex(ctx, &cq_attr) : NULL;
    if (cqx == NULL) {
        fprintf(stderr, "dlopen_verbs: ibv_create_cq_ex failed\n");
        return 1;
    }
    struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = ibv_cq_ex_to_cq(cqx), .qp_type = IBV_QPT_RC,
                                    .cap = {.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 2, .max_recv_sge = 2}};
    struct ibv_qp *qp = cq != NULL && mr != NULL ? p_ibv_create_qp(pd, &init) : NULL;
    struct ibv_qp_attr attr = {.qp_state = IBV_QPS_INIT, .port_num = 1, .qp_access_flags = IBV_ACCESS_LOCAL_WRITE};
    int ok = qp != NULL
             && p_ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0;
    if (ok) {
        struct ibv_sge sge[6];
        struct ibv_recv_wr rwr[3];
        for (int i = 0; i < 6; i++) {
            sge[i] = (struct ibv_sge){.addr = (uintptr_t)buf[i], .length = 100 + i, .lkey = mr->lkey};
        }
        for (int i = 0; i < 3; i++) {
            rwr[i] = (struct ibv_recv_wr){.wr_id = 10 + i, .sg_list = &sge[2 * i], .num_sge = 2,
                                          .next = i < 2 ? &rwr[i + 1] : NULL};
        }
        struct ibv_recv_wr *bad_r = NULL;
        ok = ibv_post_recv(qp, rwr, &bad_r) == 0;
        struct ibv_send_wr swr[2] = {
            {.wr_id = 20, .sg_list = &sge[0], .num_sge = 1, .opcode = IBV_WR_SEND, .next = &swr[1]},
            {.wr_id = 21, .sg_list = &sge[1], .num_sge = 1, .opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htobe32(7)},
        };
        struct ibv_send_wr *bad_s = NULL;
        ok = ok && ibv_post_send(qp, swr, &bad_s) != 0 && bad_s == &swr[0];
        struct ibv_qp_attr err = {.qp_state = IBV_QPS_ERR};
        ok = ok && p_ibv_modify_qp(qp, &err, IBV_QP_STATE) == 0;
        int flushed = 0;
        struct ibv_poll_cq_attr pa = {0};
        for (int tries = 0; ok && flushed < 3 && tries < 100000; tries++) {
            if (ibv_start_poll(cqx, &pa) != 0) {
                continue;
            }
            do {
                flushed += cqx->status == IBV_WC_WR_FLUSH_ERR;
            } while (ibv_next_poll(cqx) == 0);
            ibv_end_poll(cqx);
        }
        ok = ok && flushed == 3;
    }
    ok = ok && p_ibv_destroy_qp(qp) == 0 && p_ibv_destroy_cq(cq) == 0 && p_ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)) == 0 && p_ibv_dereg_mr(mr) == 0
         && p_ibv_dealloc_pd(pd) == 0 && p_ibv_close_device(ctx) == 0;
    p_ibv_free_device_list(list);
    printf("dlopen_verbs: %s\n", ok ? "ok" : "failed");
    return ok ? 0 : 1;
}
