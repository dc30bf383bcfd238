package io.rdmatrace.trace;

import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.codec.ByteSource;
import io.rdmatrace.trace.codec.CorruptDocumentException;
import io.rdmatrace.trace.codec.DocumentCheck;
import io.rdmatrace.trace.codec.EventDecoder;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.TraceEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/** The byte encodings match the Chronicle encodings FORMAT.md describes, and bad bytes only ever fail as corruption. */
class PrimitivesTest {

    private static final long[] NUMBERS = {0, 1, 127, 128, 16383, 16384, 0xFFFFFF, Integer.MAX_VALUE,
        Integer.MIN_VALUE, -1, -2, -127, -128, -129, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFF_8000_0000_1000L};

    @Test
    void stopBit_matchesChronicle_andRoundTrips() {
        Random r = new Random(7);
        for (int i = 0; i < 2000; i++) {
            long v = i < NUMBERS.length ? NUMBERS[i] : r.nextLong() >> r.nextInt(64);
            byte[] mine = new ByteSink(1).stop(v).toByteArray();
            Bytes<?> c = Bytes.allocateElasticOnHeap(16);
            c.writeStopBit(v);
            assertThat(mine).as("value %d", v).containsExactly(c.toByteArray());
            ByteSource in = new ByteSource();
            in.wrap(mine, 0, mine.length);
            assertThat(in.stop()).isEqualTo(v);
            assertThat(in.remaining()).isZero();
        }
    }

    @Test
    void utf8_matchesChronicle_andRoundTrips() {
        for (String s : new String[] {"", "main", "µs", EdgeFixture.NASTY_TEXT, "\uD83D", "\uDE00x", "x".repeat(300),
            "\u0800\uFFFF\u07FF", "x".repeat(126) + "\u00e9", "fe80:0000:0000:0000:0000:0000:0000:0001 \u00b5"}) {
            byte[] mine = new ByteSink(1).utf8(s).toByteArray();
            Bytes<?> c = Bytes.allocateElasticOnHeap(16);
            c.writeUtf8(s);
            assertThat(mine).as("string %s", s).containsExactly(c.toByteArray());
            ByteSource in = new ByteSource();
            in.wrap(mine, 0, mine.length);
            assertThat(in.utf8()).isEqualTo(s);
        }
    }

    @Test
    void source_refusesTruncatedAndMalformedInput() {
        ByteSource in = new ByteSource();
        in.wrap(new byte[] {(byte) 0x80, (byte) 0x80}, 0, 2);
        assertThatThrownBy(in::stop).isInstanceOf(CorruptDocumentException.class).hasMessageContaining("ends early");
        in.wrap(new byte[] {5, 'a'}, 0, 2);
        assertThatThrownBy(in::utf8).isInstanceOf(CorruptDocumentException.class).hasMessageContaining("runs past");
        in.wrap(new byte[] {2, (byte) 0xC3, 'a'}, 0, 3);
        assertThatThrownBy(in::utf8).isInstanceOf(CorruptDocumentException.class).hasMessageContaining("continuation");
        in.wrap(new byte[] {1, (byte) 0xF0}, 0, 2);
        assertThatThrownBy(in::utf8).isInstanceOf(CorruptDocumentException.class).hasMessageContaining("bad UTF-8");
        byte[] eleven = new byte[11];
        java.util.Arrays.fill(eleven, (byte) 0xFF);
        in.wrap(eleven, 0, 11);
        assertThatThrownBy(in::stop).isInstanceOf(CorruptDocumentException.class).hasMessageContaining("10 bytes");
    }

    @Test
    void decoder_onMutatedDocuments_onlyEverReportsCorruption() {
        EventDecoder dec = new EventDecoder(FormatVersion.CURRENT);
        Random r = new Random(42);
        int decodedAnyway = 0;
        for (TraceEvent template : EdgeFixture.events()) {
            ByteSink sink = new ByteSink(64);
            EventEncoder.event(sink, template);
            byte[] good = sink.toByteArray();
            assertThat(Events.withoutHeader(dec.decode(good.clone(), good.length)))
                    .isEqualTo(Events.withoutHeader(template));
            for (int k = 0; k < 300; k++) {
                byte[] bad = good.clone();
                int len = r.nextInt(4) == 0 ? r.nextInt(bad.length + 1) : bad.length;
                for (int m = 0; m <= r.nextInt(3); m++) {
                    bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
                }
                // also re-seal some, so the decoder's structural checks (not only the check value) are exercised
                if (r.nextBoolean() && len > DocumentCheck.SIZE) {
                    int c = DocumentCheck.compute(bad, 0, len - DocumentCheck.SIZE);
                    for (int i = 0; i < 4; i++) {
                        bad[len - 4 + i] = (byte) (c >>> (8 * i));
                    }
                }
                try {
                    dec.decode(bad, len);
                    decodedAnyway++;
                } catch (CorruptDocumentException expected) {
                    assertThat(expected.getMessage()).isNotBlank();
                }
            }
        }
        assertThat(decodedAnyway).as("re-sealed mutations that still parse").isLessThan(EdgeFixture.events().size() * 300);
    }
}
