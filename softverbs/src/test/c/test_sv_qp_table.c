/* The modify-QP transition table (rdma-facts §1): legal pairs, required and optional masks per
 * QP type, and the tricky rows (RESET->ERR illegal, RTR->RTR illegal, RTS->RTS with mask 0
 * legal, X->RESET with extra attributes illegal, CUR_STATE only from RTR/RTS/SQD/SQE). */
#include <errno.h>

#include "sv_check.h"
#include "sv_loc.h"

#define A(x) IBV_QP_##x
#define S IBV_QP_STATE

/* rdma-facts §1.2: the validity matrix, the same for RC, UC and UD */
static const char valid[7][8] = {
    /*             RESET INIT RTR RTS SQD SQE ERR */
    [IBV_QPS_RESET] = "YY.....",
    [IBV_QPS_INIT]  = "YYY...Y",
    [IBV_QPS_RTR]   = "Y..Y..Y",
    [IBV_QPS_RTS]   = "Y..YY.Y",
    [IBV_QPS_SQD]   = "Y..YY.Y",
    [IBV_QPS_SQE]   = "Y..Y..Y",
    [IBV_QPS_ERR]   = "Y.....Y",
};

static int check(enum ibv_qp_type t, enum ibv_qp_state from, enum ibv_qp_state to, uint32_t mask)
{
    return sv_qp_transition_check(t, from, to, mask, 0);
}

/* The required set of a row, found as the smallest mask the table accepts among the
 * candidate bits: every bit of `req` must be needed, and `req` alone must pass. */
static void check_row(enum ibv_qp_type t, enum ibv_qp_state from, enum ibv_qp_state to, uint32_t req, uint32_t opt)
{
    CHECK_EQ(check(t, from, to, S | req), 0);
    CHECK_EQ(check(t, from, to, S | req | opt), 0);
    for (uint32_t bit = 1; bit < (1u << 21); bit <<= 1) {
        if (bit == S)
            continue;
        if (req & bit)
            CHECK_EQ(check(t, from, to, S | (req & ~bit)), EINVAL);      /* required missing */
        else if (!(opt & bit))
            CHECK_EQ(check(t, from, to, S | req | bit), EINVAL);         /* not permitted */
    }
}

static bool has_required(enum ibv_qp_type t, int from, int to)
{
    return (from == IBV_QPS_RESET && to == IBV_QPS_INIT) || (from == IBV_QPS_RTR && to == IBV_QPS_RTS) ||
           (from == IBV_QPS_INIT && to == IBV_QPS_RTR && t != IBV_QPT_UD);
}

static void test_matrix(void)
{
    enum ibv_qp_type types[] = {IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD};
    for (int ti = 0; ti < 3; ti++) {
        for (int f = IBV_QPS_RESET; f <= IBV_QPS_ERR; f++) {
            for (int to = IBV_QPS_RESET; to <= IBV_QPS_ERR; to++) {
                if (valid[f][to] != 'Y') {
                    /* no mask makes an illegal pair legal */
                    CHECK_EQ(check(types[ti], f, to, S), EINVAL);
                    CHECK_EQ(check(types[ti], f, to, (1u << 21) - 1), EINVAL);
                } else if (!has_required(types[ti], f, to)) {
                    CHECK_EQ(check(types[ti], f, to, S), 0);
                } else {
                    CHECK_EQ(check(types[ti], f, to, S), EINVAL);   /* its required set is missing */
                }
            }
        }
    }
}

static void test_rc_rows(void)
{
    enum ibv_qp_type t = IBV_QPT_RC;
    uint32_t init = A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS);
    uint32_t rtr = A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER);
    uint32_t rts = A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC);
    uint32_t to_rts = A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(MIN_RNR_TIMER) | A(PATH_MIG_STATE);
    check_row(t, IBV_QPS_RESET, IBV_QPS_INIT, init, 0);
    check_row(t, IBV_QPS_INIT, IBV_QPS_INIT, 0, init);
    check_row(t, IBV_QPS_INIT, IBV_QPS_RTR, rtr, A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX));
    check_row(t, IBV_QPS_RTR, IBV_QPS_RTS, rts, to_rts);
    check_row(t, IBV_QPS_RTS, IBV_QPS_RTS, 0, to_rts);
    check_row(t, IBV_QPS_RTS, IBV_QPS_SQD, 0, A(EN_SQD_ASYNC_NOTIFY));
    check_row(t, IBV_QPS_SQD, IBV_QPS_RTS, 0, to_rts);
    check_row(t, IBV_QPS_SQD, IBV_QPS_SQD, 0,
              A(PORT) | A(AV) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) |
              A(MAX_DEST_RD_ATOMIC) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(MIN_RNR_TIMER) |
              A(PATH_MIG_STATE));
    check_row(t, IBV_QPS_SQE, IBV_QPS_RTS, 0, 0);   /* RC SQE->RTS: nothing but the state */
    /* rc_pingpong's masks (rdma-facts §2.2) */
    CHECK_EQ(check(t, IBV_QPS_RESET, IBV_QPS_INIT, 0x39), 0);
    CHECK_EQ(check(t, IBV_QPS_INIT, IBV_QPS_RTR, 0x129181), 0);
    CHECK_EQ(check(t, IBV_QPS_RTR, IBV_QPS_RTS, 0x12E01), 0);
}

static void test_uc_ud_rows(void)
{
    uint32_t init_uc = A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS);
    check_row(IBV_QPT_UC, IBV_QPS_RESET, IBV_QPS_INIT, init_uc, 0);
    check_row(IBV_QPT_UC, IBV_QPS_INIT, IBV_QPS_RTR, A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN),
              A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX));
    check_row(IBV_QPT_UC, IBV_QPS_RTR, IBV_QPS_RTS, A(SQ_PSN),
              A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE));
    check_row(IBV_QPT_UC, IBV_QPS_SQE, IBV_QPS_RTS, 0, A(CUR_STATE) | A(ACCESS_FLAGS));

    uint32_t init_ud = A(PKEY_INDEX) | A(PORT) | A(QKEY);
    check_row(IBV_QPT_UD, IBV_QPS_RESET, IBV_QPS_INIT, init_ud, 0);
    check_row(IBV_QPT_UD, IBV_QPS_INIT, IBV_QPS_RTR, 0, A(PKEY_INDEX) | A(QKEY));
    check_row(IBV_QPT_UD, IBV_QPS_RTR, IBV_QPS_RTS, A(SQ_PSN), A(CUR_STATE) | A(QKEY));
    check_row(IBV_QPT_UD, IBV_QPS_SQD, IBV_QPS_SQD, 0, A(PKEY_INDEX) | A(QKEY));
    /* ud_pingpong's masks */
    CHECK_EQ(check(IBV_QPT_UD, IBV_QPS_RESET, IBV_QPS_INIT, 0x71), 0);
    CHECK_EQ(check(IBV_QPT_UD, IBV_QPS_INIT, IBV_QPS_RTR, 0x1), 0);
    CHECK_EQ(check(IBV_QPT_UD, IBV_QPS_RTR, IBV_QPS_RTS, 0x10001), 0);
    /* ACCESS_FLAGS is not a UD attribute anywhere */
    CHECK_EQ(check(IBV_QPT_UD, IBV_QPS_RESET, IBV_QPS_INIT, S | init_ud | A(ACCESS_FLAGS)), EINVAL);
}

static void test_tricky_rows(void)
{
    for (int t = IBV_QPT_RC; t <= IBV_QPT_UD; t++) {
        CHECK_EQ(check(t, IBV_QPS_RESET, IBV_QPS_ERR, S), EINVAL);            /* not a Linux row */
        CHECK_EQ(check(t, IBV_QPS_RTR, IBV_QPS_RTR, 0), EINVAL);              /* no RTR->RTR */
        CHECK_EQ(check(t, IBV_QPS_RTS, IBV_QPS_RTS, 0), 0);                   /* mask 0 on RTS */
        CHECK_EQ(check(t, IBV_QPS_RTS, IBV_QPS_RESET, S), 0);
        CHECK_EQ(check(t, IBV_QPS_RTS, IBV_QPS_RESET, S | A(PORT)), EINVAL);  /* nothing extra */
        CHECK_EQ(check(t, IBV_QPS_ERR, IBV_QPS_ERR, S), 0);
        CHECK_EQ(check(t, IBV_QPS_SQE, IBV_QPS_SQE, 0), EINVAL);
        for (int s = IBV_QPS_INIT; s <= IBV_QPS_SQE; s++)
            CHECK_EQ(check(t, s, IBV_QPS_ERR, S), 0);                         /* anything -> ERR */
        /* CUR_STATE is only meaningful from RTR/RTS/SQD/SQE */
        CHECK_EQ(check(t, IBV_QPS_INIT, IBV_QPS_ERR, S | A(CUR_STATE)), EINVAL);
        CHECK_EQ(check(t, IBV_QPS_RTS, IBV_QPS_RTS, A(CUR_STATE)), 0);
        /* out-of-range states */
        CHECK_EQ(check(t, IBV_QPS_UNKNOWN, IBV_QPS_RESET, S), EINVAL);
        CHECK_EQ(check(t, IBV_QPS_RESET, IBV_QPS_UNKNOWN, S), EINVAL);
    }
    /* other QP types are not modelled */
    CHECK_EQ(check(IBV_QPT_RAW_PACKET, IBV_QPS_RESET, IBV_QPS_INIT, S | A(PORT)), EINVAL);
}

static void test_personality(void)
{
    uint32_t all = S | A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS) | A(AV) | A(PATH_MTU) | A(DEST_QPN) |
                   A(RQ_PSN) | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER) | A(TIMEOUT) | A(RETRY_CNT) |
                   A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC);
    CHECK_EQ(sv_qp_transition_check(IBV_QPT_RC, IBV_QPS_RESET, IBV_QPS_RTS, all, 0), EINVAL);
    CHECK_EQ(sv_qp_transition_check(IBV_QPT_RC, IBV_QPS_RESET, IBV_QPS_RTS, all, SV_QUIRK_ACCEPT_RESET_TO_RTS), 0);
    /* the quirk adds only that row */
    CHECK_EQ(sv_qp_transition_check(IBV_QPT_RC, IBV_QPS_RESET, IBV_QPS_RTR, S, SV_QUIRK_ACCEPT_RESET_TO_RTS), EINVAL);
    CHECK_EQ(sv_qp_transition_check(IBV_QPT_RC, IBV_QPS_RESET, IBV_QPS_ERR, S, SV_QUIRK_ACCEPT_RESET_TO_RTS), EINVAL);
}

static void test_state_names(void)
{
    CHECK(!strcmp(sv_qp_state_name[IBV_QPS_RTS], "RTS"));
    CHECK(!strcmp(sv_qp_state_name[IBV_QPS_SQE], "SQE"));
    CHECK(!strcmp(sv_qp_state_name[IBV_QPS_UNKNOWN], "UNKNOWN"));
}

int main(void)
{
    test_matrix();
    test_rc_rows();
    test_uc_ud_rows();
    test_tricky_rows();
    test_personality();
    test_state_names();
    return sv_check_report("test_sv_qp_table");
}
