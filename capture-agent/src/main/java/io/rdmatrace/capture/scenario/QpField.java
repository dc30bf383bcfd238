package io.rdmatrace.capture.scenario;

import java.util.Locale;

/**
 * The ibv_qp_attr fields a scenario can set in ibv_modify_qp, each with the attr_mask bit it needs.
 * Scenario files name them in lowercase ({@code qp_state}, {@code ah.dgid}); the mask of a modify is the
 * union of its fields' bits unless the step gives one explicitly.
 */
public enum QpField {
    QP_STATE("qp_state", 1 << 0, Kind.STATE),
    CUR_QP_STATE("cur_qp_state", 1 << 1, Kind.STATE),
    EN_SQD_ASYNC_NOTIFY("en_sqd_async_notify", 1 << 2, Kind.INT),
    QP_ACCESS_FLAGS("qp_access_flags", 1 << 3, Kind.ACCESS),
    PKEY_INDEX("pkey_index", 1 << 4, Kind.INT),
    PORT_NUM("port_num", 1 << 5, Kind.INT),
    QKEY("qkey", 1 << 6, Kind.INT),
    AH_DLID("ah.dlid", 1 << 7, Kind.INT),
    AH_SL("ah.sl", 1 << 7, Kind.INT),
    AH_SRC_PATH_BITS("ah.src_path_bits", 1 << 7, Kind.INT),
    AH_STATIC_RATE("ah.static_rate", 1 << 7, Kind.INT),
    AH_IS_GLOBAL("ah.is_global", 1 << 7, Kind.INT),
    AH_PORT_NUM("ah.port_num", 1 << 7, Kind.INT),
    AH_DGID("ah.dgid", 1 << 7, Kind.GID),
    AH_FLOW_LABEL("ah.flow_label", 1 << 7, Kind.INT),
    AH_SGID_INDEX("ah.sgid_index", 1 << 7, Kind.INT),
    AH_HOP_LIMIT("ah.hop_limit", 1 << 7, Kind.INT),
    AH_TRAFFIC_CLASS("ah.traffic_class", 1 << 7, Kind.INT),
    PATH_MTU("path_mtu", 1 << 8, Kind.MTU),
    TIMEOUT("timeout", 1 << 9, Kind.INT),
    RETRY_CNT("retry_cnt", 1 << 10, Kind.INT),
    RNR_RETRY("rnr_retry", 1 << 11, Kind.INT),
    RQ_PSN("rq_psn", 1 << 12, Kind.INT),
    MAX_RD_ATOMIC("max_rd_atomic", 1 << 13, Kind.INT),
    MIN_RNR_TIMER("min_rnr_timer", 1 << 15, Kind.INT),
    SQ_PSN("sq_psn", 1 << 16, Kind.INT),
    MAX_DEST_RD_ATOMIC("max_dest_rd_atomic", 1 << 17, Kind.INT),
    PATH_MIG_STATE("path_mig_state", 1 << 18, Kind.INT),
    DEST_QP_NUM("dest_qp_num", 1 << 20, Kind.INT);

    /** How a field's text value is parsed. */
    public enum Kind { INT, STATE, MTU, ACCESS, GID }

    private final String key;
    private final int maskBit;
    private final Kind kind;

    QpField(String key, int maskBit, Kind kind) {
        this.key = key;
        this.maskBit = maskBit;
        this.kind = kind;
    }

    /** The name in scenario files and --modify-in-rts. */
    public String key() {
        return key;
    }

    public int maskBit() {
        return maskBit;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * By scenario key ({@code min_rnr_timer}), by enum name, or by attr_mask name
     * ({@code IBV_QP_MIN_RNR_TIMER}, {@code access_flags}, {@code dest_qpn}, {@code av} → ah.dgid's group).
     */
    public static QpField byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        if (n.startsWith("ibv_qp_")) {
            n = n.substring("ibv_qp_".length());
        }
        for (QpField f : values()) {
            if (f.key.equals(n) || f.name().toLowerCase(Locale.ROOT).equals(n)) {
                return f;
            }
        }
        return switch (n) {
            case "state" -> QP_STATE;
            case "cur_state" -> CUR_QP_STATE;
            case "access_flags" -> QP_ACCESS_FLAGS;
            case "port" -> PORT_NUM;
            case "max_qp_rd_atomic" -> MAX_RD_ATOMIC;
            case "dest_qpn" -> DEST_QP_NUM;
            default -> throw new IllegalArgumentException("unknown QP attribute '" + name + "'; known: "
                    + java.util.Arrays.stream(values()).map(QpField::key).collect(java.util.stream.Collectors.joining(", ")));
        };
    }
}
