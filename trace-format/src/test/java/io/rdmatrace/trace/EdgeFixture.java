package io.rdmatrace.trace;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CmEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Events with the values that break naive code (like JFR's emitCustomEvents): PSN 0xFFFFFF and
 * its wrap to 0, the largest QPN, addresses ≥ 2^63, u64 maximum, zero-length work requests,
 * empty strings, control characters, non-ASCII text, every attribute code at once. Round-trip
 * tests write them and compare; consumers (analyzer, printers) can load them to test rendering.
 */
public final class EdgeFixture {

    private EdgeFixture() {
    }

    public static final long PSN_MAX = 0xFFFFFF;
    public static final int QPN_MAX = 0xFFFFFF;
    public static final long HIGH_ADDRESS = 0xFFFF_8000_0000_1000L;
    /** Control characters, an escape sequence, quotes, a backslash, non-ASCII and a surrogate pair. */
    public static final String NASTY_TEXT = "\u0000\u0001\t\n\r\u001b[31mred\u001b[0m\u007f \"q\" 'a' \\ µs ✓ \uD83D\uDE00";

    /** Header placeholder for templates; writers assign the real one. */
    private static final EventHeader TEMPLATE = new EventHeader(0, 0, 0, 0, 0, "");

    /** A SESSION with empty and nasty strings and edge device/port values. */
    public static SessionInfo session(String hostId) {
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("--sq-psn", Long.toString(PSN_MAX));
        overrides.put("--advertise-psn", "0");
        overrides.put("--empty", "");
        overrides.put("--nasty", NASTY_TEXT);
        Attrs device = Attrs.builder()
                .put(Attr.DEV_NAME, "sv0")
                .put(Attr.FW_VER, "")
                .put(Attr.NODE_GUID, 0xFFFF_FFFF_FFFF_FFFFL)
                .put(Attr.VENDOR_ID, 0xFFFFFFFFL)
                .put(Attr.VENDOR_PART_ID, 0)
                .put(Attr.MAX_MR_SIZE, -1L)
                .put(Attr.MAX_QP, 0x7FFFFFFF)
                .put(Attr.PHYS_PORT_CNT, 1)
                .build();
        Attrs port = Attrs.builder().put(Attr.PORT_NUM, 1).put(Attr.PORT_STATE, 4).put(Attr.MAX_MTU, 5)
                .put(Attr.ACTIVE_MTU, 1).put(Attr.GID_TBL_LEN, 0).put(Attr.LINK_LAYER, 2).put(Attr.LID, 0).build();
        List<GidEntry> gids = List.of(
                new GidEntry(1, 0, "fe80::1", 1),
                new GidEntry(1, 1, "::ffff:127.0.0.1", 2),
                new GidEntry(1, 255, "::", 0));
        return new SessionInfo("0.0.0-edge", hostId, "rdmatrace capture " + NASTY_TEXT, "", "", overrides, device,
                List.of(port, Attrs.EMPTY), gids);
    }

    /**
     * A posted chain of three requests: an atomic with u64-maximum operands and a high remote
     * address, a zero-SGE RDMA WRITE_WITH_IMM, and a SEND with three SGEs (one of zero length).
     */
    public static List<WorkRequest> chain() {
        return List.of(
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, -1L).put(Attr.WR_OPCODE, 5).put(Attr.SEND_FLAGS, 2)
                        .put(Attr.REMOTE_ADDR, HIGH_ADDRESS).put(Attr.RKEY, 0xFFFFFFFFL).put(Attr.COMPARE_ADD, -1L)
                        .put(Attr.SWAP, Long.MIN_VALUE).build(),
                        List.of(new WorkRequest.Sge(HIGH_ADDRESS, 8, 0xFFFFFFFFL))),
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 0).put(Attr.WR_OPCODE, 1).put(Attr.SEND_FLAGS, 0)
                        .put(Attr.REMOTE_ADDR, 0).put(Attr.RKEY, 0).put(Attr.IMM_DATA, 0xFFFFFFFFL).build(), List.of()),
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 2).put(Attr.WR_OPCODE, 2).put(Attr.SEND_FLAGS, 0xA)
                        .build(), List.of(new WorkRequest.Sge(0, 0, 0), new WorkRequest.Sge(-1L, 0xFFFFFFFFL, 1),
                        new WorkRequest.Sge(HIGH_ADDRESS, 1, 2))));
    }

    /** Every numeric attribute set to a kind-specific edge value and every text attribute to a nasty one. */
    public static Attrs everyAttr() {
        Attrs.Builder b = Attrs.builder();
        for (Attr a : Attr.values()) {
            switch (a.kind()) {
                case TEXT -> b.put(a, a.ordinal() % 2 == 0 ? NASTY_TEXT : "");
                case PSN24 -> b.put(a, PSN_MAX);
                case QPN24 -> b.put(a, QPN_MAX);
                case U64, HEX64, GUID -> b.put(a, HIGH_ADDRESS);
                case I64, NANOS -> b.put(a, Long.MIN_VALUE);
                case BOOL -> b.put(a, 1);
                case ENUM -> b.put(a, -1);
                default -> b.put(a, 0xFFFFFFFFL);
            }
        }
        return b.build();
    }

    /** One template per non-SESSION/END event kind and edge case, to write with {@code TraceWriter.append}. */
    public static List<TraceEvent> events() {
        Attrs modifyIn = Attrs.builder().put(Attr.QP, HIGH_ADDRESS).put(Attr.ATTR_MASK, 0x129181)
                .put(Attr.QP_STATE, 2).put(Attr.PATH_MTU, 5).put(Attr.DEST_QP_NUM, QPN_MAX)
                .put(Attr.RQ_PSN, PSN_MAX).put(Attr.MAX_DEST_RD_ATOMIC, 1).put(Attr.MIN_RNR_TIMER, 12)
                .put(Attr.IS_GLOBAL, true).put(Attr.DGID, "::ffff:127.0.0.2").put(Attr.SGID_INDEX, 1)
                .build();
        Attrs zeroLengthPost = Attrs.builder().put(Attr.WR_ID, -1L).put(Attr.WR_OPCODE, 2).put(Attr.SEND_FLAGS, 2)
                .put(Attr.NUM_SGE, 0).put(Attr.LENGTH, 0).put(Attr.ADDR, HIGH_ADDRESS).put(Attr.WR_COUNT, 1).build();
        Attrs psnWrap = Attrs.builder().put(Attr.SQ_PSN, 0).put(Attr.RQ_PSN, PSN_MAX).put(Attr.QP_STATE, 3).build();
        Attrs oobParams = Attrs.builder().put(Attr.QP_NUM, QPN_MAX).put(Attr.LID, 0).put(Attr.GID, "fe80::1")
                .put(Attr.GID_INDEX, 1).put(Attr.PSN, PSN_MAX).put(Attr.PATH_MTU, 3).put(Attr.ADDR, HIGH_ADDRESS)
                .put(Attr.RKEY, 0xFFFFFFFFL).put(Attr.LENGTH, 0).put(Attr.PKEY, 0xFFFF).put(Attr.QP_TYPE, 2).build();
        return List.of(
                new CallEvent(TEMPLATE, Verb.IBV_MODIFY_QP, HIGH_ADDRESS, 22, 22, 0, modifyIn, Attrs.EMPTY),
                new CallEvent(TEMPLATE, Verb.IBV_QUERY_QP, HIGH_ADDRESS, 0, 0, 1234, Attrs.EMPTY, psnWrap),
                new CallEvent(TEMPLATE, Verb.IBV_POST_SEND, -1L, 0, 0, Long.MAX_VALUE, zeroLengthPost, Attrs.EMPTY),
                new CallEvent(TEMPLATE, Verb.IBV_POST_SEND, HIGH_ADDRESS, 22, 22, 300,
                        Attrs.builder().put(Attr.WR_ID, -1L).put(Attr.WR_OPCODE, 5).put(Attr.WR_COUNT, 3)
                                .put(Attr.NUM_SGE, 1).build(),
                        Attrs.builder().put(Attr.BAD_WR_INDEX, 2).build(), chain()),
                new CallEvent(TEMPLATE, Verb.IBV_CREATE_QP, 0, -1, 12, -5, Attrs.EMPTY, Attrs.EMPTY),
                new CallEvent(TEMPLATE, Verb.IBV_QUERY_DEVICE, Long.MIN_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE,
                        Long.MIN_VALUE, everyAttr(), everyAttr()),
                new CompletionEvent(TEMPLATE, HIGH_ADDRESS, new Wc(-1L, 12, 0, 0xFFFFFFFFL, 0, 0xFFFFFFFFL, QPN_MAX,
                        QPN_MAX, 0x7F, 0xFFFF, 0xFFFF, 15, 0x7F)),
                new CompletionEvent(TEMPLATE, 0, new Wc(0, 0, 128, 0, 0xFFFFFFFFL, 0, 0, 0, 0, 0, 0, 0, 0)),
                new AsyncEvent(TEMPLATE, 1, HIGH_ADDRESS, QPN_MAX),
                new AsyncEvent(TEMPLATE, 9, 1, -1),
                new AsyncEvent(TEMPLATE, Integer.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE),
                new OobEvent(TEMPLATE, OobEvent.Direction.SENT, "127.0.0.2:18515", OobEvent.Kind.PARAMS, oobParams),
                new OobEvent(TEMPLATE, OobEvent.Direction.RECEIVED, "", OobEvent.Kind.INVALID,
                        Attrs.builder().put(Attr.MESSAGE, NASTY_TEXT).build()),
                new MarkEvent(TEMPLATE, "TC02", MarkEvent.Verdict.FAIL, NASTY_TEXT),
                new MarkEvent(TEMPLATE, "", MarkEvent.Verdict.INFO, ""),
                new MarkEvent(TEMPLATE, "TC04", MarkEvent.Verdict.SKIP, "x".repeat(10_000)),
                new CountersEvent(TEMPLATE, "sv0", CountersEvent.Phase.START, List.of()),
                new CountersEvent(TEMPLATE, "", CountersEvent.Phase.END, List.of(
                        new CountersEvent.Counter("rcv_rnr", Long.MAX_VALUE),
                        new CountersEvent.Counter("", Long.MIN_VALUE),
                        new CountersEvent.Counter(NASTY_TEXT, 0))),
                new CmEvent(TEMPLATE, 8, 28, HIGH_ADDRESS, Attrs.builder().put(Attr.REJECT_REASON, 28)
                        .put(Attr.QP_NUM, QPN_MAX).put(Attr.PORT_SPACE, 0x0106).put(Attr.PRIVATE_DATA_LEN, 148)
                        .put(Attr.SRC_ADDR, "127.0.0.2:35000").put(Attr.DST_ADDR, "[fe80::1]:7000")
                        .put(Attr.PRIVATE_DATA, "00ff".repeat(128)).build()),
                new CmEvent(TEMPLATE, Integer.MAX_VALUE, -110, 0, Attrs.EMPTY),
                new PacketEvent(TEMPLATE, "127.0.0.2", PacketEvent.Direction.DROPPED, "rcvd_link_mtu_drop", 0, 0, 0, false,
                        -1, 65535, 0, NASTY_TEXT),
                new PacketEvent(TEMPLATE, "", PacketEvent.Direction.SENT, "", 0x11, QPN_MAX, 0xffffff, true, 0x60, 60, 0,
                        "127.0.0.1"));
    }
}
