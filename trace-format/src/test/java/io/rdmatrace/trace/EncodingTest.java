package io.rdmatrace.trace;

import io.rdmatrace.trace.model.AsyncEvent;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.codec.DocumentCheck;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins the byte layout FORMAT.md documents, with an independent implementation of the check value. */
class EncodingTest {

    @Test
    void endEvent_bytesAreAsDocumented() {
        EndEvent e = new EndEvent(new EventHeader(300, 0x0102030405060708L, -1L, 4242, 1, "t"), 300,
                TraceEnding.interrupted(15, -1, 15, "x"));
        ByteArrayOutputStream x = new ByteArrayOutputStream();
        x.write(8); // kind END
        x.writeBytes(new byte[] {(byte) 0xAC, 0x02}); // stop 300
        x.writeBytes(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}); // i64 LE
        x.writeBytes(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        x.writeBytes(new byte[] {(byte) 0x92, 0x21}); // stop 4242
        x.write(1); // stop threadId
        x.writeBytes(new byte[] {1, 't'}); // utf8
        x.writeBytes(new byte[] {(byte) 0xAC, 0x02}); // eventCount
        x.write(4); // u8 ending INTERRUPTED (1.4)
        x.writeBytes(new byte[] {(byte) 0x80, 0}); // stop exitStatus -1
        x.write(15); // stop signal
        x.write(15); // stop recorderSignal
        x.writeBytes(new byte[] {1, 'x'}); // utf8 detail
        byte[] body = x.toByteArray();
        int check = documentedCheck(body);
        x.writeBytes(new byte[] {(byte) check, (byte) (check >>> 8), (byte) (check >>> 16), (byte) (check >>> 24)});

        assertThat(encode(e)).containsExactly(x.toByteArray());
    }

    @Test
    void sessionPrefix_andNegativeStopBit_areAsDocumented() {
        SessionInfo s = new SessionInfo("", "h", "", "", "", java.util.Map.of(), Attrs.EMPTY, List.of(), List.of());
        byte[] b = encode(new SessionEvent(new EventHeader(0, 0, 0, 0, 0, ""), new FormatVersion(1, 0), s));
        assertThat(java.util.Arrays.copyOfRange(b, 0, 9)).containsExactly(1, 'R', 'D', 'M', 'T', 1, 0, 0, 0);

        AsyncEvent a = new AsyncEvent(new EventHeader(0, 0, 0, 0, 0, ""), 9, 1, -1);
        byte[] ab = encode(a);
        // … header (1 + 1 + 8 + 8 + 1 + 1 + 1 = 21 bytes) then 09, 01, and -1 as 80 00
        assertThat(java.util.Arrays.copyOfRange(ab, 21, 25)).containsExactly(9, 1, 0x80, 0);
    }

    @Test
    void checkValue_matchesTheDocumentedAlgorithm_forEveryTailLength() {
        for (int len = 0; len <= 24; len++) {
            byte[] data = new byte[len];
            for (int i = 0; i < len; i++) {
                data[i] = (byte) (i * 37 + 11);
            }
            assertThat(DocumentCheck.compute(data, 0, len)).as("length %d", len).isEqualTo(documentedCheck(data));
        }
    }

    private static byte[] encode(TraceEvent e) {
        ByteSink b = new ByteSink(16);
        EventEncoder.event(b, e);
        return b.toByteArray();
    }

    /** FORMAT.md "Check value", written from the text. */
    private static int documentedCheck(byte[] d) {
        long h = 0x243F6A8885A308D3L ^ d.length;
        int p = 0;
        for (; p + 8 <= d.length; p += 8) {
            long w = 0;
            for (int k = 7; k >= 0; k--) {
                w = (w << 8) | (d[p + k] & 0xFF);
            }
            h = mix(h, w);
        }
        long tail = 0;
        for (int k = d.length - 1; k >= p; k--) {
            tail = (tail << 8) | (d[k] & 0xFF);
        }
        h = mix(h, tail);
        return (int) (h ^ (h >>> 32));
    }

    private static long mix(long h, long w) {
        h ^= w;
        h *= 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 31);
    }
}
