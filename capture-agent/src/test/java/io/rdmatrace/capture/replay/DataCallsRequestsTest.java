package io.rdmatrace.capture.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What replay posts for a recorded post: the chain as recorded, or (format 1.0) copies of the first request. */
class DataCallsRequestsTest {
    private static final EventHeader H = new EventHeader(1, 0, 0, 1, 1, "t");

    @Test
    void recordedChain_isPostedAsRecorded() {
        List<WorkRequest> chain = List.of(
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 7).put(Attr.WR_OPCODE, 5).put(Attr.COMPARE_ADD, 1)
                        .put(Attr.SWAP, 2).build(), List.of(new WorkRequest.Sge(0x1000, 8, 3))),
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 9).put(Attr.WR_OPCODE, 2).build(),
                        List.of(new WorkRequest.Sge(0x2000, 10, 3), new WorkRequest.Sge(0x3000, 20, 3))));
        CallEvent c = new CallEvent(H, Verb.IBV_POST_SEND, 0x10, 0, 0, 1,
                Attrs.builder().put(Attr.WR_ID, 7).put(Attr.WR_COUNT, 2).build(), Attrs.EMPTY, chain);
        assertThat(DataCalls.requests(c)).isEqualTo(chain);
    }

    @Test
    void format10ListOfThree_isThreeCopiesWithConsecutiveIds() {
        CallEvent c = new CallEvent(H, Verb.IBV_POST_RECV, 0x10, 0, 0, 1, Attrs.builder().put(Attr.ADDR, 0x1000)
                .put(Attr.LENGTH, 64).put(Attr.LKEY, 3).put(Attr.WR_ID, 40).put(Attr.NUM_SGE, 1).put(Attr.WR_COUNT, 3).build(),
                Attrs.EMPTY);
        List<WorkRequest> wrs = DataCalls.requests(c);
        assertThat(wrs).extracting(w -> w.fields().get(Attr.WR_ID, -1)).containsExactly(40L, 41L, 42L);
        assertThat(wrs).allSatisfy(w -> assertThat(w.sges()).containsExactly(new WorkRequest.Sge(0x1000, 64, 3)));
    }
}
