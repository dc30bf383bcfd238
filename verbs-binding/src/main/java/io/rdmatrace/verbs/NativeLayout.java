package io.rdmatrace.verbs;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The slot layouts shared with C, by the id C knows them by (the ordinal). */
enum NativeLayout {
    STATUS(Slots.Status.values()),
    DEVICE_ATTR(Slots.DeviceAttr.values()),
    PORT_ATTR(Slots.PortAttr.values()),
    GID_ENTRY(Slots.GidEntry.values()),
    AH_ATTR(Slots.AhAttr.values()),
    QP_ATTR(Slots.QP_ATTR),
    QP_INIT(Slots.QpInit.values()),
    ASYNC_EVENT(Slots.AsyncEvent.values()),
    BATCH(Slots.Batch.values()),
    SEND_WR(Slots.SendWr.values()),
    RECV_WR(Slots.RecvWr.values()),
    SGE(Slots.Sge.values()),
    WC(Slots.Wc.values());

    private final List<String> javaNames;

    NativeLayout(Enum<?>[] slots) {
        this(Arrays.stream(slots).map(Enum::name).collect(Collectors.toUnmodifiableList()));
    }

    NativeLayout(List<String> slots) {
        this.javaNames = List.copyOf(slots);
    }

    List<String> javaNames() {
        return javaNames;
    }

    /** C's slot names for this layout. */
    List<String> nativeNames() {
        String names = names0(ordinal());
        return Arrays.stream(names.split(",")).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableList());
    }

    /** Fails when any Java list differs from its C list (a stale build or an edit on one side only). */
    static void verifyAll() {
        for (NativeLayout layout : values()) {
            List<String> c = layout.nativeNames();
            if (!c.equals(layout.javaNames)) {
                throw new IllegalStateException("JNI slot layout " + layout + " differs between C " + c
                        + " and Java " + layout.javaNames + "; rebuild verbs-binding/ (mvn -pl verbs-binding -am compile)");
            }
        }
    }

    private static native String names0(int id);
}
