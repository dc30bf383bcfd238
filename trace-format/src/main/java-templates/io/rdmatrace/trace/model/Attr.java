package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.CmNames;
import io.rdmatrace.trace.names.ValueNames;
import io.rdmatrace.trace.names.VerbsNames;

import static io.rdmatrace.trace.model.AttrKind.BOOL;
import static io.rdmatrace.trace.model.AttrKind.ENUM;
import static io.rdmatrace.trace.model.AttrKind.FLAGS;
import static io.rdmatrace.trace.model.AttrKind.GUID;
import static io.rdmatrace.trace.model.AttrKind.HEX32;
import static io.rdmatrace.trace.model.AttrKind.HEX64;
import static io.rdmatrace.trace.model.AttrKind.I64;
import static io.rdmatrace.trace.model.AttrKind.NANOS;
import static io.rdmatrace.trace.model.AttrKind.PSN24;
import static io.rdmatrace.trace.model.AttrKind.QPN24;
import static io.rdmatrace.trace.model.AttrKind.TEXT;
import static io.rdmatrace.trace.model.AttrKind.U32;
import static io.rdmatrace.trace.model.AttrKind.U64;

import java.util.Locale;

/**
 * The closed dictionary of attributes a trace event can carry (verb inputs and outputs, device
 * and port attributes, out-of-band parameters).
 *
 * <p><b>The numeric {@link #code()} is the on-disk format.</b> Never reuse or renumber a code;
 * add new attributes with new codes (and a minor format version bump, see FORMAT.md). The fields of
 * {@code struct ibv_qp_attr} are declared in the verbs ABI model ({@code io.rdmatrace.abi.QpField}, code
 * and meaning included) and generated into this enum at build time: this file is a template
 * ({@code src/main/java-templates}). The {@link #column()} name is what the analyzer's SQL sees
 * (prefixed {@code in_}/{@code out_} for call inputs/outputs). Codes are grouped in ranges by area
 * only to keep the table readable.
 */
public enum Attr {
    // --- object handles (user-space pointers of the verbs objects) 1..19
    HANDLE(1, HEX64, "generic object handle"),
    CONTEXT(2, HEX64, "struct ibv_context *"),
    PD(3, HEX64, "struct ibv_pd *"),
    CQ(4, HEX64, "struct ibv_cq *"),
    SEND_CQ(5, HEX64, "send CQ of a QP"),
    RECV_CQ(6, HEX64, "receive CQ of a QP"),
    QP(7, HEX64, "struct ibv_qp *"),
    MR(8, HEX64, "struct ibv_mr *"),
    AH(9, HEX64, "struct ibv_ah *"),
    CHANNEL(10, HEX64, "struct ibv_comp_channel *"),
    SRQ(11, HEX64, "struct ibv_srq *"),
    DEVICE(12, HEX64, "struct ibv_device *"),

    // --- device identity and limits (struct ibv_device_attr) 20..59
    DEV_NAME(20, TEXT, "device name (ibv_get_device_name)"),
    NODE_GUID(21, GUID, "node GUID"),
    SYS_IMAGE_GUID(22, GUID, "system image GUID"),
    FW_VER(23, TEXT, "firmware version string"),
    VENDOR_ID(24, HEX32, "IEEE vendor id"),
    VENDOR_PART_ID(25, U32, "vendor part id"),
    HW_VER(26, U32, "hardware version"),
    MAX_MR_SIZE(27, U64, "largest MR in bytes"),
    PAGE_SIZE_CAP(28, HEX64, "supported page sizes"),
    MAX_QP(29, U32, "max QPs"),
    MAX_QP_WR(30, U32, "max WRs per queue"),
    DEVICE_CAP_FLAGS(31, HEX64, "device capability flags"),
    MAX_SGE(32, U32, "max SGEs per WR"),
    MAX_SGE_RD(33, U32, "max SGEs per RDMA read"),
    MAX_CQ(34, U32, "max CQs"),
    MAX_CQE(35, U32, "max CQEs per CQ"),
    MAX_MR(36, U32, "max MRs"),
    MAX_PD(37, U32, "max PDs"),
    MAX_QP_RD_ATOM(38, U32, "max outstanding RDMA read/atomic per QP as target"),
    MAX_RES_RD_ATOM(39, U32, "max responder resources for RDMA read/atomic"),
    MAX_QP_INIT_RD_ATOM(40, U32, "max outstanding RDMA read/atomic per QP as initiator"),
    ATOMIC_CAP(41, ENUM, VerbsNames.ATOMIC_CAP, "atomic capability"),
    MAX_AH(42, U32, "max address handles"),
    MAX_SRQ(43, U32, "max SRQs"),
    MAX_SRQ_WR(44, U32, "max WRs per SRQ"),
    MAX_PKEYS(45, U32, "P_Key table size"),
    LOCAL_CA_ACK_DELAY(46, U32, "local CA ack delay"),
    PHYS_PORT_CNT(47, U32, "number of physical ports"),
    NODE_TYPE(48, ENUM, VerbsNames.NODE_TYPE, "node type"),
    NUM_DEVICES(49, U32, "devices returned by ibv_get_device_list"),

    // --- port attributes (struct ibv_port_attr) 60..79
    PORT_NUM(60, U32, "port number (1-based); also ibv_qp_attr.port_num"),
    PORT_STATE(61, ENUM, VerbsNames.PORT_STATE, "logical port state"),
    MAX_MTU(62, ENUM, VerbsNames.MTU, "max MTU of the port"),
    ACTIVE_MTU(63, ENUM, VerbsNames.MTU, "active MTU of the port"),
    GID_TBL_LEN(64, U32, "GID table length"),
    PKEY_TBL_LEN(65, U32, "P_Key table length"),
    LID(66, U32, "base LID of the port (0 on RoCE); also the LID exchanged out of band"),
    SM_LID(67, U32, "subnet manager LID"),
    LMC(68, U32, "LID mask control"),
    PORT_CAP_FLAGS(69, HEX32, "port capability flags"),
    MAX_MSG_SZ(70, U32, "max message size"),
    LINK_LAYER(71, ENUM, VerbsNames.LINK_LAYER, "link layer"),
    ACTIVE_WIDTH(72, U32, "active link width (encoded)"),
    ACTIVE_SPEED(73, U32, "active link speed (encoded)"),
    PHYS_STATE(74, U32, "physical port state"),
    MAX_VL_NUM(75, U32, "max VLs (encoded)"),

    // --- GID and P_Key tables 80..89
    GID_INDEX(80, U32, "GID table index"),
    GID(81, TEXT, "GID as canonical IPv6 text"),
    GID_TYPE(82, ENUM, VerbsNames.GID_TYPE, "GID type"),
    PKEY(83, HEX32, "P_Key value"),
    PKEY_INDEX(84, U32, "P_Key table index; also ibv_qp_attr.pkey_index and ibv_wc.pkey_index"),

    // --- memory regions 90..99
    ADDR(90, HEX64, "virtual address (MR start, SGE address, exchanged buffer address)"),
    LENGTH(91, U64, "length in bytes (MR length, SGE/WR length, exchanged buffer length)"),
    ACCESS(92, FLAGS, VerbsNames.ACCESS_FLAGS, "MR access flags"),
    LKEY(93, HEX32, "local key"),
    RKEY(94, HEX32, "remote key (MR rkey, WR remote rkey, exchanged rkey)"),

    // --- completion queues and channels 100..109
    CQE(100, U32, "CQ entries: requested (in) or actual (out)"),
    COMP_VECTOR(101, U32, "completion vector"),
    SOLICITED_ONLY(102, BOOL, "ibv_req_notify_cq solicited_only"),
    NUM_EVENTS(103, U32, "events acknowledged (ibv_ack_cq_events)"),

    // --- QP creation (struct ibv_qp_init_attr, struct ibv_qp_cap) 110..129
    QP_TYPE(110, ENUM, VerbsNames.QP_TYPE, "QP transport type"),
    SQ_SIG_ALL(111, BOOL, "signal every send WR"),
    MAX_SEND_WR(112, U32, "send queue depth: requested (in) or actual (out)"),
    MAX_RECV_WR(113, U32, "receive queue depth: requested (in) or actual (out)"),
    MAX_SEND_SGE(114, U32, "SGEs per send WR"),
    MAX_RECV_SGE(115, U32, "SGEs per receive WR"),
    MAX_INLINE_DATA(116, U32, "max inline data bytes"),
    QP_NUM(117, QPN24, "QP number (also the QPN exchanged out of band and ibv_wc.qp_num)"),
    SRQ_LIMIT(118, U32, "SRQ limit"),

    // --- every field of struct ibv_qp_attr 130..189
    ATTR_MASK(130, FLAGS, VerbsNames.QP_ATTR_MASK, "ibv_modify_qp/ibv_query_qp attribute mask"),
    // @QP_FIELD_ATTRS@ (the constants of io.rdmatrace.abi.QpField's TraceAttrs, by code, generated here)

    // --- work requests (ibv_post_send / ibv_post_recv) 190..209
    WR_ID(190, HEX64, "wr_id (an application cookie, often a pointer: read in hex)"),
    WR_OPCODE(191, ENUM, VerbsNames.WR_OPCODE, "send WR opcode"),
    SEND_FLAGS(192, FLAGS, VerbsNames.SEND_FLAGS, "send flags"),
    NUM_SGE(193, U32, "SGEs in the WR"),
    REMOTE_ADDR(194, HEX64, "wr.rdma.remote_addr"),
    IMM_DATA(195, HEX32, "immediate data (WR or completion)"),
    REMOTE_QPN(196, QPN24, "wr.ud.remote_qpn"),
    REMOTE_QKEY(197, HEX32, "wr.ud.remote_qkey"),
    BAD_WR_INDEX(198, U32, "index in the WR list of *bad_wr (absent when the post succeeded)"),
    WR_COUNT(199, U32, "WRs in the posted list"),
    COMPARE_ADD(200, U64, "wr.atomic.compare_add: compare value (CMP_AND_SWP) or addend (FETCH_AND_ADD)"),
    SWAP(201, U64, "wr.atomic.swap: value swapped in by CMP_AND_SWP"),

    // --- polling and completions (struct ibv_wc) 210..229
    NUM_ENTRIES(210, U32, "ibv_poll_cq num_entries"),
    POLLED(211, U32, "completions returned by ibv_poll_cq"),
    WC_STATUS(212, ENUM, VerbsNames.WC_STATUS, "completion status"),
    WC_OPCODE(213, ENUM, VerbsNames.WC_OPCODE, "completion opcode"),
    VENDOR_ERR(214, HEX32, "vendor error syndrome"),
    BYTE_LEN(215, U32, "bytes transferred"),
    SRC_QP(216, QPN24, "source QP (UD)"),
    WC_FLAGS(217, FLAGS, VerbsNames.WC_FLAGS, "completion flags"),
    SLID(218, U32, "source LID"),
    DLID_PATH_BITS(219, U32, "destination LID path bits"),

    // --- asynchronous events 230..239
    EVENT_TYPE(230, ENUM, VerbsNames.EVENT_TYPE, "async event type"),
    ELEMENT(231, HEX64, "async event element (QP/CQ/SRQ/WQ handle or port number)"),

    // --- out-of-band exchange and tool bookkeeping 240..259
    PSN(240, PSN24, "PSN told to the peer out of band (the peer's rq_psn)"),
    OOB_VERSION(241, U32, "out-of-band protocol version"),
    CONN_INDEX(242, U32, "connection index when --qps N > 1"),
    AUTHENTICATED(243, BOOL, "the exchange carried a valid HMAC token"),
    MESSAGE(244, TEXT, "free text (error message, reason)"),
    DURATION(245, NANOS, "a measured duration"),
    TIMEOUT_MS(246, U32, "a timeout in milliseconds"),

    // --- RDMA connection manager (librdmacm calls and CM events) 260..289
    CM_ID(260, HEX64, "struct rdma_cm_id *"),
    LISTEN_ID(261, HEX64, "the listening rdma_cm_id a connect request arrived on"),
    CM_CHANNEL(262, HEX64, "struct rdma_event_channel *"),
    PORT_SPACE(263, ENUM, CmNames.PORT_SPACE, "rdma_cm port space"),
    SRC_ADDR(264, TEXT, "local address and port as text (a.b.c.d:port, [v6]:port)"),
    DST_ADDR(265, TEXT, "peer address and port as text (a.b.c.d:port, [v6]:port)"),
    PRIVATE_DATA_LEN(266, U32, "length of the CM private data"),
    PRIVATE_DATA(267, TEXT, "CM private data in hex (at most its first 256 bytes)"),
    RESPONDER_RESOURCES(268, U32, "rdma_conn_param.responder_resources"),
    INITIATOR_DEPTH(269, U32, "rdma_conn_param.initiator_depth"),
    FLOW_CONTROL(270, U32, "rdma_conn_param.flow_control"),
    RETRY_COUNT(271, U32, "rdma_conn_param.retry_count"),
    RNR_RETRY_COUNT(272, U32, "rdma_conn_param.rnr_retry_count"),
    CM_SRQ(273, BOOL, "rdma_conn_param.srq: the sender uses an SRQ"),
    PEER_QP_NUM(274, QPN24, "the peer's QPN a CM message carries (rdma_conn_param/rdma_ud_param qp_num)"),
    REJECT_REASON(275, ENUM, CmNames.REJECT_REASON, "IB CM reject reason of a REJECTED event"),
    BACKLOG(276, U32, "rdma_listen backlog"),
    CM_NODE(277, TEXT, "rdma_getaddrinfo node as given"),
    CM_SERVICE(278, TEXT, "rdma_getaddrinfo service as given"),
    OPTION_LEVEL(279, U32, "rdma_set_option level"),
    OPTION_NAME(280, U32, "rdma_set_option optname"),
    OPTION_VALUE(281, HEX32, "rdma_set_option value (its first 4 bytes)"),
    CM_EVENT_TYPE(282, ENUM, CmNames.EVENT_TYPE, "rdma_cm event type (acknowledged or returned)"),
    CM_STATUS(283, I64, "rdma_cm_event.status (negative errno, or the reject reason / SIDR status)"),
    AI_FLAGS(284, HEX32, "rdma_addrinfo ai_flags of the hints"),
    ;

    private static final Attr[] BY_CODE;

    static {
        int max = 0;
        for (Attr a : values()) {
            max = Math.max(max, a.code);
        }
        BY_CODE = new Attr[max + 1];
        for (Attr a : values()) {
            if (BY_CODE[a.code] != null) {
                throw new IllegalStateException("duplicate Attr code " + a.code + ": " + a + ", " + BY_CODE[a.code]);
            }
            BY_CODE[a.code] = a;
        }
    }

    private final int code;
    private final AttrKind kind;
    private final ValueNames names;
    private final String description;
    private final String column;

    Attr(int code, AttrKind kind, String description) {
        this(code, kind, null, description);
    }

    Attr(int code, AttrKind kind, ValueNames names, String description) {
        if (code <= 0 || code > 0xFFFF) {
            throw new IllegalArgumentException("code out of range: " + code);
        }
        if ((kind == ENUM || kind == FLAGS) != (names != null)) {
            throw new IllegalArgumentException(name() + ": ENUM/FLAGS need a name table, others none");
        }
        this.code = code;
        this.kind = kind;
        this.names = names;
        this.description = description;
        this.column = name().toLowerCase(Locale.ROOT);
    }

    /** The stable on-disk code (1..65535). */
    public int code() {
        return code;
    }

    public AttrKind kind() {
        return kind;
    }

    /** The name table of an ENUM or FLAGS attribute, else null. */
    public ValueNames names() {
        return names;
    }

    /** snake_case column name, e.g. {@code qp_state}. */
    public String column() {
        return column;
    }

    public String description() {
        return description;
    }

    public boolean isText() {
        return kind.isText();
    }

    /** What the value is: an identifier, a secret, a measurement or behaviour ({@link AttrMeaning}). */
    public AttrMeaning meaning() {
        return AttrMeaning.of(this);
    }

    /** The attribute with this code, or null if this build does not know it. */
    public static Attr byCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** Renders a numeric value for people: enum names, flag names, unsigned, hex, PSN as 0x%06x. */
    public String render(long value) {
        if (kind.isText()) {
            throw new IllegalStateException(this + " is a TEXT attribute");
        }
        return names != null ? names.render(value) : kind.renderPlain(value);
    }
}
