package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.codec.ByteSink;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.codec.CorruptDocumentException;
import io.rdmatrace.trace.codec.EventDecoder;
import io.rdmatrace.trace.codec.EventEncoder;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.EventKind;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Format 1.1's work-request chain, and reading 1.0 documents that have none. */
class WorkRequestChainTest {

    private static final EventHeader H = new EventHeader(5, 10, 20, 1, 1, "main");

    @Test
    void chain_roundTripsThroughTheDecoder() {
        CallEvent c = new CallEvent(H, Verb.IBV_POST_SEND, 0x1000, 0, 0, 300,
                Attrs.builder().put(Attr.WR_COUNT, 3).build(), Attrs.EMPTY, EdgeFixture.chain());
        CallEvent back = (CallEvent) decode(encode(c), FormatVersion.CURRENT);
        assertThat(back).isEqualTo(c);
        assertThat(back.workRequests()).hasSize(3);
        assertThat(back.workRequests().get(2).sges()).hasSize(3);
        assertThat(back.workRequests().get(2).totalLength()).isEqualTo(0xFFFFFFFFL + 1);
        assertThat(back.workRequests().get(0).fields().get(Attr.COMPARE_ADD, 0)).isEqualTo(-1L);
    }

    @Test
    void singleRequest_isDescribedByInputs_andCostsOneByte() {
        Attrs in = Attrs.builder().put(Attr.ADDR, 0x7f00).put(Attr.LENGTH, 64).put(Attr.LKEY, 0x11).put(Attr.QP_NUM, 0x12)
                .put(Attr.WR_ID, 9).put(Attr.WR_OPCODE, 4).put(Attr.SEND_FLAGS, 2).put(Attr.NUM_SGE, 1)
                .put(Attr.IMM_DATA, 0xBEEF).put(Attr.WR_COUNT, 1).build();
        CallEvent c = new CallEvent(H, Verb.IBV_POST_SEND, 0x1000, 0, 0, 300, in, Attrs.EMPTY);
        byte[] current = encode(c);
        assertThat(current).hasSize(encode10(c).length + 1); // the chain count, 0
        List<WorkRequest> wrs = c.workRequests();
        assertThat(wrs).hasSize(1);
        assertThat(wrs.get(0).sges()).containsExactly(new WorkRequest.Sge(0x7f00, 64, 0x11));
        assertThat(wrs.get(0).fields().get(Attr.IMM_DATA, 0)).isEqualTo(0xBEEF);
        assertThat(wrs.get(0).fields().has(Attr.QP_NUM)).isFalse();
    }

    @Test
    void format10Documents_readWithoutChain() {
        CallEvent c = new CallEvent(H, Verb.IBV_POST_RECV, 0x1000, 0, 0, 300,
                Attrs.builder().put(Attr.WR_ID, 3).put(Attr.NUM_SGE, 0).put(Attr.WR_COUNT, 4).build(), Attrs.EMPTY);
        CallEvent back = (CallEvent) decode(encode10(c), new FormatVersion(1, 0));
        assertThat(back).isEqualTo(c);
        assertThat(back.wrs()).isEmpty();
        assertThat(back.workRequests()).hasSize(1); // a 1.0 trace knows only the first of the 4
    }

    @Test
    void chainOnANonPostVerb_isCorrupt() {
        ByteSink b = new ByteSink(64);
        EventEncoder.kind(b, EventKind.CALL);
        EventEncoder.header(b, H);
        EventEncoder.call(b, Verb.IBV_MODIFY_QP, 1, 0, 0, 0, Attrs.EMPTY, Attrs.EMPTY, EdgeFixture.chain());
        EventEncoder.seal(b, 0);
        assertThatThrownBy(() -> decode(b.toByteArray(), FormatVersion.CURRENT))
                .isInstanceOf(CorruptDocumentException.class).hasMessageContaining("carries 3 work requests");
    }

    private static byte[] encode(TraceEvent e) {
        ByteSink b = new ByteSink(64);
        EventEncoder.event(b, e);
        return b.toByteArray();
    }

    /** A CALL as format 1.0 wrote it: no chain count after the out attributes. */
    private static byte[] encode10(CallEvent c) {
        ByteSink b = new ByteSink(64);
        EventEncoder.kind(b, EventKind.CALL);
        EventEncoder.header(b, c.header());
        EventEncoder.call(b, c.verb(), c.handle(), c.ret(), c.errno(), c.durationNanos(), c.in(), c.out(), List.of());
        return dropLastAndSeal(b);
    }

    /** The document without the last byte written (a 1.1 addition), sealed. */
    private static byte[] dropLastAndSeal(ByteSink b) {
        byte[] bytes = b.toByteArray();
        ByteSink cut = new ByteSink(bytes.length + 4);
        for (int i = 0; i < bytes.length - 1; i++) {
            cut.u8(bytes[i] & 0xFF);
        }
        EventEncoder.seal(cut, 0);
        return cut.toByteArray();
    }

    private static TraceEvent decode(byte[] d, FormatVersion v) {
        return new EventDecoder(v).decode(d, d.length);
    }
}
