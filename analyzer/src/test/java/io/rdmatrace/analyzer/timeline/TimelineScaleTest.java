package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * 500 QPs (250 connections, host B advertised every PSN one too high) analysed with the built-in
 * rules: the page folds the connections with the same history into one row each, folds the
 * findings the same way, bundles the message arrows, and stays under 1.5 MB; chromium draws it.
 */
class TimelineScaleTest {
    static final int CONNECTIONS = 250;
    static final long MAX_PAGE_BYTES = 1_500_000;

    @TempDir
    static Path dir;

    static Timeline full;
    static Timeline drawn;
    static String page;

    @BeforeAll
    static void analyze() throws Exception {
        Path traces = dir.resolve("trace");
        SyntheticTrace.write(new SyntheticTrace.Spec(traces, "host-a", "host-b", CONNECTIONS, 6 * 2 * CONNECTIONS, 3,
                SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(traces));
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            full = TimelineBuilder.build(TimelineSource.read(db.connection(), "trace/", result.findings()));
        }
        drawn = HtmlTimelineWriter.drawn(full);
        page = HtmlTimelineWriter.render(full);
    }

    @Test
    void html_500Qps_underOnePointFiveMegabytes() {
        long bytes = page.getBytes(StandardCharsets.UTF_8).length;
        System.out.printf("timeline of %d QPs: %d bytes of HTML (%d lanes, %d findings before folding)%n",
                2 * CONNECTIONS, bytes, full.lanes().size(), full.findings().size());
        assertThat(full.lanes().stream().filter(l -> l.kind() == LaneKind.QP)).hasSize(2 * CONNECTIONS);
        assertThat(bytes).isLessThan(MAX_PAGE_BYTES);
    }

    @Test
    void fold_sameHistories_oneRowPerConnectionShapeCountingEveryQp() {
        List<Lane> qpLanes = drawn.lanes().stream().filter(l -> l.kind() == LaneKind.QP).toList();
        assertThat(qpLanes.size()).isLessThanOrEqualTo(8);
        assertThat(qpLanes.stream().mapToInt(Lane::count).sum()).isEqualTo(2 * CONNECTIONS);
        // the two ends of a connection stay adjacent and fold together
        for (int i = 0; i + 1 < qpLanes.size(); i += 2) {
            assertThat(qpLanes.get(i).peer()).isEqualTo(qpLanes.get(i + 1).id());
            assertThat(qpLanes.get(i).count()).isEqualTo(qpLanes.get(i + 1).count());
        }
        Lane folded = qpLanes.stream().filter(l -> l.count() > 1).findFirst().orElseThrow();
        assertThat(folded.members()).startsWith("0x").endsWith("(" + folded.count() + " QPs)");
        // host B's QPs end in ERR (inferred from the retry-exceeded completion) on the folded row too
        assertThat(drawn.states()).anyMatch(s -> s.lane().equals(folded.peer()) && s.state().equals("ERR")
                && s.why() != null && s.why().contains("RETRY_EXC_ERR"));
    }

    @Test
    void fold_findingsOfOneRule_oneEntryWithItsCountAndDrawnEvidence() {
        assertThat(drawn.findings().size()).isLessThan(full.findings().size() / 10);
        assertThat(drawn.findings().stream().mapToInt(Timeline.FindingMark::count).sum())
                .isEqualTo(full.findings().size());
        Timeline.FindingMark psn = drawn.findings().stream().filter(f -> f.ruleId().equals("psn-misaligned"))
                .findFirst().orElseThrow();
        assertThat(psn.count()).isEqualTo(CONNECTIONS);
        assertThat(psn.others()).contains("QP 0x", "more");
        assertThat(psn.evidence()).isNotEmpty();
        java.util.Set<String> drawnEvents = new java.util.HashSet<>();
        drawn.calls().forEach(c -> drawnEvents.add(c.event()));
        drawn.points().forEach(p -> drawnEvents.add(p.event()));
        for (Timeline.FindingMark f : drawn.findings()) {
            assertThat(drawnEvents).containsAll(f.evidence());
        }
    }

    @Test
    void fold_messageArrows_bundledNeverBackwards() {
        assertThat(drawn.links().size()).isLessThan(20);
        assertThat(drawn.links().stream().mapToInt(Timeline.OobLink::count).sum()).isEqualTo(full.links().size());
        // 250 PARAMS each way: a few arrows (a piece of evidence on a host lane splits a bundle)
        List<Timeline.OobLink> params = drawn.links().stream().filter(l -> l.kind().equals("PARAMS")).toList();
        assertThat(params.size()).isBetween(2, 6);
        assertThat(params.stream().mapToInt(Timeline.OobLink::count).sum()).isEqualTo(2 * CONNECTIONS);
        assertThat(drawn.links()).allMatch(l -> l.receivedNs() >= l.sentNs());
        assertThat(full.links()).allMatch(l -> l.receivedNs() >= l.sentNs());
    }

    @Test
    void html_headlessChromium_foldedRowsDrawnLabelsApart() throws Exception {
        Optional<HeadlessChromium> found = HeadlessChromium.find();
        assumeTrue(found.isPresent(), "NOT RENDERED: no chromium on PATH (apt-get install chromium; .ci/run installs it)");
        Path file = dir.resolve("scale.html");
        Files.writeString(file, page, StandardCharsets.UTF_8);
        String dom = found.get().dumpDom(file, Files.createDirectories(dir.resolve("chromium-scale")));
        assertThat(dom).contains("data-rendered=\"true\"");
        int folded = drawn.lanes().stream().filter(l -> l.count() > 1).mapToInt(l -> 1).sum();
        assertThat(count(dom, "class=\"lane lane-qp folded\"")).isEqualTo(folded);
        assertThat(dom).contains("×" + (CONNECTIONS - 1), "QPs with this history");
        assertThat(dom).contains("data-state=\"ERR\"");
        DrawnLabels labels = DrawnLabels.in(dom);
        assertThat(labels.boxes()).hasSizeGreaterThan(20);
        assertThat(labels.overlaps()).isEmpty();
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
