package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.Capture;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.EventHeader;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Connections the listener refused (a stray or hostile client) are recorded as refused and are no
 * peer: a passing capture that refused some stays free of host-missing, while a real peer whose
 * trace is absent is still reported.
 */
class RefusedConnectionTest {

    @Test
    void refusedConnections_areNeverMissingHosts() throws Exception {
        Capture.Events events = new Capture().build();
        List<TraceEvent> a = new ArrayList<>(events.a());
        EndEvent end = (EndEvent) a.remove(a.size() - 1);
        long seq = end.seq();
        for (int i = 0; i < 11; i++) {
            String stranger = "127.66.0." + (i + 1) + ":40000";
            // what agents before OOB protocol 2 recorded: the stranger's HELLO, our HELLO, then the refusal
            a.add(oob(seq++, OobEvent.Direction.RECEIVED, stranger, OobEvent.Kind.HELLO, Attrs.EMPTY));
            a.add(oob(seq++, OobEvent.Direction.SENT, stranger, OobEvent.Kind.HELLO, Attrs.EMPTY));
            a.add(oob(seq++, OobEvent.Direction.RECEIVED, stranger, OobEvent.Kind.INVALID,
                    Attrs.builder().put(Attr.MESSAGE, "refused: the peer's message authentication code does not verify").build()));
        }
        a.add(new EndEvent(header(seq), seq + 1));
        AnalysisResult r = analyze(a, events.b());
        assertThat(Analysis.summary(r)).noneMatch(f -> f.startsWith("host-missing"));
        assertThat(r.connections()).hasSize(1);

        // the real peer's trace missing is still a host-missing
        AnalysisResult alone = analyze(a, null);
        assertThat(Analysis.summary(alone)).contains("host-missing host-a -");
    }

    private static AnalysisResult analyze(List<TraceEvent> a, List<TraceEvent> b) throws Exception {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            List<HostLoad> loads = new ArrayList<>();
            loads.add(db.loadEvents(Capture.A, a));
            if (b != null) {
                loads.add(db.loadEvents(Capture.B, b));
            }
            db.finishLoading();
            return Analyzer.analyze(db, new LoadReport(loads, List.of(), 0), RuleCatalog.builtin());
        }
    }

    private static EventHeader header(long seq) {
        return new EventHeader(seq, 1_000_000_000L + seq, 1_700_000_000_000_000_000L + seq, 1, 1, "main");
    }

    private static OobEvent oob(long seq, OobEvent.Direction d, String peer, OobEvent.Kind kind, Attrs attrs) {
        return new OobEvent(header(seq), d, peer, kind, attrs);
    }
}
