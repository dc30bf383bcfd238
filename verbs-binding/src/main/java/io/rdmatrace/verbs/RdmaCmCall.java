package io.rdmatrace.verbs;

/**
 * One finished librdmacm call as C recorded it, from the capture agent's JNI layer or the tracing
 * librdmacm's ring: the CM_CALL scalars ({@link CmSlots.Call} order; the arguments A0..A7 per
 * function as native {@code tracer/cm/tc_loc.h} lists them), the addresses as text ("" for none), the
 * private data's first bytes, and how the call ended.
 *
 * @param scalars     the CM_CALL slots
 * @param privateData up to {@link CmSlots#PDATA_BYTES} bytes of the private data (length: {@link #privateDataLen})
 * @param ret         librdmacm's return (0, or -1 / NULL as 0 with errno for pointers)
 */
public record RdmaCmCall(long[] scalars, String src, String dst, byte[] privateData, long ret, int errno,
                         long durationNanos) {

    public RdmaCmCall {
        if (scalars.length != CmSlots.Call.values().length) {
            throw new IllegalArgumentException("a CM call has " + CmSlots.Call.values().length + " scalars, got "
                    + scalars.length);
        }
    }

    /** The function, or null for a code this build does not know. */
    public CmFunction function() {
        return CmFunction.of(scalars[CmSlots.Call.FUNC.ordinal()]);
    }

    /** The rdma_cm_id acted on (for rdma_create_id and rdma_get_request the one made), 0 for none. */
    public long id() {
        return scalars[CmSlots.Call.ID.ordinal()];
    }

    public long arg(int i) {
        return scalars[CmSlots.Call.A0.ordinal() + i];
    }

    public long privateDataLen() {
        return scalars[CmSlots.Call.PDATA_LEN.ordinal()];
    }

    public boolean ok() {
        return errno == 0 && ret >= 0;
    }

    /** Decodes a call block starting at byte {@code offset} of {@code slots}. */
    public static RdmaCmCall decode(java.nio.ByteBuffer slots, int offset, long ret, int errno, long durationNanos) {
        int n = CmSlots.Call.values().length;
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = slots.getLong(offset + i * 8);
        }
        int text = offset + n * 8;
        String src = CmSlots.text(slots, text);
        String dst = CmSlots.text(slots, text + CmSlots.TEXT_SLOTS * 8);
        byte[] pdata = pdata(slots, text + 2 * CmSlots.TEXT_SLOTS * 8, s[CmSlots.Call.PDATA_LEN.ordinal()]);
        return new RdmaCmCall(s, src, dst, pdata, ret, errno, durationNanos);
    }

    static byte[] pdata(java.nio.ByteBuffer slots, int offset, long len) {
        byte[] b = new byte[(int) Math.max(0, Math.min(len, CmSlots.PDATA_BYTES))];
        slots.get(offset, b);
        return b;
    }
}
