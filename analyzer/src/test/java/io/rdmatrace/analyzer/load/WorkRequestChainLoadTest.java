package io.rdmatrace.analyzer.load;

import static io.rdmatrace.analyzer.SqlRows.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;

/** Posted chains (format 1.1) reach work_requests and sges, whichever base table took the CALL. */
class WorkRequestChainLoadTest {

    private static EventHeader h(long seq) {
        return new EventHeader(seq, seq * 1000, 1_700_000_000_000_000_000L + seq * 1000, 1, 1, "main");
    }

    @Test
    void chains_andSingleRequests_oneRowPerRequestAndSge() throws Exception {
        SessionInfo info = new SessionInfo("t", "h", "", "", SessionInfo.PROGRAM_SCENARIO, Map.of(), Attrs.EMPTY,
                List.of(), List.of());
        List<WorkRequest> sendChain = List.of(
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 1).put(Attr.WR_OPCODE, 0).put(Attr.SEND_FLAGS, 0)
                        .put(Attr.REMOTE_ADDR, 0x9000).put(Attr.RKEY, 0x77).build(),
                        List.of(new WorkRequest.Sge(0x1000, 100, 5), new WorkRequest.Sge(0x2000, 28, 5))),
                new WorkRequest(Attrs.builder().put(Attr.WR_ID, 2).put(Attr.WR_OPCODE, 5).put(Attr.SEND_FLAGS, 2)
                        .put(Attr.REMOTE_ADDR, 0x9100).put(Attr.RKEY, 0x77).put(Attr.COMPARE_ADD, 7).put(Attr.SWAP, 9).build(),
                        List.of(new WorkRequest.Sge(0x3000, 8, 5))));
        Attrs sendIn = Attrs.builder().put(Attr.ADDR, 0x1000).put(Attr.LENGTH, 100).put(Attr.LKEY, 5).put(Attr.RKEY, 0x77)
                .put(Attr.QP_NUM, 0x12).put(Attr.WR_ID, 1).put(Attr.WR_OPCODE, 0).put(Attr.SEND_FLAGS, 0).put(Attr.NUM_SGE, 2)
                .put(Attr.REMOTE_ADDR, 0x9000).put(Attr.WR_COUNT, 2).build();
        Attrs recvIn = Attrs.builder().put(Attr.ADDR, 0x4000).put(Attr.LENGTH, 64).put(Attr.LKEY, 5).put(Attr.QP_NUM, 0x12)
                .put(Attr.WR_ID, 3).put(Attr.NUM_SGE, 1).put(Attr.WR_COUNT, 1).build();
        Attrs atomicIn = Attrs.builder().put(Attr.ADDR, 0x3000).put(Attr.LENGTH, 8).put(Attr.LKEY, 5).put(Attr.RKEY, 0x77)
                .put(Attr.QP_NUM, 0x12).put(Attr.WR_ID, 4).put(Attr.WR_OPCODE, 6).put(Attr.SEND_FLAGS, 2).put(Attr.NUM_SGE, 1)
                .put(Attr.REMOTE_ADDR, 0x9100).put(Attr.WR_COUNT, 1).put(Attr.COMPARE_ADD, 1).build();
        List<TraceEvent> events = new ArrayList<>(List.of(
                new SessionEvent(h(0), FormatVersion.CURRENT, info),
                new CallEvent(h(1), Verb.IBV_POST_SEND, 0xAA, 12, 12, 100, sendIn,
                        Attrs.builder().put(Attr.BAD_WR_INDEX, 1).build(), sendChain),
                new CallEvent(h(2), Verb.IBV_POST_RECV, 0xAA, 0, 0, 100, recvIn, Attrs.EMPTY),
                new CallEvent(h(3), Verb.IBV_POST_SEND, 0xAA, 0, 0, 100, atomicIn, Attrs.EMPTY),
                new EndEvent(h(4), 4)));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.loadEvents("h", events);
            db.finishLoading();
            assertThat(query(db, "SELECT seq, wr_index, accepted, wr_id, opcode, num_sge, length, compare_add, swap "
                    + "FROM work_requests ORDER BY seq, wr_index")).containsExactly(
                    "1|0|true|1|0|2|128|null|null",
                    "1|1|false|2|5|1|8|7|9",
                    "2|0|true|3|null|1|64|null|null",
                    "3|0|true|4|6|1|8|1|null");
            assertThat(query(db, "SELECT seq, wr_index, sge_index, addr, length FROM sges ORDER BY seq, wr_index, sge_index"))
                    .containsExactly("1|0|0|4096|100", "1|0|1|8192|28", "1|1|0|12288|8", "2|0|0|16384|64", "3|0|0|12288|8");
            assertThat(query(db, "SELECT origin FROM hosts")).containsExactly("RECORD");
        }
    }

}
