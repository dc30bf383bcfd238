package io.rdmatrace.analyzer.rules;

import static io.rdmatrace.analyzer.SqlRows.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.fixture.Capture;

/** Diff tests of the documented views on a capture whose host B's wall clock runs 5 ms ahead. */
class ViewsTest {


    @Test
    void views_skewedClock_connectionTimelineAndOffsets() throws Exception {
        Capture capture = new Capture();
        capture.b().clockSkewNanos(5_000_000);
        Capture.Events events = capture.build();
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.loadEvents(Capture.A, events.a());
            db.loadEvents(Capture.B, events.b());
            db.finishLoading();
            // A->B and B->A hops both take 20 µs (+1 µs per event): the estimate recovers the 5 ms skew
            assertThat(query(db, "SELECT host, reference_host, offset_ns, uncertainty_ns, samples, method "
                    + "FROM host_clock_offset ORDER BY host")).containsExactly(
                    "host-a|host-a|0|0|0|reference",
                    "host-b|host-a|5000000|21000|4|oob-ntp");
            // after alignment B's RTR (its seq 15) comes after A's RTR (seq 15) by the events in between
            assertThat(query(db, "SELECT (b.ts_ns - a.ts_ns) FROM calls a, calls b WHERE a.host = 'host-a' AND a.seq = 15 "
                    + "AND b.host = 'host-b' AND b.seq = 17")).containsExactly("6000");
            assertThat(query(db, "SELECT sender, sent_seq, receiver, received_seq, oob_kind FROM oob_messages "
                    + "ORDER BY sender, sent_seq")).containsExactly(
                    "host-a|13|host-b|13|PARAMS", "host-a|19|host-b|19|BARRIER",
                    "host-b|14|host-a|14|PARAMS", "host-b|20|host-a|20|BARRIER");
            assertThat(query(db, "SELECT pair_id, host_a, qp_a, host_b, qp_b, conn_index, matched_by FROM connection_pairs"))
                    .containsExactly("1|host-a|17|host-b|17|0|dest_qp_num+oob");
            assertThat(query(db, "SELECT host, qp_num, peer_host, peer_qp_num FROM qp_peers ORDER BY host"))
                    .containsExactly("host-a|17|host-b|17", "host-b|17|host-a|17");
            assertThat(query(db, "SELECT seq, from_state_name, to_state_name, state_after_name, ok, mask_names, "
                    + "req_path_mtu, got_path_mtu, req_rq_psn, got_rq_psn FROM qp_state_timeline WHERE host = 'host-a' ORDER BY seq"))
                    .containsExactly(
                    "7|RESET|RTS|RESET|false|IBV_QP_STATE|null|null|null|null",
                    "10|RESET|INIT|INIT|true|IBV_QP_STATE|IBV_QP_ACCESS_FLAGS|IBV_QP_PKEY_INDEX|IBV_QP_PORT|null|null|null|null",
                    "15|INIT|RTR|RTR|true|IBV_QP_STATE|IBV_QP_AV|IBV_QP_PATH_MTU|IBV_QP_RQ_PSN|IBV_QP_MIN_RNR_TIMER"
                            + "|IBV_QP_MAX_DEST_RD_ATOMIC|IBV_QP_DEST_QPN|3|3|8192|8192",
                    "17|RTR|RTS|RTS|true|IBV_QP_STATE|IBV_QP_TIMEOUT|IBV_QP_RETRY_CNT|IBV_QP_RNR_RETRY|IBV_QP_MAX_QP_RD_ATOMIC"
                            + "|IBV_QP_SQ_PSN|null|3|null|8192");
            assertThat(query(db, "SELECT host, object_kind, create_seq, destroy_seq FROM objects WHERE host = 'host-b' "
                    + "ORDER BY create_seq")).containsExactly(
                    "host-b|context|1|30", "host-b|pd|2|29", "host-b|mr|3|28", "host-b|cq|4|27", "host-b|qp|5|26");
            assertThat(query(db, "SELECT kind, count(*) FROM events WHERE host = 'host-a' GROUP BY kind ORDER BY kind"))
                    .containsExactly("CALL|22", "COMPLETION|2", "END|1", "MARK|2", "OOB|4", "SESSION|1");
        }
    }
}
