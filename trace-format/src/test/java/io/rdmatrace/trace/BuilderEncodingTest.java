package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder's fast path writes attributes straight from its builders: the bytes must be the ones
 * the built {@link Attrs} give (same order, last value of a repeated put, text removals), or the
 * trace format would change without a version bump.
 */
class BuilderEncodingTest {
    private static final Attr[] NUMERIC = {Attr.QP_NUM, Attr.ATTR_MASK, Attr.QP_STATE, Attr.PATH_MTU, Attr.RQ_PSN,
        Attr.SQ_PSN, Attr.DEST_QP_NUM, Attr.MIN_RNR_TIMER, Attr.TIMEOUT, Attr.SL, Attr.IS_GLOBAL, Attr.WR_ID,
        Attr.WR_COUNT, Attr.LENGTH, Attr.LKEY, Attr.ADDR, Attr.MAX_SEND_WR, Attr.SEND_CQ, Attr.RECV_CQ};
    private static final Attr[] BY_CODE = Arrays.stream(NUMERIC).sorted(Comparator.comparingInt(Attr::code))
            .toArray(Attr[]::new);
    private static final Attr[] TEXT = {Attr.DGID, Attr.MESSAGE, Attr.DEV_NAME};

    @Test
    void attrsFromABuilder_areTheBytesOfItsBuiltSet_forAnyPutOrder() {
        Random r = new Random(13);
        for (int round = 0; round < 2_000; round++) {
            Attrs.Builder b = Attrs.builder();
            fill(b, r, round % 4);
            Attrs built = b.build();

            assertThat(encode(b)).as("round %d: %s", round, built).containsExactly(encode(built));
            assertThat(b.build()).as("encoding leaves the entries as they were").isEqualTo(built);
        }
    }

    @Test
    void aReusedBuilder_encodesOnlyWhatWasPutSinceClear() {
        Attrs.Builder b = Attrs.builder();
        b.put(Attr.SQ_PSN, 5).put(Attr.QP_NUM, 7).put(Attr.MESSAGE, "x");
        encode(b); // sorts in place
        b.clear().put(Attr.RQ_PSN, 1).put(Attr.QP_NUM, 2).put(Attr.RQ_PSN, 3);

        Attrs expected = Attrs.builder().put(Attr.QP_NUM, 2).put(Attr.RQ_PSN, 3).build();
        assertThat(b.build()).isEqualTo(expected);
        assertThat(encode(b)).containsExactly(encode(expected));
    }

    @Test
    void callFromBuilders_isTheCallFromTheirSets_byteForByte() {
        Random r = new Random(7);
        for (int round = 0; round < 200; round++) {
            Attrs.Builder in = Attrs.builder();
            Attrs.Builder out = Attrs.builder();
            fill(in, r, round % 4);
            fill(out, r, (round + 1) % 4);
            List<WorkRequest> wrs = round % 3 == 0 ? List.of(new WorkRequest(Attrs.builder().put(Attr.WR_ID, round).build(),
                    List.of(new WorkRequest.Sge(0x1000, 64, 9)))) : List.of();
            Attrs inSet = in.build();
            Attrs outSet = out.build();

            ByteSink fast = new ByteSink(16);
            in.sortInPlace();   // as TraceWriter does before it encodes from builders
            out.sortInPlace();
            EventEncoder.call(fast, Verb.IBV_POST_SEND, 0x5600 + round, -round, round, 1_500, in, out, wrs);
            ByteSink sets = new ByteSink(16);
            EventEncoder.call(sets, Verb.IBV_POST_SEND, 0x5600 + round, -round, round, 1_500, inSet, outSet, wrs);
            assertThat(fast.toByteArray()).as("round %d", round).containsExactly(sets.toByteArray());
        }
    }

    @Test
    void writerCallFromBuilders_readsBackAsTheSameEvent(@TempDir Path dir) throws Exception {
        Attrs.Builder in = Attrs.builder().put(Attr.SQ_PSN, 0x123456).put(Attr.QP_NUM, 0x11).put(Attr.DGID, "::1")
                .put(Attr.ATTR_MASK, 0x129181);
        Attrs.Builder out = Attrs.builder().put(Attr.BAD_WR_INDEX, 0);
        Attrs inSet = in.build();
        Attrs outSet = out.build();
        SessionInfo s = new SessionInfo("t", "h", "t", "none", "", Map.of(), Attrs.EMPTY, List.of(), List.of());
        try (TraceWriter w = TraceWriter.create(dir, s)) {
            w.call(Verb.IBV_MODIFY_QP, 0x77, -1, 22, 900, in, out, List.of());
            w.call(Verb.IBV_MODIFY_QP, 0x77, -1, 22, 900, inSet, outSet);
        }
        List<CallEvent> calls = TraceReader.readAll(dir.resolve("h")).events().stream()
                .filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).toList();
        assertThat(calls).hasSize(2);
        for (CallEvent c : calls) {
            assertThat(c.verb()).isEqualTo(Verb.IBV_MODIFY_QP);
            assertThat(c.handle()).isEqualTo(0x77);
            assertThat(c.ret()).isEqualTo(-1);
            assertThat(c.errno()).isEqualTo(22);
            assertThat(c.durationNanos()).isEqualTo(900);
            assertThat(c.in()).isEqualTo(inSet);
            assertThat(c.out()).isEqualTo(outSet);
        }
    }

    @Test
    void callFromRows_isTheCallFromTheirSets_byteForByte() {
        Random r = new Random(11);
        for (int round = 0; round < 200; round++) {
            AttrRow in = row(r, round);
            AttrRow out = row(r, round + 1);
            ByteSink rows = new ByteSink(16);
            EventEncoder.call(rows, Verb.IBV_QUERY_QP, 0x5600 + round, -round, round, 1_500, in, out);
            ByteSink sets = new ByteSink(16);
            EventEncoder.call(sets, Verb.IBV_QUERY_QP, 0x5600 + round, -round, round, 1_500, in.toAttrs(),
                    out.toAttrs(), List.of());
            assertThat(rows.toByteArray()).as("round %d: %s / %s", round, in, out).containsExactly(sets.toByteArray());
        }
    }

    @Test
    void aRowRefusesAttributesOutOfCodeOrder_orOfTheWrongKind() {
        assertThatThrownBy(() -> new AttrRow(List.of(Attr.SQ_PSN, Attr.QP_NUM), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascend");
        assertThatThrownBy(() -> new AttrRow(List.of(Attr.QP_NUM, Attr.QP_NUM), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascend");
        assertThatThrownBy(() -> new AttrRow(List.of(Attr.DGID), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is a TEXT");
        assertThatThrownBy(() -> new AttrRow(List.of(), List.of(Attr.QP_NUM)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a TEXT");
        assertThat(AttrRow.EMPTY.toAttrs()).isSameAs(Attrs.EMPTY);
    }

    @Test
    void writerCallFromRows_readsBackAsTheSameEvent(@TempDir Path dir) throws Exception {
        AttrRow in = new AttrRow(List.of(Attr.QP_NUM, Attr.ATTR_MASK), List.of());
        in.set(in.indexOf(Attr.QP_NUM), 0x11);
        in.set(in.indexOf(Attr.ATTR_MASK), 0x1fffff);
        AttrRow out = new AttrRow(List.of(Attr.QP_STATE, Attr.SQ_PSN), List.of(Attr.DGID));
        out.set(out.indexOf(Attr.QP_STATE), 3);
        out.set(out.indexOf(Attr.SQ_PSN), 0xffffff);
        out.setText(out.textIndexOf(Attr.DGID), "::ffff:10.0.0.1");
        SessionInfo s = new SessionInfo("t", "h", "t", "none", "", Map.of(), Attrs.EMPTY, List.of(), List.of());
        try (TraceWriter w = TraceWriter.create(dir, s)) {
            w.call(Verb.IBV_QUERY_QP, 0x77, 0, 0, 900, in, out);
        }
        CallEvent c = TraceReader.readAll(dir.resolve("h")).events().stream()
                .filter(e -> e instanceof CallEvent).map(e -> (CallEvent) e).findFirst().orElseThrow();
        assertThat(c.verb()).isEqualTo(Verb.IBV_QUERY_QP);
        assertThat(c.handle()).isEqualTo(0x77);
        assertThat(c.durationNanos()).isEqualTo(900);
        assertThat(c.in()).isEqualTo(Attrs.builder().put(Attr.QP_NUM, 0x11).put(Attr.ATTR_MASK, 0x1fffff).build());
        assertThat(c.out()).isEqualTo(Attrs.builder().put(Attr.QP_STATE, 3).put(Attr.SQ_PSN, 0xffffff)
                .put(Attr.DGID, "::ffff:10.0.0.1").build());
        assertThat(c.wrs()).isEmpty();
    }

    /** A row of a random subset of the attributes (ascending), values at random, text with a non-ASCII letter. */
    private static AttrRow row(Random r, int round) {
        List<Attr> numeric = Arrays.stream(BY_CODE).filter(a -> r.nextBoolean()).toList();
        List<Attr> text = Arrays.stream(TEXT).sorted(Comparator.comparingInt(Attr::code))
                .filter(a -> round % 5 != 0 && r.nextBoolean()).toList();
        AttrRow row = new AttrRow(numeric, text);
        for (int i = 0; i < numeric.size(); i++) {
            row.set(i, r.nextBoolean() ? r.nextInt(1 << 20) : r.nextLong());
        }
        for (int i = 0; i < text.size(); i++) {
            row.setText(i, "v" + r.nextInt(100) + "\u00e9");
        }
        return row;
    }

    /** Puts in ascending code order (mode 0, the recorders' way), descending (1), or at random with repeats (2, 3). */
    private static void fill(Attrs.Builder b, Random r, int mode) {
        int n = r.nextInt(NUMERIC.length + 1);
        for (int i = 0; i < n; i++) {
            Attr a = switch (mode) {
                case 0 -> BY_CODE[i];
                case 1 -> BY_CODE[n - 1 - i];
                default -> NUMERIC[r.nextInt(NUMERIC.length)];
            };
            b.put(a, r.nextBoolean() ? r.nextInt(1 << 20) : r.nextLong());
        }
        int t = r.nextInt(4);
        for (int i = 0; i < t; i++) {
            Attr a = TEXT[r.nextInt(TEXT.length)];
            b.put(a, r.nextInt(5) == 0 ? null : "v" + r.nextInt(100) + "\u00e9");
        }
    }

    private static byte[] encode(Attrs.Builder b) {
        ByteSink s = new ByteSink(16);
        b.sortInPlace();
        EventEncoder.attrs(s, b);
        return s.toByteArray();
    }

    private static byte[] encode(Attrs a) {
        ByteSink s = new ByteSink(16);
        EventEncoder.attrs(s, a);
        return s.toByteArray();
    }
}
