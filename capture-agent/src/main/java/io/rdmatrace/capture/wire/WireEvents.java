package io.rdmatrace.capture.wire;

import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.store.TraceWriter;
import java.util.List;

/** Writes a softverbs packet log into a trace: the one way both capture --wire and record --wire do it. */
public final class WireEvents {
    /** The COUNTERS device naming the packets a full log could not keep. */
    public static final String NOT_KEPT_DEVICE = "softverbs-wire";

    private WireEvents() {
    }

    /**
     * One PACKET event per logged packet, each at the time softverbs handled it, and (when the log
     * was full) a COUNTERS event {@code softverbs-wire / packets_not_kept}.
     */
    public static void write(TraceWriter writer, SoftverbsWireLog log) {
        for (PacketEvent p : log.packets()) {
            writer.stampNext(p.header().monoNanos(), 0, "softverbs " + log.device());
            writer.packet(p);
        }
        if (log.notKept() > 0) {
            writer.counters(NOT_KEPT_DEVICE, CountersEvent.Phase.END,
                    List.of(new CountersEvent.Counter("packets_not_kept", log.notKept())));
        }
    }
}
