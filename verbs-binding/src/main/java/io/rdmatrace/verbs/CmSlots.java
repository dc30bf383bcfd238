package io.rdmatrace.verbs;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Java's mirror of the librdmacm record blocks C fills (native {@code record/tr_payload.h}): the
 * capture agent's JNI calls ({@link RdmaCm}) and the tracing librdmacm's ring records use the same
 * lists, so one decoding serves both. {@link #verify} compares them with C's names at load.
 */
public final class CmSlots {
    private CmSlots() {
    }

    /** RDMA_CALL scalars; then TEXT (source), TEXT (destination), PDATA. A0..A7 per function: tracer/cm/tc_loc.h. */
    public enum Call { FUNC, ID, A0, A1, A2, A3, A4, A5, A6, A7, PDATA_LEN }

    /** RDMA_CM_EVENT scalars; then TEXT (local address), TEXT (peer address), PDATA. */
    public enum Event {
        EVENT, STATUS, ID, LISTEN_ID, QP_NUM, PORT_SPACE, RESPONDER_RESOURCES, INITIATOR_DEPTH, FLOW_CONTROL,
        RETRY_COUNT, RNR_RETRY_COUNT, SRQ, PEER_QP_NUM, QKEY, PDATA_LEN
    }

    /** A 64-byte NUL-padded text block (an address "a.b.c.d:port"). */
    public enum Text { T0, T1, T2, T3, T4, T5, T6, T7 }

    /** The private data block: its first 256 bytes. */
    public enum Pdata {
        P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23,
        P24, P25, P26, P27, P28, P29, P30, P31
    }

    public static final int TEXT_SLOTS = Text.values().length;
    public static final int PDATA_BYTES = Pdata.values().length * 8;
    /** Slots of a whole call block and a whole event block. */
    public static final int CALL_BLOCK = Call.values().length + 2 * TEXT_SLOTS + Pdata.values().length;
    public static final int EVENT_BLOCK = Event.values().length + 2 * TEXT_SLOTS + Pdata.values().length;

    /** Java's lists by C's list name. */
    public static Map<String, List<String>> javaNames() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("CM_FUNC", names(CmFunction.values()));
        m.put("CM_CALL", names(Call.values()));
        m.put("CM_EVENT", names(Event.values()));
        m.put("CM_PDATA", names(Pdata.values()));
        m.put("TEXT", names(Text.values()));
        return m;
    }

    /** Throws IllegalStateException naming the first list whose C names differ from Java's. */
    static void verify(String cNames) {
        Map<String, List<String>> c = new LinkedHashMap<>();
        for (String part : cNames.split(";")) {
            int colon = part.indexOf(':');
            if (colon > 0) {
                c.put(part.substring(0, colon), Arrays.stream(part.substring(colon + 1).split(","))
                        .filter(s -> !s.isEmpty()).toList());
            }
        }
        for (Map.Entry<String, List<String>> e : javaNames().entrySet()) {
            if (!e.getValue().equals(c.get(e.getKey()))) {
                throw new IllegalStateException("the JNI library's " + e.getKey() + " list " + c.get(e.getKey())
                        + " differs from Java's " + e.getValue() + ": rebuild verbs-binding and the Java modules together");
            }
        }
    }

    /** Text of a TEXT block starting at byte {@code offset} of {@code bytes}. */
    static String text(java.nio.ByteBuffer slots, int byteOffset) {
        int len = 0;
        int max = TEXT_SLOTS * 8;
        while (len < max && slots.get(byteOffset + len) != 0) {
            len++;
        }
        byte[] b = new byte[len];
        slots.get(byteOffset, b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }
}
