package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** A host's trace read back through the public reader, with the queries the capture tests ask. */
record CaptureTraces(TraceReader.Result result) {

    static CaptureTraces read(Path out, String host) throws Exception {
        return new CaptureTraces(TraceReader.readAll(out.resolve(host)));
    }

    /** Readable to the end and closed cleanly (an END event). */
    CaptureTraces assertComplete() {
        assertThat(result.outcome().status()).as(result.outcome().detail()).isEqualTo(ReadOutcome.Status.CLEAN);
        return this;
    }

    List<TraceEvent> events() {
        return result.events();
    }

    List<CallEvent> calls(Verb verb) {
        return events().stream().filter(e -> e instanceof CallEvent c && c.verb() == verb).map(e -> (CallEvent) e).toList();
    }

    List<CompletionEvent> completions() {
        return events().stream().filter(e -> e instanceof CompletionEvent).map(e -> (CompletionEvent) e).toList();
    }

    List<OobEvent> oob(OobEvent.Kind kind, OobEvent.Direction direction) {
        return events().stream().filter(e -> e instanceof OobEvent o && o.oobKind() == kind && o.direction() == direction)
                .map(e -> (OobEvent) e).toList();
    }

    /** "TC01 PASS", "TC04 FAIL", … in order (the INFO start marks left out). */
    List<String> verdicts() {
        return events().stream().filter(e -> e instanceof MarkEvent m && m.verdict() != MarkEvent.Verdict.INFO)
                .map(e -> ((MarkEvent) e).step() + " " + ((MarkEvent) e).verdict()).collect(Collectors.toList());
    }

    MarkEvent mark(String step, MarkEvent.Verdict verdict) {
        return events().stream().filter(e -> e instanceof MarkEvent m && m.step().equals(step) && m.verdict() == verdict)
                .map(e -> (MarkEvent) e).findFirst().orElseThrow(() -> new AssertionError("no " + step + " " + verdict + " mark"));
    }

    /** The verbs of the CALL events, in order. */
    List<Verb> verbs() {
        return events().stream().filter(e -> e instanceof CallEvent).map(e -> ((CallEvent) e).verb()).toList();
    }
}
