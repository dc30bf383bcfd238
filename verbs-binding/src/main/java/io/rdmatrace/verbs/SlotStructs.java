package io.rdmatrace.verbs;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes libibverbs structs from int64 slot blocks laid out as in {@code layout.h}, wherever the
 * block comes from: the tracing libibverbs writes the same blocks (filled by the same C codec) into
 * its event ring, so a recorded program's ibv_qp_attr is read by exactly the code that reads the
 * JNI binding's. {@code slot} is the index of the block's first slot in {@code buffer}.
 */
public final class SlotStructs {
    private SlotStructs() {
    }

    public static DeviceAttr deviceAttr(ByteBuffer buffer, int slot, String fwVer) {
        return Codec.deviceAttr(view(buffer, slot), fwVer);
    }

    public static PortAttr portAttr(ByteBuffer buffer, int slot) {
        return Codec.portAttr(view(buffer, slot));
    }

    public static IbvGidEntry gidEntry(ByteBuffer buffer, int slot) {
        return Codec.gidEntry(view(buffer, slot));
    }

    public static IbvAsyncEvent asyncEvent(ByteBuffer buffer, int slot) {
        return Codec.asyncEvent(view(buffer, slot));
    }

    /** A QP_ATTR block followed by its ah_attr and alt_ah_attr blocks ({@link Slots#QA_BLOCK} slots). */
    public static QpAttr qpAttr(ByteBuffer buffer, int slot) {
        return Codec.readQpAttr(view(buffer, slot));
    }

    public static AhAttr ahAttr(ByteBuffer buffer, int slot) {
        return Codec.readAhAttr(view(buffer, 0), slot);
    }

    /** The caps of a QP_INIT block. */
    public static QpCap qpInitCap(ByteBuffer buffer, int slot) {
        return Codec.readQpInitCap(view(buffer, slot), 0);
    }

    /** Java's slot names of every layout, by C's layout name (STATUS, QP_ATTR, ...), to check a producer's. */
    public static Map<String, List<String>> layoutNames() {
        Map<String, List<String>> names = new LinkedHashMap<>();
        for (NativeLayout l : NativeLayout.values()) {
            names.put(l.name(), l.javaNames());
        }
        return names;
    }

    private static SlotSource view(ByteBuffer buffer, int base) {
        return new SlotSource() {
            @Override
            public long get(int slot) {
                return buffer.getLong((base + slot) * 8);
            }

            @Override
            public byte[] getBytes16(int slot) {
                byte[] raw = new byte[16];
                buffer.get((base + slot) * 8, raw);
                return raw;
            }
        };
    }
}
