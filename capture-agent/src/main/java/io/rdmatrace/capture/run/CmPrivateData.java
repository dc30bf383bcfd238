package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.CmSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the agents tell each other in the REQ's and REP's private data under {@code --cm} (what the TCP
 * exchange carries otherwise, minus what the CM itself negotiates: QPN, PSNs, path, MTU):
 * {@code "RTCM"}, version 1, the QP type, the QP index, the buffer's address, rkey and length, in
 * network order ({@value CmSettings#PARAMS_BYTES} bytes; an RC REQ has room for 56).
 */
record CmPrivateData(int qpIndex, int qpType, long mrAddr, int rkey, long mrLength) {
    private static final int MAGIC = 0x5254434d; // "RTCM"
    private static final int VERSION = 1;

    byte[] encode(int totalBytes) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(totalBytes, CmSettings.PARAMS_BYTES));
        b.putInt(MAGIC).put((byte) VERSION).put((byte) qpType).putShort((short) qpIndex).putLong(mrAddr).putInt(rkey)
                .putInt((int) Math.min(mrLength, 0xFFFFFFFFL));
        return b.array();
    }

    /** The parameters in {@code data}, or a StepException saying what is wrong with it. */
    static CmPrivateData decode(byte[] data, String from) {
        if (data.length < CmSettings.PARAMS_BYTES) {
            throw new StepException(from + " carries " + data.length + " bytes of private data, not the "
                    + CmSettings.PARAMS_BYTES + " of an rdmatrace agent" + text(data));
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        if (b.getInt() != MAGIC || b.get() != VERSION) {
            throw new StepException(from + " carries private data that is not an rdmatrace agent's" + text(data));
        }
        int type = b.get() & 0xFF;
        int index = b.getShort() & 0xFFFF;
        long addr = b.getLong();
        int rkey = b.getInt();
        long len = Integer.toUnsignedLong(b.getInt());
        return new CmPrivateData(index, type, addr, rkey, len);
    }

    /** The QP index a private data names, or -1 when it is not an agent's. */
    static int indexOf(byte[] data) {
        try {
            return decode(data, "").qpIndex();
        } catch (StepException e) {
            return -1;
        }
    }

    /** ': "text"' when the bytes are printable text (a reject's reason), else "". */
    static String text(byte[] data) {
        int n = data.length;
        while (n > 0 && data[n - 1] == 0) {
            n--;
        }
        if (n == 0) {
            return "";
        }
        for (int i = 0; i < n; i++) {
            if (data[i] < 0x20 || data[i] > 0x7e) {
                return "";
            }
        }
        return ": \"" + new String(data, 0, n, StandardCharsets.US_ASCII) + "\"";
    }
}
