package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;
import io.rdmatrace.trace.synth.SyntheticTrace;

/** A long data path (6000 data-path events per host, B's sends failing) condensed for the page. */
class DataPathCondenserTest {
    @TempDir
    static Path dir;

    static Timeline full;

    @BeforeAll
    static void build() throws Exception {
        Path traces = dir.resolve("trace");
        SyntheticTrace.write(new SyntheticTrace.Spec(traces, "host-a", "host-b", 1, 6000, 3,
                SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        try (AnalyzedFixture db = AnalyzedFixture.load(traces)) {
            TimelineInput bare = db.input("trace/", List.of());
            // a routine (successful) completion in the middle of host-a's data path is a finding's evidence
            long middle = bare.hosts().get(0).events().stream()
                    .filter(e -> e instanceof io.rdmatrace.trace.model.CompletionEvent c && c.wc().status() == 0)
                    .skip(400).findFirst().orElseThrow().seq();
            Finding f = new Finding("some-rule", Severity.WARNING, "host-a", null, List.of(new Evidence("host-a", middle)), "m");
            full = TimelineBuilder.build(db.input("trace/", List.of(f)));
        }
    }

    @Test
    void condense_underTheLimit_unchanged() {
        assertThat(DataPathCondenser.condense(full, 1_000_000)).isSameAs(full);
    }

    @Test
    void condense_overTheLimit_keepsControlPathFailuresAndEvidence() {
        Timeline small = DataPathCondenser.condense(full, 400);

        long routineBefore = routine(full);
        long routineAfter = routine(small);
        assertThat(routineBefore).isGreaterThan(5000);
        assertThat(routineAfter).isLessThanOrEqualTo(400 + 4); // first and last per lane, lanes rounding
        // every control-path call, failed call and error completion is still there
        assertThat(ids(small.calls().stream().filter(c -> !isDataPath(c.verb()) || !c.ok())))
                .containsAll(ids(full.calls().stream().filter(c -> !isDataPath(c.verb()) || !c.ok())));
        assertThat(small.points().stream().filter(Point::bad).count()).isEqualTo(full.points().stream().filter(Point::bad).count());
        // the evidence completion survives, so its badge has something to sit on
        String evidence = full.findings().get(0).evidence().get(0);
        assertThat(small.points()).anyMatch(p -> p.event().equals(evidence));
        // each condensed span says how many events it stands for, and the counts add up
        List<CallSpan> condensed = small.calls().stream().filter(c -> c.verb().equals(DataPathCondenser.CONDENSED)).toList();
        assertThat(condensed).isNotEmpty();
        long summarised = condensed.stream().mapToLong(c -> Long.parseLong(c.label().split(" ")[0])).sum();
        assertThat(routineAfter + summarised).isEqualTo(routineBefore);
        assertThat(condensed).allMatch(c -> c.detail().contains("--format perfetto shows every event"));
    }

    @Test
    void html_longDataPath_pageStaysSmall() {
        assertThat(HtmlTimelineWriter.render(full).length()).isLessThan(1_500_000);
        assertThat(PerfettoWriter.render(full)).contains("\"name\":\"ibv_post_send\"");
    }

    private static long routine(Timeline t) {
        Set<String> evidence = t.findings().stream().flatMap(f -> f.evidence().stream()).collect(Collectors.toSet());
        return t.calls().stream().filter(c -> c.ok() && isDataPath(c.verb()) && !evidence.contains(c.event())).count()
                + t.points().stream().filter(p -> p.kind() == PointKind.COMPLETION && !p.bad()
                && !evidence.contains(p.event())).count();
    }

    private static boolean isDataPath(String verb) {
        return verb.equals("ibv_post_send") || verb.equals("ibv_post_recv") || verb.equals("ibv_poll_cq");
    }

    private static Set<String> ids(java.util.stream.Stream<CallSpan> calls) {
        return calls.map(CallSpan::event).collect(Collectors.toSet());
    }
}
