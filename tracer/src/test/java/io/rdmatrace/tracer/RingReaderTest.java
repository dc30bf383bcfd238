package io.rdmatrace.tracer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drain's copy and parse over ring files written as the tracer writes them. */
class RingReaderTest {
    private static final long SLOTS = 64;

    @TempDir
    Path dir;

    @Test
    void recordsThatWrapTheRing_comeBackWholeInOrder_andThePassIsJustTheirBytes() throws Exception {
        try (SyntheticRing ring = new SyntheticRing(dir.resolve("ring.1"), SLOTS, 1);
             RingFile file = RingFile.openIfReady(dir.resolve("ring.1"))) {
            RingReader reader = new RingReader(file);
            List<Long> seen = new ArrayList<>();
            long t = 0;
            // 10-slot records in a 64-slot ring: every sixth needs a PAD, and copied runs wrap its end
            for (int pass = 0; pass < 12; pass++) {
                for (int i = 0; i < 4; i++) {
                    assertTrue(ring.append(record(RingLayout.Kind.IBV_POST_SEND, 0, ++t, 10)));
                }
                RingReader.Pass p = reader.copy(false);
                assertEquals(1, p.chunks().size());
                assertTrue(p.bytes() >= 4 * 10 * 8 && p.bytes() <= (4 * 10 + 9) * 8, "the records and a PAD at most: " + p.bytes());
                for (RingReader.Call c : reader.parse(p)) {
                    assertEquals(10, c.first().slotCount());
                    assertEquals(RingLayout.Kind.IBV_POST_SEND, c.first().kind());
                    seen.add(c.first().monoNanos());
                }
            }
            assertEquals(48, seen.size());
            for (int i = 0; i < seen.size(); i++) {
                assertEquals(i + 1, seen.get(i));
            }
            assertEquals(0, reader.corruptRecords());
            assertTrue(reader.copy(false).isEmpty(), "an empty ring gives an empty pass");
        }
    }

    @Test
    void aCallWhoseContinuationComesAPassLater_isOneCall() throws Exception {
        try (SyntheticRing ring = new SyntheticRing(dir.resolve("ring.2"), SLOTS, 2);
             RingFile file = RingFile.openIfReady(dir.resolve("ring.2"))) {
            RingReader reader = new RingReader(file);
            ring.append(record(RingLayout.Kind.IBV_POLL_CQ, RingLayout.FLAG_MORE, 5, 8));
            assertTrue(reader.parse(reader.copy(false)).isEmpty(), "the first part waits for the rest");
            ring.append(record(RingLayout.Kind.IBV_POLL_CQ, 0, 6, 8));
            List<RingReader.Call> calls = reader.parse(reader.copy(false));
            assertEquals(1, calls.size());
            assertEquals(2, calls.get(0).records().size());
            assertEquals(5, calls.get(0).first().monoNanos());
        }
    }

    @Test
    void aHeaderThatCannotBeARecord_countsOnce_andThePassKeepsWhatCameBefore() throws Exception {
        try (SyntheticRing ring = new SyntheticRing(dir.resolve("ring.3"), SLOTS, 3);
             RingFile file = RingFile.openIfReady(dir.resolve("ring.3"))) {
            RingReader reader = new RingReader(file);
            ring.append(record(RingLayout.Kind.IBV_POST_RECV, 0, 1, 6));
            ring.putWord(ring.head(), RingLayout.Kind.IBV_POST_RECV.ordinal() | 40L << 32);   // longer than what was published
            ring.publish(6);
            List<RingReader.Call> calls = reader.parse(reader.copy(false));
            assertEquals(1, calls.size());
            assertEquals(1, reader.corruptRecords());
            ring.append(record(RingLayout.Kind.IBV_POST_RECV, 0, 2, 6));
            assertEquals(1, reader.parse(reader.copy(false)).size(), "the next pass starts at the writer's head again");
            assertEquals(1, reader.corruptRecords());
        }
    }

    @Test
    void deviceInfoIsFoundOnlyWhenAskedFor() throws Exception {
        try (SyntheticRing ring = new SyntheticRing(dir.resolve("ring.4"), SLOTS, 4);
             RingFile file = RingFile.openIfReady(dir.resolve("ring.4"))) {
            RingReader reader = new RingReader(file);
            ring.append(record(RingLayout.Kind.IBV_OPEN_DEVICE, 0, 1, 6));
            ring.append(record(RingLayout.Kind.DEVICE_INFO, 0, 2, 6));
            assertFalse(reader.copy(false).deviceInfo());
            ring.append(record(RingLayout.Kind.DEVICE_INFO, 0, 3, 6));
            assertTrue(reader.copy(true).deviceInfo());
        }
    }

    /** A record of {@code slots} slots starting at time {@code mono}. */
    private static RingRecord record(RingLayout.Kind kind, int flags, long mono, int slots) {
        ByteBuffer b = ByteBuffer.allocate(slots * 8).order(ByteOrder.nativeOrder());
        b.putLong(8 * RingLayout.Header.MONO_NS.ordinal(), mono);
        b.putLong(8 * RingLayout.Header.TID.ordinal(), 7);
        return new RingRecord(kind, flags, b);
    }
}
