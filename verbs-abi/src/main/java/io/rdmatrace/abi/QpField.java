package io.rdmatrace.abi;

import static io.rdmatrace.abi.CType.ENUM;
import static io.rdmatrace.abi.CType.GID;
import static io.rdmatrace.abi.CType.U16;
import static io.rdmatrace.abi.CType.U32;
import static io.rdmatrace.abi.CType.U8;
import static io.rdmatrace.abi.QpField.Block.AH_ATTR;
import static io.rdmatrace.abi.QpField.Block.ALT_AH_ATTR;
import static io.rdmatrace.abi.QpField.Block.QP_ATTR;
import static io.rdmatrace.abi.TraceAttr.NONE;
import static io.rdmatrace.abi.TraceAttr.recorded;
import static io.rdmatrace.abi.TraceAttr.shared;
import static io.rdmatrace.abi.ValueKind.ACCESS_FLAGS;
import static io.rdmatrace.abi.ValueKind.BOOL;
import static io.rdmatrace.abi.ValueKind.MIG_STATE;
import static io.rdmatrace.abi.ValueKind.MTU;
import static io.rdmatrace.abi.ValueKind.NUMBER;
import static io.rdmatrace.abi.ValueKind.PEER_GID;
import static io.rdmatrace.abi.ValueKind.PEER_QPN;
import static io.rdmatrace.abi.ValueKind.QP_STATE;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Every field of {@code struct ibv_qp_attr} (its {@code cap}, {@code ah_attr} and
 * {@code alt_ah_attr} members flattened), in the struct's order, each said once:
 * <ul>
 * <li>{@link #cName()}: the libibverbs name ({@code ah_attr.grh.dgid});</li>
 * <li>{@link #mask()}: the {@code attr_mask} bit that selects it (null: query-only);</li>
 * <li>{@link #cType()}: its C type and width;</li>
 * <li>{@link #block()} + {@link #slot()}: where it travels across JNI (a slot of the QP_ATTR block or of
 * one of the two AH_ATTR blocks after it, in {@code verbs-abi/src/main/c/record/layout.h});</li>
 * <li>{@link #scenarioKey()}: its name in capture scenarios and {@code --modify-in-rts} (null: a scenario
 * cannot set it);</li>
 * <li>{@link #trace()}: the trace attribute it is recorded as ({@code io.rdmatrace.trace.model.Attr}, generated
 * from these at build time), with its on-disk code and meaning, or {@link TraceAttr#NONE};</li>
 * <li>{@link #kind()}: what the value is.</li>
 * </ul>
 * Adding a field end to end is one line here: the C slot lists and codec ({@code verbs_abi.h}) and
 * the trace's {@code Attr} constants are generated from it ({@link io.rdmatrace.abi.gen.AbiSources}); a new
 * trace attribute is a minor format version (trace-format's FORMAT.md and {@code FormatVersion}).
 */
public enum QpField {
    QP_STATE("qp_state", QpMask.STATE, ENUM, QP_ATTR, "QP_STATE", "qp_state",
            recorded("QP_STATE", 131, "qp_state"), ValueKind.QP_STATE),
    CUR_QP_STATE("cur_qp_state", QpMask.CUR_STATE, ENUM, QP_ATTR, "CUR_QP_STATE", "cur_qp_state",
            recorded("CUR_QP_STATE", 132, "cur_qp_state"), ValueKind.QP_STATE),
    PATH_MTU("path_mtu", QpMask.PATH_MTU, ENUM, QP_ATTR, "PATH_MTU", "path_mtu",
            recorded("PATH_MTU", 133, "path_mtu (also the MTU exchanged out of band)"), MTU),
    PATH_MIG_STATE("path_mig_state", QpMask.PATH_MIG_STATE, ENUM, QP_ATTR, "PATH_MIG_STATE", "path_mig_state",
            recorded("PATH_MIG_STATE", 134, "path_mig_state"), MIG_STATE),
    QKEY("qkey", QpMask.QKEY, U32, QP_ATTR, "QKEY", "qkey", recorded("QKEY", 135, "HEX32", "qkey"), NUMBER),
    RQ_PSN("rq_psn", QpMask.RQ_PSN, U32, QP_ATTR, "RQ_PSN", "rq_psn",
            recorded("RQ_PSN", 136, "PSN24", "rq_psn: first PSN expected from the peer"), NUMBER),
    SQ_PSN("sq_psn", QpMask.SQ_PSN, U32, QP_ATTR, "SQ_PSN", "sq_psn",
            recorded("SQ_PSN", 137, "PSN24", "sq_psn: first PSN sent"), NUMBER),
    DEST_QP_NUM("dest_qp_num", QpMask.DEST_QPN, U32, QP_ATTR, "DEST_QP_NUM", "dest_qp_num",
            recorded("DEST_QP_NUM", 138, "dest_qp_num"), PEER_QPN),
    QP_ACCESS_FLAGS("qp_access_flags", QpMask.ACCESS_FLAGS, U32, QP_ATTR, "QP_ACCESS_FLAGS", "qp_access_flags",
            recorded("QP_ACCESS_FLAGS", 139, "qp_access_flags"), ACCESS_FLAGS),
    CAP_MAX_SEND_WR("cap.max_send_wr", QpMask.CAP, U32, QP_ATTR, "CAP_MAX_SEND_WR", null,
            shared("MAX_SEND_WR"), NUMBER),
    CAP_MAX_RECV_WR("cap.max_recv_wr", QpMask.CAP, U32, QP_ATTR, "CAP_MAX_RECV_WR", null,
            shared("MAX_RECV_WR"), NUMBER),
    CAP_MAX_SEND_SGE("cap.max_send_sge", QpMask.CAP, U32, QP_ATTR, "CAP_MAX_SEND_SGE", null,
            shared("MAX_SEND_SGE"), NUMBER),
    CAP_MAX_RECV_SGE("cap.max_recv_sge", QpMask.CAP, U32, QP_ATTR, "CAP_MAX_RECV_SGE", null,
            shared("MAX_RECV_SGE"), NUMBER),
    CAP_MAX_INLINE_DATA("cap.max_inline_data", QpMask.CAP, U32, QP_ATTR, "CAP_MAX_INLINE_DATA", null,
            shared("MAX_INLINE_DATA"), NUMBER),
    AH_DGID("ah_attr.grh.dgid", QpMask.AV, GID, AH_ATTR, "DGID_0", "ah.dgid",
            recorded("DGID", 158, "ah_attr.grh.dgid as IPv6 text"), PEER_GID),
    AH_FLOW_LABEL("ah_attr.grh.flow_label", QpMask.AV, U32, AH_ATTR, "FLOW_LABEL", "ah.flow_label",
            recorded("FLOW_LABEL", 159, "HEX32", "ah_attr.grh.flow_label"), NUMBER),
    AH_SGID_INDEX("ah_attr.grh.sgid_index", QpMask.AV, U8, AH_ATTR, "SGID_INDEX", "ah.sgid_index",
            recorded("SGID_INDEX", 160, "ah_attr.grh.sgid_index"), NUMBER),
    AH_HOP_LIMIT("ah_attr.grh.hop_limit", QpMask.AV, U8, AH_ATTR, "HOP_LIMIT", "ah.hop_limit",
            recorded("HOP_LIMIT", 161, "ah_attr.grh.hop_limit"), NUMBER),
    AH_TRAFFIC_CLASS("ah_attr.grh.traffic_class", QpMask.AV, U8, AH_ATTR, "TRAFFIC_CLASS", "ah.traffic_class",
            recorded("TRAFFIC_CLASS", 162, "ah_attr.grh.traffic_class"), NUMBER),
    AH_DLID("ah_attr.dlid", QpMask.AV, U16, AH_ATTR, "DLID", "ah.dlid",
            recorded("DLID", 152, "ah_attr.dlid"), NUMBER),
    AH_SL("ah_attr.sl", QpMask.AV, U8, AH_ATTR, "SL", "ah.sl",
            recorded("SL", 153, "ah_attr.sl; also ibv_wc.sl"), NUMBER),
    AH_SRC_PATH_BITS("ah_attr.src_path_bits", QpMask.AV, U8, AH_ATTR, "SRC_PATH_BITS", "ah.src_path_bits",
            recorded("SRC_PATH_BITS", 154, "ah_attr.src_path_bits"), NUMBER),
    AH_STATIC_RATE("ah_attr.static_rate", QpMask.AV, U8, AH_ATTR, "STATIC_RATE", "ah.static_rate",
            recorded("STATIC_RATE", 155, "ah_attr.static_rate"), NUMBER),
    AH_IS_GLOBAL("ah_attr.is_global", QpMask.AV, U8, AH_ATTR, "IS_GLOBAL", "ah.is_global",
            recorded("IS_GLOBAL", 156, "ah_attr.is_global (GRH present)"), BOOL),
    AH_PORT_NUM("ah_attr.port_num", QpMask.AV, U8, AH_ATTR, "PORT_NUM", "ah.port_num",
            recorded("AH_PORT_NUM", 157, "ah_attr.port_num"), NUMBER),
    ALT_AH_DGID("alt_ah_attr.grh.dgid", QpMask.ALT_PATH, GID, ALT_AH_ATTR, "DGID_0", null, NONE, PEER_GID),
    ALT_AH_FLOW_LABEL("alt_ah_attr.grh.flow_label", QpMask.ALT_PATH, U32, ALT_AH_ATTR, "FLOW_LABEL", null,
            NONE, NUMBER),
    ALT_AH_SGID_INDEX("alt_ah_attr.grh.sgid_index", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "SGID_INDEX", null,
            NONE, NUMBER),
    ALT_AH_HOP_LIMIT("alt_ah_attr.grh.hop_limit", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "HOP_LIMIT", null,
            NONE, NUMBER),
    ALT_AH_TRAFFIC_CLASS("alt_ah_attr.grh.traffic_class", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "TRAFFIC_CLASS", null,
            NONE, NUMBER),
    ALT_AH_DLID("alt_ah_attr.dlid", QpMask.ALT_PATH, U16, ALT_AH_ATTR, "DLID", null, NONE, NUMBER),
    ALT_AH_SL("alt_ah_attr.sl", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "SL", null, NONE, NUMBER),
    ALT_AH_SRC_PATH_BITS("alt_ah_attr.src_path_bits", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "SRC_PATH_BITS", null,
            NONE, NUMBER),
    ALT_AH_STATIC_RATE("alt_ah_attr.static_rate", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "STATIC_RATE", null,
            NONE, NUMBER),
    ALT_AH_IS_GLOBAL("alt_ah_attr.is_global", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "IS_GLOBAL", null,
            NONE, BOOL),
    ALT_AH_PORT_NUM("alt_ah_attr.port_num", QpMask.ALT_PATH, U8, ALT_AH_ATTR, "PORT_NUM", null, NONE, NUMBER),
    PKEY_INDEX("pkey_index", QpMask.PKEY_INDEX, U16, QP_ATTR, "PKEY_INDEX", "pkey_index",
            shared("PKEY_INDEX"), NUMBER),
    ALT_PKEY_INDEX("alt_pkey_index", QpMask.ALT_PATH, U16, QP_ATTR, "ALT_PKEY_INDEX", null,
            recorded("ALT_PKEY_INDEX", 140, "alt_pkey_index"), NUMBER),
    EN_SQD_ASYNC_NOTIFY("en_sqd_async_notify", QpMask.EN_SQD_ASYNC_NOTIFY, U8, QP_ATTR, "EN_SQD_ASYNC_NOTIFY",
            "en_sqd_async_notify",
            recorded("EN_SQD_ASYNC_NOTIFY", 141, "en_sqd_async_notify"), BOOL),
    /** Query-only: no mask bit sets it. */
    SQ_DRAINING("sq_draining", null, U8, QP_ATTR, "SQ_DRAINING", null,
            recorded("SQ_DRAINING", 142, "sq_draining"), BOOL),
    MAX_RD_ATOMIC("max_rd_atomic", QpMask.MAX_QP_RD_ATOMIC, U8, QP_ATTR, "MAX_RD_ATOMIC", "max_rd_atomic",
            recorded("MAX_RD_ATOMIC", 143, "max_rd_atomic"), NUMBER),
    MAX_DEST_RD_ATOMIC("max_dest_rd_atomic", QpMask.MAX_DEST_RD_ATOMIC, U8, QP_ATTR, "MAX_DEST_RD_ATOMIC",
            "max_dest_rd_atomic",
            recorded("MAX_DEST_RD_ATOMIC", 144, "max_dest_rd_atomic"), NUMBER),
    MIN_RNR_TIMER("min_rnr_timer", QpMask.MIN_RNR_TIMER, U8, QP_ATTR, "MIN_RNR_TIMER", "min_rnr_timer",
            recorded("MIN_RNR_TIMER", 145, "min_rnr_timer (IBTA encoding)"), NUMBER),
    PORT_NUM("port_num", QpMask.PORT, U8, QP_ATTR, "PORT_NUM", "port_num", shared("PORT_NUM"), NUMBER),
    TIMEOUT("timeout", QpMask.TIMEOUT, U8, QP_ATTR, "TIMEOUT", "timeout",
            recorded("TIMEOUT", 146, "local ack timeout (4.096 us * 2^timeout; 0 = infinite)"), NUMBER),
    RETRY_CNT("retry_cnt", QpMask.RETRY_CNT, U8, QP_ATTR, "RETRY_CNT", "retry_cnt",
            recorded("RETRY_CNT", 147, "retry_cnt"), NUMBER),
    RNR_RETRY("rnr_retry", QpMask.RNR_RETRY, U8, QP_ATTR, "RNR_RETRY", "rnr_retry",
            recorded("RNR_RETRY", 148, "rnr_retry (7 = infinite)"), NUMBER),
    ALT_PORT_NUM("alt_port_num", QpMask.ALT_PATH, U8, QP_ATTR, "ALT_PORT_NUM", null,
            recorded("ALT_PORT_NUM", 149, "alt_port_num"), NUMBER),
    ALT_TIMEOUT("alt_timeout", QpMask.ALT_PATH, U8, QP_ATTR, "ALT_TIMEOUT", null,
            recorded("ALT_TIMEOUT", 150, "alt_timeout"), NUMBER),
    RATE_LIMIT("rate_limit", QpMask.RATE_LIMIT, U32, QP_ATTR, "RATE_LIMIT", "rate_limit",
            recorded("RATE_LIMIT", 151, "rate_limit (kbps)"), NUMBER);

    /**
     * The JNI blocks a {@code struct ibv_qp_attr} travels in: the QP_ATTR slots, then an AH_ATTR block for
     * {@code ah_attr} and one for {@code alt_ah_attr}.
     */
    public enum Block { QP_ATTR, AH_ATTR, ALT_AH_ATTR }

    private static final List<QpField> ALL = List.of(values());

    private final String cName;
    private final QpMask mask;
    private final CType cType;
    private final Block block;
    private final String slot;
    private final String scenarioKey;
    private final TraceAttr trace;
    private final ValueKind kind;

    QpField(String cName, QpMask mask, CType cType, Block block, String slot, String scenarioKey, TraceAttr trace,
            ValueKind kind) {
        this.cName = cName;
        this.mask = mask;
        this.cType = cType;
        this.block = block;
        this.slot = slot;
        this.scenarioKey = scenarioKey;
        this.trace = trace;
        this.kind = kind;
    }

    /** libibverbs' name, members dotted: {@code max_dest_rd_atomic}, {@code ah_attr.grh.dgid}. */
    public String cName() {
        return cName;
    }

    /** The attr_mask bit that selects this field, or null for a query-only field. */
    public QpMask mask() {
        return mask;
    }

    /** The field's bit in an attr_mask (0 for a query-only field). */
    public int maskBit() {
        return mask == null ? 0 : mask.bit();
    }

    public CType cType() {
        return cType;
    }

    public Block block() {
        return block;
    }

    /** The slot name in {@link #block()}'s layout (a GID's first of its two slots). */
    public String slot() {
        return slot;
    }

    /** The name scenario files use, or null when a scenario cannot set the field. */
    public String scenarioKey() {
        return scenarioKey;
    }

    /** The name of the trace attribute the field is recorded as, or null when it is not recorded. */
    public String traceAttr() {
        return trace.name();
    }

    /** How the trace records the field: attribute name, on-disk code and meaning ({@link TraceAttr#NONE}: not). */
    public TraceAttr trace() {
        return trace;
    }

    public ValueKind kind() {
        return kind;
    }

    /** Every field, in struct order. */
    public static List<QpField> all() {
        return ALL;
    }

    /**
     * A scenario-settable field by its scenario key ({@code min_rnr_timer}, {@code ah.dgid}), its enum name,
     * or the attr_mask name of a bit that selects exactly one settable field ({@code IBV_QP_STATE},
     * {@code access_flags}, {@code port}, {@code dest_qpn}).
     *
     * @throws IllegalArgumentException for any other name, listing the known keys
     */
    public static QpField byScenarioKey(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
        if (n.startsWith("ibv_qp_")) {
            n = n.substring("ibv_qp_".length());
        }
        for (QpField f : ALL) {
            if (f.scenarioKey != null && (f.scenarioKey.equals(n) || f.name().toLowerCase(Locale.ROOT).equals(n))) {
                return f;
            }
        }
        for (QpMask m : QpMask.values()) {
            if (m.name().toLowerCase(Locale.ROOT).equals(n)) {
                List<QpField> settable = ALL.stream().filter(f -> f.mask == m && f.scenarioKey != null).toList();
                if (settable.size() == 1) {
                    return settable.get(0);
                }
            }
        }
        throw new IllegalArgumentException("unknown QP attribute '" + name + "'; known: " + Arrays.stream(values())
                .map(QpField::scenarioKey).filter(k -> k != null).collect(Collectors.joining(", ")));
    }
}
