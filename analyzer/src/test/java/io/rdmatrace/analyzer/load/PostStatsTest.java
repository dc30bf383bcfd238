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

/**
 * _post_stats groups the data path's posts before it looks up their QPs: it must still equal
 * grouping the posts view row by row, also when a handle passes to another QP between posts that
 * fall in one group (then they are taken one by one).
 */
class PostStatsTest {
    /** The definition _post_stats replaced: the posts view, grouped. */
    private static final String PER_POST = "SELECT host, qp_num, queue, CASE WHEN queue = 'srq' THEN handle END AS srq, "
            + "opcode, ok, errno, rkey, lkey, remote_qpn, count(*) AS n, min(seq) AS first_seq, min(ts_ns) AS first_ts_ns, max(seq) AS last_seq, "
            + "min(length) AS min_length, max(length) AS max_length, "
            + "min(remote_addr) AS min_remote_addr, max(remote_addr + coalesce(length, 0)) AS max_remote_end "
            + "FROM posts GROUP BY host, qp_num, queue, srq, opcode, ok, errno, rkey, lkey, remote_qpn";

    private static EventHeader h(long seq) {
        return new EventHeader(seq, seq * 1000, 1_700_000_000_000_000_000L + seq * 1000, 1, 1, "main");
    }

    private static CallEvent createQp(long seq, long handle, long qpNum) {
        return new CallEvent(h(seq), Verb.IBV_CREATE_QP, handle, 0, 0, 100, Attrs.EMPTY,
                Attrs.builder().put(Attr.QP_NUM, qpNum).build());
    }

    /** A post whose attributes all have a _datapath column, without a QP number (found through the handle). */
    private static CallEvent post(long seq, long handle, int ret, long length) {
        return new CallEvent(h(seq), Verb.IBV_POST_SEND, handle, ret, ret, 100, Attrs.builder().put(Attr.WR_ID, seq)
                .put(Attr.WR_OPCODE, 0).put(Attr.LENGTH, length).put(Attr.LKEY, 5).put(Attr.RKEY, 7)
                .put(Attr.REMOTE_ADDR, 0x9000 + seq).put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY);
    }

    @Test
    void postStats_handleReusedBetweenPostsOfOneGroup_equalsThePostsViewGrouped() throws Exception {
        SessionInfo info = new SessionInfo("t", "h", "", "", SessionInfo.PROGRAM_SCENARIO, Map.of(), Attrs.EMPTY,
                List.of(), List.of());
        List<TraceEvent> events = new ArrayList<>(List.of(
                new SessionEvent(h(0), FormatVersion.CURRENT, info),
                post(1, 0xAA, 0, 10), // before any QP had the handle: no QP
                createQp(2, 0xAA, 0x11),
                post(3, 0xAA, 0, 20),
                post(4, 0xAA, 0, 30),
                post(5, 0xAA, 12, 40), // failed: a group of its own
                createQp(6, 0xAA, 0x22), // the same handle, another QP
                post(7, 0xAA, 0, 50),
                post(8, 0xBB, 0, 60), // a handle no QP ever had
                // the QP number given by the post itself wins over the handle's
                new CallEvent(h(9), Verb.IBV_POST_SEND, 0xAA, 0, 0, 100, Attrs.builder().put(Attr.QP_NUM, 0x33)
                        .put(Attr.WR_ID, 9).put(Attr.WR_OPCODE, 0).put(Attr.LENGTH, 70).put(Attr.LKEY, 5).put(Attr.RKEY, 7)
                        .put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY),
                // an attribute the data-path table has no column for: the post is a _call row (_ctl)
                new CallEvent(h(10), Verb.IBV_POST_SEND, 0xAA, 0, 0, 100, Attrs.builder().put(Attr.WR_ID, 10)
                        .put(Attr.WR_OPCODE, 6).put(Attr.LENGTH, 8).put(Attr.LKEY, 5).put(Attr.RKEY, 7).put(Attr.COMPARE_ADD, 1)
                        .put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY),
                new EndEvent(h(11), 11)));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            db.loadEvents("h", events);
            db.finishLoading();
            assertThat(query(db, "SELECT count(*) FROM _call WHERE verb = 27")).containsExactly("1");
            assertThat(query(db, "SELECT qp_num, ok, n, first_seq, last_seq, min_length, max_length, max_remote_end "
                    + "FROM _post_stats ORDER BY first_seq")).containsExactly(
                    "null|true|2|1|8|10|60|36932", // seq 1 and 8: no QP either, the same keys otherwise
                    "17|true|2|3|4|20|30|36898",
                    "17|false|1|5|5|40|40|36909",
                    "34|true|1|7|7|50|50|36921",
                    "51|true|1|9|9|70|70|null",
                    "34|true|1|10|10|8|8|null");
            assertThat(query(db, "SELECT count(*) FROM ((" + PER_POST + ") EXCEPT ALL (SELECT * FROM _post_stats)) "
                    + "UNION ALL SELECT count(*) FROM ((SELECT * FROM _post_stats) EXCEPT ALL (" + PER_POST + "))"))
                    .containsExactly("0", "0");
        }
    }
}
