package io.rdmatrace.verbs;

/**
 * One event rdma_get_cm_event returned, as C recorded it (capture agent or tracing librdmacm): the
 * CM_EVENT scalars ({@link CmSlots.Event} order), the id's addresses as text, the private data's first
 * bytes, when rdma_get_cm_event returned it and how long that call took.
 *
 * @param handle the {@code struct rdma_cm_event} to acknowledge (0 when decoded from a recording)
 */
public record RdmaCmEvent(long[] scalars, String src, String dst, byte[] privateData, long monoNanos,
                          long durationNanos, long handle) {

    public RdmaCmEvent {
        if (scalars.length != CmSlots.Event.values().length) {
            throw new IllegalArgumentException("a CM event has " + CmSlots.Event.values().length + " scalars, got "
                    + scalars.length);
        }
    }

    public long get(CmSlots.Event slot) {
        return scalars[slot.ordinal()];
    }

    /** enum rdma_cm_event_type. */
    public int event() {
        return (int) get(CmSlots.Event.EVENT);
    }

    /** The event's status: for REJECTED the IB CM reject reason. */
    public int status() {
        return (int) get(CmSlots.Event.STATUS);
    }

    public long id() {
        return get(CmSlots.Event.ID);
    }

    /** The QP the id carries, -1 for none. */
    public long qpNum() {
        return get(CmSlots.Event.QP_NUM);
    }

    /** The same event naming {@code qpNum} as the QP its id carries (a QP the program attached itself). */
    public RdmaCmEvent withQpNum(long qpNum) {
        long[] s = scalars.clone();
        s[CmSlots.Event.QP_NUM.ordinal()] = qpNum;
        return new RdmaCmEvent(s, src, dst, privateData, monoNanos, durationNanos, handle);
    }

    /** Decodes an event block starting at byte {@code offset} of {@code slots}. */
    public static RdmaCmEvent decode(java.nio.ByteBuffer slots, int offset, long monoNanos, long durationNanos,
                                     long handle) {
        int n = CmSlots.Event.values().length;
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = slots.getLong(offset + i * 8);
        }
        int text = offset + n * 8;
        String src = CmSlots.text(slots, text);
        String dst = CmSlots.text(slots, text + CmSlots.TEXT_SLOTS * 8);
        byte[] pdata = RdmaCmCall.pdata(slots, text + 2 * CmSlots.TEXT_SLOTS * 8, s[CmSlots.Event.PDATA_LEN.ordinal()]);
        return new RdmaCmEvent(s, src, dst, pdata, monoNanos, durationNanos, handle);
    }
}
