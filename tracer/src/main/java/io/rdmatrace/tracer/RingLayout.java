package io.rdmatrace.tracer;

import io.rdmatrace.verbs.SlotStructs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Java's mirror of the tracer's ring record lists ({@code tracer/src/main/c/tracer/tr_ring.h} and
 * {@code record/tr_payload.h}); the struct blocks inside records are the JNI binding's own layouts
 * ({@link io.rdmatrace.verbs.Slots}). Every ring file carries C's names of all of them;
 * {@link #verify} compares both before a record is decoded, so a stale tracer fails loudly.
 */
public final class RingLayout {
    private RingLayout() {
    }

    public enum Header { KIND_LEN, MONO_NS, TID, HANDLE }

    /** Record kinds; the ordinal is the code C writes (PAD is 0). */
    public enum Kind {
        PAD, IBV_GET_DEVICE_LIST, IBV_FREE_DEVICE_LIST, IBV_OPEN_DEVICE, IBV_CLOSE_DEVICE, IBV_QUERY_DEVICE,
        IBV_QUERY_PORT, IBV_QUERY_GID, IBV_QUERY_GID_EX, IBV_QUERY_PKEY, IBV_ALLOC_PD, IBV_DEALLOC_PD, IBV_REG_MR,
        IBV_DEREG_MR, IBV_CREATE_COMP_CHANNEL, IBV_DESTROY_COMP_CHANNEL, IBV_CREATE_CQ, IBV_RESIZE_CQ,
        IBV_DESTROY_CQ, IBV_REQ_NOTIFY_CQ, IBV_GET_CQ_EVENT, IBV_ACK_CQ_EVENTS, IBV_POLL_CQ, IBV_CREATE_QP,
        IBV_MODIFY_QP, IBV_QUERY_QP, IBV_DESTROY_QP, IBV_POST_SEND, IBV_POST_RECV, IBV_CREATE_AH, IBV_DESTROY_AH,
        IBV_GET_ASYNC_EVENT, IBV_ACK_ASYNC_EVENT, IBV_CREATE_SRQ, IBV_MODIFY_SRQ, IBV_QUERY_SRQ, IBV_DESTROY_SRQ,
        IBV_POST_SRQ_RECV, IBV_REREG_MR, IBV_QP_TO_QP_EX, DEVICE_INFO, PORT_INFO, GID_INFO, RDMA_CALL, RDMA_CM_EVENT;

        private static final Kind[] ALL = values();

        public static Kind of(int code) {
            return code >= 0 && code < ALL.length ? ALL[code] : null;
        }
    }

    public enum Text { T0, T1, T2, T3, T4, T5, T6, T7 }

    public enum DeviceInfo { DEVICE, NODE_TYPE, TRANSPORT_TYPE, GUID }

    public enum Port { PORT_NUM }

    public enum CreateQp { PD, CONTEXT, VIA }

    public enum Qp { QP_NUM, ATTR_MASK }

    public enum Post { QP_NUM, QP_TYPE, WR_COUNT, BAD_INDEX, HERE }

    public enum Poll { NUM_ENTRIES, POLLED, EMPTY_POLLS, SPAN_NS }

    public enum Ah { PD }

    enum Args { A0, A1, A2, A3, A4, A5, A6, A7 }

    static final int FLAG_RECORDER = 0x1;
    static final int FLAG_MORE = 0x2;

    /** Java's names of every list the ring header names, by C's list name. */
    static Map<String, List<String>> javaNames() {
        Map<String, List<String>> all = new LinkedHashMap<>(SlotStructs.layoutNames());
        all.remove("BATCH");   // a JNI-only block
        put(all, "RING_HEADER", Header.values());
        put(all, "KIND", Kind.values());
        put(all, "TEXT", Text.values());
        put(all, "DEVICE_INFO", DeviceInfo.values());
        put(all, "PORT", Port.values());
        put(all, "CREATE_QP", CreateQp.values());
        put(all, "QP", Qp.values());
        put(all, "POST", Post.values());
        put(all, "POLL", Poll.values());
        put(all, "AH", Ah.values());
        put(all, "ARGS", Args.values());
        // the CM blocks are the JNI binding's own (the capture agent's --cm fills the same)
        io.rdmatrace.verbs.CmSlots.javaNames().forEach((name, names) -> {
            if (!name.equals("TEXT")) {
                all.put(name, names);
            }
        });
        return all;
    }

    /** Parses the header's "NAME:A,B,;NAME2:...;" text. */
    public static Map<String, List<String>> parse(String text) {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        for (String part : text.split(";")) {
            int colon = part.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (String n : part.substring(colon + 1).split(",")) {
                if (!n.isEmpty()) {
                    names.add(n);
                }
            }
            lists.put(part.substring(0, colon), names);
        }
        return lists;
    }

    /** Empty when C's lists equal Java's, else one sentence naming the first difference. */
    public static String verify(String cNames) {
        Map<String, List<String>> c = parse(cNames);
        for (Map.Entry<String, List<String>> e : javaNames().entrySet()) {
            List<String> theirs = c.get(e.getKey());
            if (!e.getValue().equals(theirs)) {
                return "the tracer's " + e.getKey() + " record layout " + theirs + " differs from this rdmatrace's "
                        + e.getValue() + "; the tracing library and the jar come from different builds";
            }
        }
        return "";
    }

    private static void put(Map<String, List<String>> all, String name, Enum<?>[] values) {
        all.put(name, Arrays.stream(values).map(Enum::name).toList());
    }
}
