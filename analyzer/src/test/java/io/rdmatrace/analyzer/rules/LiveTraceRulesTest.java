package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.Capture;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.TraceEvent;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: traces read while they are written (RECORDING) and the stall rule. The fixture's
 * two-host RC capture is cut where host-a's send has been posted but not completed, both hosts
 * still recording; "now" is put 1 s or 6 s after the last event (stall_after_ns() is 5 s).
 */
class LiveTraceRulesTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aSendWithoutCompletionForSixSeconds_isAStall_namingBothSides() throws SQLException {
        AnalysisResult r = live(6 * SECOND);
        // both sides posted their send and neither saw a completion: each is stalled, and says what the other did
        List<String> rows = Analysis.rows(r, "stall");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).startsWith("host-a|0x000011|[host-a#21, host-b#18]|")
                .contains("host-a QP 0x000011 has 1 send(s) outstanding with no completion for 6.0 s (the first posted at host-a#21)")
                .contains("still recording; it is in RTS, with 1 receive(s) outstanding")
                .endsWith("its peer host-b QP 0x000011 is in RTS, posted 1 send(s) and 1 receive(s), completed 0,"
                        + " last call ibv_query_qp at host-b#18");
        assertThat(rows.get(1)).startsWith("host-b|0x000011|").contains("has 1 send(s) outstanding with no completion for 6.0 s")
                .contains("its peer host-a QP 0x000011 is in RTS");
        assertThat(r.load().hosts()).extracting(HostLoad::integrity).containsOnly("still recording");
        assertThat(Analysis.summary(r)).contains("trace-recording host-a -", "trace-recording host-b -")
                .noneMatch(s -> s.startsWith("trace-truncated"));
        assertThat(r.findings()).filteredOn(f -> f.ruleId().equals("trace-recording"))
                .allMatch(f -> f.severity() == Severity.INFO);
    }

    @Test
    void theSameSendOneSecondOld_isNoStall() throws SQLException {
        AnalysisResult r = live(SECOND);
        assertThat(Analysis.rows(r, "stall")).isEmpty();
        // a live trace alone is no error: the run would exit 0
        assertThat(r.countAtLeast(Severity.WARNING)).as(Analysis.summary(r).toString()).isZero();
    }

    @Test
    void aCompleteCapture_readLongAfter_hasNoStall() throws SQLException {
        Capture c = new Capture();
        c.a().noEnd().noDestroy();
        c.b().noEnd().noDestroy();
        Capture.Events e = c.build();
        AnalysisResult r = load(e.a(), e.b(), 60 * SECOND);
        assertThat(Analysis.rows(r, "stall")).isEmpty();
    }

    @Test
    void aFinishedTraceMeasuresToItsLastEvent() throws SQLException {
        // the same cut, but as a killed (TRUNCATED) trace: its present is its last event, microseconds after the post
        Capture c = new Capture();
        Capture.Events e = c.build();
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            List<HostLoad> loads = List.of(db.loadEvents(Capture.A, beforeSendCompletion(e.a())),
                    db.loadEvents(Capture.B, beforeSendCompletion(e.b())));
            db.finishLoading();
            AnalysisResult r = Analyzer.analyze(db, new LoadReport(loads, List.of(), 0), RuleCatalog.builtin());
            assertThat(Analysis.rows(r, "stall")).isEmpty();
            assertThat(Analysis.summary(r)).noneMatch(s -> s.startsWith("trace-recording"));
        }
    }

    private static AnalysisResult live(long after) throws SQLException {
        Capture.Events e = new Capture().build();
        return load(beforeSendCompletion(e.a()), beforeSendCompletion(e.b()), after);
    }

    private static AnalysisResult load(List<TraceEvent> a, List<TraceEvent> b, long after) throws SQLException {
        long last = Math.max(a.get(a.size() - 1).header().wallNanos(), b.get(b.size() - 1).header().wallNanos());
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            List<HostLoad> loads = List.of(db.loadLiveEvents(Capture.A, a, last + after),
                    db.loadLiveEvents(Capture.B, b, last + after));
            db.finishLoading();
            return Analyzer.analyze(db, new LoadReport(loads, List.of(), 0), RuleCatalog.builtin());
        }
    }

    /** A host's events up to (without) its first completion: its send (or receive) still outstanding. */
    private static List<TraceEvent> beforeSendCompletion(List<TraceEvent> events) {
        List<TraceEvent> cut = new ArrayList<>();
        for (TraceEvent e : events) {
            if (e instanceof CompletionEvent) {
                break;
            }
            cut.add(e);
        }
        return cut;
    }
}
