package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_wc_status}, with the text of {@code ibv_wc_status_str}. */
public enum WcStatus implements VerbsEnum {
    SUCCESS("success"),
    LOC_LEN_ERR("local length error"),
    LOC_QP_OP_ERR("local QP operation error"),
    LOC_EEC_OP_ERR("local EE context operation error"),
    LOC_PROT_ERR("local protection error"),
    WR_FLUSH_ERR("Work Request Flushed Error"),
    MW_BIND_ERR("memory management operation error"),
    BAD_RESP_ERR("bad response error"),
    LOC_ACCESS_ERR("local access error"),
    REM_INV_REQ_ERR("remote invalid request error"),
    REM_ACCESS_ERR("remote access error"),
    REM_OP_ERR("remote operation error"),
    RETRY_EXC_ERR("transport retry counter exceeded"),
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"),
    LOC_RDD_VIOL_ERR("local RDD violation error"),
    REM_INV_RD_REQ_ERR("remote invalid RD request"),
    REM_ABORT_ERR("aborted error"),
    INV_EECN_ERR("invalid EE context number"),
    INV_EEC_STATE_ERR("invalid EE context state"),
    FATAL_ERR("fatal error"),
    RESP_TIMEOUT_ERR("response timeout error"),
    GENERAL_ERR("general error"),
    TM_ERR("TM error"),
    TM_RNDV_INCOMPLETE("TM software rendezvous"),
    /** Any value outside 0..23 ({@code ibv_wc_status_str} says "unknown"). */
    UNKNOWN("unknown");

    private static final WcStatus[] BY_VALUE = values();
    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.WC_STATUS.value(ibvName(), -1);
    private final String text;

    WcStatus(String text) {
        this.text = text;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_WC_" + name();
    }

    /** What {@code ibv_wc_status_str} returns. */
    public String text() {
        return text;
    }

    public static WcStatus of(int value) {
        return value >= 0 && value < BY_VALUE.length - 1 ? BY_VALUE[value] : UNKNOWN;
    }
}
