/* The modify-QP transition table as data: which (current, next) pairs are legal and which
 * attributes each requires and permits, per QP type. Restated from the Linux core's
 * qp_state_table / ib_modify_qp_is_ok (rdma-facts §1.2-1.3, IBTA Vol 1 §10.3 and §11.2.4.2). */
#include <errno.h>

#include "sv_loc.h"

const char *const sv_qp_state_name[IBV_QPS_UNKNOWN + 1] = {
    [IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT", [IBV_QPS_RTR] = "RTR",
    [IBV_QPS_RTS] = "RTS",     [IBV_QPS_SQD] = "SQD",   [IBV_QPS_SQE] = "SQE",
    [IBV_QPS_ERR] = "ERR",     [IBV_QPS_UNKNOWN] = "UNKNOWN",
};

enum { T_RC, T_UC, T_UD, T_COUNT };

struct sv_qp_row {
    enum ibv_qp_state from, to;
    uint32_t req[T_COUNT];   /* required besides IBV_QP_STATE */
    uint32_t opt[T_COUNT];   /* optional */
};

#define A(x) IBV_QP_##x
#define INIT_RC   (A(PKEY_INDEX) | A(PORT) | A(ACCESS_FLAGS))
#define INIT_UD   (A(PKEY_INDEX) | A(PORT) | A(QKEY))
#define RTR_UC    (A(AV) | A(PATH_MTU) | A(DEST_QPN) | A(RQ_PSN))
#define RTR_RC    (RTR_UC | A(MAX_DEST_RD_ATOMIC) | A(MIN_RNR_TIMER))
#define RTR_OPT   (A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX))
#define RTS_RC    (A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(SQ_PSN) | A(MAX_QP_RD_ATOMIC))
#define TO_RTS_UC (A(CUR_STATE) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PATH_MIG_STATE))
#define TO_RTS_RC (TO_RTS_UC | A(MIN_RNR_TIMER))
#define TO_RTS_UD (A(CUR_STATE) | A(QKEY))
#define SQD_SQD_RC (A(PORT) | A(AV) | A(TIMEOUT) | A(RETRY_CNT) | A(RNR_RETRY) | A(MAX_QP_RD_ATOMIC) | \
                    A(MAX_DEST_RD_ATOMIC) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | \
                    A(MIN_RNR_TIMER) | A(PATH_MIG_STATE))
#define SQD_SQD_UC (A(AV) | A(ALT_PATH) | A(ACCESS_FLAGS) | A(PKEY_INDEX) | A(PATH_MIG_STATE))
#define NONE      {0, 0, 0}

static const struct sv_qp_row rows[] = {
    {IBV_QPS_RESET, IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_RESET, IBV_QPS_INIT,  {INIT_RC, INIT_RC, INIT_UD}, NONE},
    {IBV_QPS_INIT,  IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_INIT,  IBV_QPS_INIT,  NONE, {INIT_RC, INIT_RC, INIT_UD}},
    {IBV_QPS_INIT,  IBV_QPS_RTR,   {RTR_RC, RTR_UC, 0}, {RTR_OPT, RTR_OPT, A(PKEY_INDEX) | A(QKEY)}},
    {IBV_QPS_INIT,  IBV_QPS_ERR,   NONE, NONE},
    {IBV_QPS_RTR,   IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_RTR,   IBV_QPS_RTS,   {RTS_RC, A(SQ_PSN), A(SQ_PSN)}, {TO_RTS_RC, TO_RTS_UC, TO_RTS_UD}},
    {IBV_QPS_RTR,   IBV_QPS_ERR,   NONE, NONE},
    {IBV_QPS_RTS,   IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_RTS,   IBV_QPS_RTS,   NONE, {TO_RTS_RC, TO_RTS_UC, TO_RTS_UD}},
    {IBV_QPS_RTS,   IBV_QPS_SQD,   NONE, {A(EN_SQD_ASYNC_NOTIFY), A(EN_SQD_ASYNC_NOTIFY), A(EN_SQD_ASYNC_NOTIFY)}},
    {IBV_QPS_RTS,   IBV_QPS_ERR,   NONE, NONE},
    {IBV_QPS_SQD,   IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_SQD,   IBV_QPS_RTS,   NONE, {TO_RTS_RC, TO_RTS_UC, TO_RTS_UD}},
    {IBV_QPS_SQD,   IBV_QPS_SQD,   NONE, {SQD_SQD_RC, SQD_SQD_UC, A(PKEY_INDEX) | A(QKEY)}},
    {IBV_QPS_SQD,   IBV_QPS_ERR,   NONE, NONE},
    {IBV_QPS_SQE,   IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_SQE,   IBV_QPS_RTS,   NONE, {0, A(CUR_STATE) | A(ACCESS_FLAGS), TO_RTS_UD}},
    {IBV_QPS_SQE,   IBV_QPS_ERR,   NONE, NONE},
    {IBV_QPS_ERR,   IBV_QPS_RESET, NONE, NONE},
    {IBV_QPS_ERR,   IBV_QPS_ERR,   NONE, NONE},
};

/* Personality "accept-reset-to-rts": one modify carrying everything INIT, RTR and RTS need. */
static const struct sv_qp_row reset_to_rts = {
    IBV_QPS_RESET, IBV_QPS_RTS, NONE,
    {INIT_RC | RTR_RC | RTR_OPT | RTS_RC | TO_RTS_RC, INIT_RC | RTR_UC | RTR_OPT | A(SQ_PSN) | TO_RTS_UC,
     INIT_UD | A(SQ_PSN) | TO_RTS_UD},
};

static int type_index(enum ibv_qp_type type)
{
    switch (type) {
    case IBV_QPT_RC: return T_RC;
    case IBV_QPT_UC: return T_UC;
    case IBV_QPT_UD: return T_UD;
    default: return -1;
    }
}

int sv_qp_transition_masks(enum ibv_qp_type type, enum ibv_qp_state cur, enum ibv_qp_state next,
                           uint32_t quirks, uint32_t *required, uint32_t *optional)
{
    int t = type_index(type);
    if (t < 0 || cur > IBV_QPS_ERR || next > IBV_QPS_ERR || !required || !optional)
        return EINVAL;
    const struct sv_qp_row *row = NULL;
    for (size_t i = 0; i < SV_ARRAY_SIZE(rows); i++)
        if (rows[i].from == cur && rows[i].to == next) {
            row = &rows[i];
            break;
        }
    if (!row && (quirks & SV_QUIRK_ACCEPT_RESET_TO_RTS) && cur == IBV_QPS_RESET && next == IBV_QPS_RTS)
        row = &reset_to_rts;
    if (!row)
        return EINVAL;
    *required = row->req[t];
    *optional = row->opt[t];
    return 0;
}

int sv_qp_transition_check(enum ibv_qp_type type, enum ibv_qp_state cur, enum ibv_qp_state next,
                           uint32_t mask, uint32_t quirks)
{
    if (type_index(type) < 0 || cur > IBV_QPS_ERR || next > IBV_QPS_ERR)
        return EINVAL;
    /* ib_modify_qp_is_ok: an explicit current state must be one the consumer may assert */
    if ((mask & IBV_QP_CUR_STATE) && cur != IBV_QPS_RTR && cur != IBV_QPS_RTS &&
        cur != IBV_QPS_SQD && cur != IBV_QPS_SQE)
        return EINVAL;
    uint32_t req, opt;
    if (sv_qp_transition_masks(type, cur, next, quirks, &req, &opt))
        return EINVAL;
    if ((mask & req) != req)
        return EINVAL;
    if (mask & ~(req | opt | IBV_QP_STATE))
        return EINVAL;
    return 0;
}
