package io.rdmatrace.analyzer.rules;

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
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;

/** UD QPs of recorded programs pair through their sends: remote_qpn plus the address handle's GID. */
class RecordedUdPairTest {

    @Test
    void udSends_pairTheQpsTheyAddress() throws Exception {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            // both devices number their QPs alike; a third host has the same QPN but another GID
            db.loadEvents("hostA", host("hostA", "::ffff:10.0.0.1", 0x11, "::ffff:10.0.0.2", 0x11));
            db.loadEvents("hostB", host("hostB", "::ffff:10.0.0.2", 0x11, "::ffff:10.0.0.1", 0x11));
            db.loadEvents("hostC", host("hostC", "::ffff:10.0.0.3", 0x11, "::ffff:10.0.0.9", 0x11));
            db.finishLoading();
            assertThat(query(db, "SELECT host_a, qp_a, host_b, qp_b, matched_by FROM connection_pairs"))
                    .containsExactly("hostA|17|hostB|17|remote_qpn");
        }
    }

    private static List<TraceEvent> host(String host, String gid, int qpn, String peerGid, int peerQpn) {
        long qp = 0x5000;
        long ah = 0x6000;
        SessionInfo info = new SessionInfo("t", host, "ibv_ud_pingpong", "lib", SessionInfo.PROGRAM_SCENARIO, Map.of(),
                Attrs.EMPTY, List.of(), List.of(new GidEntry(1, 0, gid, 2)));
        List<TraceEvent> events = new ArrayList<>();
        events.add(new SessionEvent(h(0), FormatVersion.CURRENT, info));
        events.add(new CallEvent(h(1), Verb.IBV_CREATE_QP, qp, 0, 0, 100, Attrs.builder().put(Attr.QP_TYPE, 4).build(),
                Attrs.builder().put(Attr.QP_NUM, qpn).build()));
        events.add(new CallEvent(h(2), Verb.IBV_MODIFY_QP, qp, 0, 0, 100, Attrs.builder().put(Attr.QP_NUM, qpn)
                .put(Attr.ATTR_MASK, 0x1).put(Attr.QP_STATE, 3).build(), Attrs.EMPTY));
        events.add(new CallEvent(h(3), Verb.IBV_CREATE_AH, ah, 0, 0, 100, Attrs.builder().put(Attr.IS_GLOBAL, true)
                .put(Attr.DGID, peerGid).put(Attr.DLID, 0).build(), Attrs.EMPTY));
        events.add(new CallEvent(h(4), Verb.IBV_POST_SEND, qp, 0, 0, 100, Attrs.builder().put(Attr.AH, ah)
                .put(Attr.QP_NUM, qpn).put(Attr.WR_ID, 1).put(Attr.WR_OPCODE, 2).put(Attr.SEND_FLAGS, 2)
                .put(Attr.NUM_SGE, 0).put(Attr.REMOTE_QPN, peerQpn).put(Attr.REMOTE_QKEY, 0x11111111L)
                .put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY));
        events.add(new EndEvent(h(5), 5));
        return events;
    }

    private static EventHeader h(long seq) {
        return new EventHeader(seq, seq * 1000, 1_700_000_000_000_000_000L + seq * 1000, 1, 1, "main");
    }

}
