package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.Evidence;
import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * The timeline of a two-host trace (B advertised a wrong PSN) as the analyzer sees it, drawn by a
 * real headless chromium and written as Perfetto JSON that DuckDB's JSON reader parses.
 */
class TimelineRenderTest {
    @TempDir
    static Path dir;

    static Timeline timeline;
    static Finding finding;

    @BeforeAll
    static void analyze() throws Exception {
        Path traces = dir.resolve("trace");
        SyntheticTrace.write(new SyntheticTrace.Spec(traces, "host-a", "host-b", 1, 24, 7,
                SyntheticTrace.Fault.PSN_OFF_BY_ONE));
        try (AnalyzedFixture db = AnalyzedFixture.load(traces)) {
            TimelineInput bare = db.input("trace/", List.of());
            TimelineInput.HostTrace a = bare.hosts().get(0);
            TimelineInput.HostTrace b = bare.hosts().get(1);
            // the evidence a PSN rule would cite: B's lying PARAMS, A's RTR with that rq_psn, B's failed send
            finding = new Finding("psn_mismatch", Severity.ERROR, "host-b", null, List.of(
                    new Evidence("host-a", seqOf(a, e -> e instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP
                            && c.ret() == 0 && c.in().get(io.rdmatrace.trace.model.Attr.QP_STATE, 0) == 2)),
                    new Evidence("host-b", seqOf(b, e -> e instanceof OobEvent o && o.direction() == OobEvent.Direction.SENT
                            && o.oobKind() == OobEvent.Kind.PARAMS)),
                    new Evidence("host-b", seqOf(b, e -> e instanceof CompletionEvent c && c.wc().status() == 12))),
                    "host-b advertised PSN one above its sq_psn");
            timeline = TimelineBuilder.build(db.input("trace/", List.of(finding)));
        }
    }

    private static long seqOf(TimelineInput.HostTrace host, java.util.function.Predicate<TraceEvent> which) {
        return host.events().stream().filter(which).findFirst().orElseThrow().seq();
    }

    @Test
    void source_analyzerViews_hostsOffsetsAndMessagePairs() {
        assertThat(timeline.hosts()).extracting(Timeline.Host::id).containsExactly("host-a", "host-b");
        assertThat(timeline.hosts()).extracting(Timeline.Host::role).containsExactly("listen", "connect");
        assertThat(timeline.hosts().get(1).method()).isEqualTo("oob-ntp");
        // HELLO×2, PARAMS×2, BARRIER×2 were exchanged, each matched across the hosts
        assertThat(timeline.links()).hasSize(6);
        assertThat(timeline.links()).allMatch(l -> !l.fromLane().equals(l.toLane()));
        // the two ends of the connection are adjacent, each naming the other as its peer
        assertThat(timeline.lanes()).extracting(Timeline.Lane::id).containsExactly("h0", "h1", "h0-qp0", "h1-qp0");
        assertThat(timeline.lanes()).extracting(Timeline.Lane::peer).containsExactly(null, null, "h1-qp0", "h0-qp0");
    }

    @Test
    void html_selfContained_noNetworkReferences() throws Exception {
        String page = HtmlTimelineWriter.render(timeline);
        // the only URL-like text is the SVG namespace name, which browsers never fetch
        assertThat(page.replace("'http://www.w3.org/2000/svg'", "")).doesNotContain("http:", "https:", "<link",
                " src=", "href=", "url(h", "@import");
        // the data block cannot be cut short by text in the trace
        assertThat(page.indexOf("</script>")).isGreaterThan(page.indexOf("id=\"timeline-data\""));
    }

    @Test
    void html_headlessChromium_drawsLanesCallsLinksStatesAndFindings() throws Exception {
        HeadlessChromium chromium = chromium();
        Path page = dir.resolve("timeline.html");
        Files.writeString(page, HtmlTimelineWriter.render(timeline), StandardCharsets.UTF_8);
        Path scratch = Files.createDirectories(dir.resolve("chromium-dom"));
        String dom = chromium.dumpDom(page, scratch);

        assertThat(dom).contains("data-rendered=\"true\"");
        assertThat(count(dom, "class=\"lane lane-host\"")).isEqualTo(2);
        assertThat(count(dom, "class=\"lane lane-qp\"")).isEqualTo(2);
        assertThat(count(dom, "<rect class=\"call dimmable")).isEqualTo(timeline.calls().size());
        for (Timeline.CallSpan c : timeline.calls()) {
            assertThat(dom).contains("id=\"" + c.event() + "\"");
        }
        assertThat(count(dom, "class=\"oob-link ")).isEqualTo(6);
        assertThat(count(dom, "class=\"wc dimmable")).isEqualTo(
                (int) timeline.points().stream().filter(p -> p.kind() == Timeline.PointKind.COMPLETION).count());
        assertThat(dom).contains("data-state=\"RTS\"", "data-state=\"RTR\"", "data-state=\"INIT\"");
        // host-b's QP ends in ERR: qp_final_state inferred it from the retry-exceeded completion
        assertThat(dom).containsPattern("<rect class=\"qpstate state-ERR inferred\"[^>]*data-state=\"ERR\"");
        assertThat(timeline.states()).anyMatch(st -> st.lane().equals("h1-qp0") && st.state().equals("ERR")
                && st.why().startsWith("ERR (inferred: completion IBV_WC_RETRY_EXC_ERR"));
        // no two labels overlap (boxes from the widths chromium measured)
        DrawnLabels labels = DrawnLabels.in(dom);
        assertThat(labels.boxes()).hasSizeGreaterThan(10);
        assertThat(labels.overlaps()).isEmpty();
        assertThat(dom).contains("class=\"axis-tick\"");
        // both hosts' refused RESET→RTS probe is drawn as a failed call
        assertThat(count(dom, "class=\"call dimmable fail\"")).isGreaterThanOrEqualTo(2);
        // the finding is listed and every piece of evidence is marked and badged
        assertThat(dom).contains("id=\"finding-1\"", "psn_mismatch", "host-b advertised PSN one above its sq_psn");
        assertThat(timeline.findings().get(0).evidence()).hasSize(3);
        for (String ev : timeline.findings().get(0).evidence()) {
            Matcher m = Pattern.compile("<[a-z]+ class=\"([^\"]*)\" id=\"" + ev + "\"[^>]*data-findings=\"1\"").matcher(dom);
            assertThat(m.find()).as("evidence " + ev + " marked in the DOM").isTrue();
            assertThat(m.group(1)).contains("evidence");
        }
        assertThat(count(dom, "class=\"badge\" data-finding=\"1\"")).isEqualTo(3);
    }

    @Test
    void html_headlessChromium_screenshotShowsTheDrawing() throws Exception {
        HeadlessChromium chromium = chromium();
        Path page = dir.resolve("timeline-shot.html");
        Files.writeString(page, HtmlTimelineWriter.render(timeline), StandardCharsets.UTF_8);
        Path png = dir.resolve("timeline.png");
        chromium.screenshot(page, png, 1400, 700, Files.createDirectories(dir.resolve("chromium-shot")));

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        Set<Integer> colours = new HashSet<>();
        long inked = 0;
        boolean rtsGreen = false;
        boolean failRed = false;
        boolean evidenceAmber = false;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                inked += rgb == 0xFFFFFF ? 0 : 1;
                rtsGreen |= near(rgb, 0x5cb85c);
                failRed |= near(rgb, 0xd43d3d);
                evidenceAmber |= near(rgb, 0xffab00);
            }
        }
        assertThat(colours.size()).as("distinct colours").isGreaterThan(50);
        assertThat(inked * 100 / ((long) image.getWidth() * image.getHeight())).as("% non-white").isGreaterThan(10);
        assertThat(rtsGreen).as("an RTS state band is visible").isTrue();
        assertThat(failRed).as("a failed call, error completion or ERR band is visible").isTrue();
        assertThat(evidenceAmber).as("evidence outlined in its own colour, not the failure red").isTrue();
    }

    @Test
    void perfetto_parsedByDuckDbJson_wellFormedTraceEvents() throws Exception {
        String json = PerfettoWriter.render(timeline);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
            try (PreparedStatement ps = c.prepareStatement("CREATE TABLE doc AS SELECT CAST(? AS JSON) AS j")) {
                ps.setString(1, json);
                ps.execute();
            }
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE ev AS SELECT json_extract_string(e, '$.ph') AS ph,"
                        + " json_extract_string(e, '$.name') AS name, json_extract_string(e, '$.cat') AS cat,"
                        + " TRY_CAST(json_extract_string(e, '$.ts') AS DOUBLE) AS ts,"
                        + " TRY_CAST(json_extract_string(e, '$.dur') AS DOUBLE) AS dur,"
                        + " TRY_CAST(json_extract_string(e, '$.pid') AS INTEGER) AS pid,"
                        + " TRY_CAST(json_extract_string(e, '$.tid') AS INTEGER) AS tid,"
                        + " json_extract_string(e, '$.id') AS id, json_extract_string(e, '$.args.name') AS arg_name,"
                        + " json_extract_string(e, '$.args.findings') AS arg_findings"
                        + " FROM (SELECT unnest(json_extract(j, '$.traceEvents[*]')) AS e FROM doc)");
                assertThat(scalar(s, "SELECT json_extract_string(j, '$.displayTimeUnit') FROM doc")).isEqualTo("ns");
                long expected = timeline.calls().size() + timeline.states().size() + timeline.points().size()
                        + 2L * timeline.links().size() + timeline.findings().size();
                assertThat(Long.parseLong(scalar(s, "SELECT count(*) FROM ev WHERE ph <> 'M'"))).isEqualTo(expected);
                // every event has a phase and a pid; every non-metadata event a non-negative timestamp
                assertThat(scalar(s, "SELECT count(*) FROM ev WHERE ph IS NULL OR pid IS NULL"
                        + " OR (ph <> 'M' AND (ts IS NULL OR ts < 0))")).isEqualTo("0");
                // complete slices have a duration and a track
                assertThat(scalar(s, "SELECT count(*) FROM ev WHERE ph = 'X' AND (dur IS NULL OR dur < 0 OR tid IS NULL)"))
                        .isEqualTo("0");
                assertThat(scalar(s, "SELECT string_agg(DISTINCT ph, '' ORDER BY ph) FROM ev")).isEqualTo("MXfis");
                // each flow starts once and finishes once, after it started (clock-corrected)
                assertThat(scalar(s, "SELECT count(*) FROM (SELECT id, count(*) FILTER (WHERE ph = 's') AS starts,"
                        + " count(*) FILTER (WHERE ph = 'f') AS ends,"
                        + " max(ts) FILTER (WHERE ph = 'f') - max(ts) FILTER (WHERE ph = 's') AS flight"
                        + " FROM ev WHERE ph IN ('s', 'f') GROUP BY id) WHERE starts = 1 AND ends = 1 AND flight >= 0"))
                        .isEqualTo("6");
                assertThat(scalar(s, "SELECT string_agg(arg_name, ',' ORDER BY pid) FROM ev"
                        + " WHERE ph = 'M' AND name = 'process_name'")).isEqualTo("findings,host-a (listen),host-b (connect)");
                assertThat(scalar(s, "SELECT name FROM ev WHERE cat = 'finding'")).isEqualTo("[ERROR] psn_mismatch");
                // host-b's QP ends in ERR on its state track, saying why
                assertThat(scalar(s, "SELECT count(*) FROM ev WHERE ph = 'X' AND cat = 'qp_state' AND name = 'ERR'"))
                        .isEqualTo("1");
                assertThat(scalar(s, "SELECT count(*) FROM ev WHERE arg_findings IS NOT NULL")).isEqualTo("3");
            }
        }
    }

    /**
     * Tick lines carry their time (data-t): between two ticks with no cut gap between them, x
     * grows by the same px per ns everywhere; across a cut gap by less than that (the gap is cut).
     */
    static void assertEvenTicks(String dom) {
        List<double[]> ticks = new java.util.ArrayList<>();
        Matcher m = Pattern.compile("<line class=\"axis-tick\" x1=\"([-0-9.]+)\"[^>]*data-t=\"([0-9.e+]+)\"").matcher(dom);
        while (m.find()) {
            ticks.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))});
        }
        List<double[]> gaps = new java.util.ArrayList<>();
        Matcher g = Pattern.compile("class=\"gap\" data-s=\"([0-9]+)\" data-e=\"([0-9]+)\"").matcher(dom);
        while (g.find()) {
            gaps.add(new double[] {Double.parseDouble(g.group(1)), Double.parseDouble(g.group(2))});
        }
        assertThat(ticks.size()).as("axis ticks").isGreaterThanOrEqualTo(3);
        ticks.sort(java.util.Comparator.comparingDouble(t -> t[1]));
        Double slope = null;
        int checked = 0;
        for (int i = 1; i < ticks.size(); i++) {
            double[] a = ticks.get(i - 1);
            double[] b = ticks.get(i);
            double rate = (b[0] - a[0]) / (b[1] - a[1]);
            boolean acrossGap = gaps.stream().anyMatch(gp -> gp[0] >= a[1] && gp[1] <= b[1]);
            if (acrossGap) {
                continue;
            }
            if (slope == null) {
                slope = rate;
            }
            assertThat(rate).as("px per ns between ticks at %s and %s ns", a[1], b[1]).isCloseTo(slope,
                    org.assertj.core.data.Offset.offset(slope * 1e-6));
            checked++;
        }
        assertThat(checked).as("tick pairs on one segment").isGreaterThanOrEqualTo(2);
    }

    @Test
    void html_headlessChromium_idleGapCutAndMarkedTicksEven() throws Exception {
        // 8 ms of calls every 100 µs, 2 s of nothing, 8 ms of calls again
        List<Timeline.CallSpan> calls = new java.util.ArrayList<>();
        long second = 2_008_000_000L;
        for (int i = 0; i < 80; i++) {
            calls.add(TimeAxisTest.call("a" + i, i * 100_000L, i * 100_000L + 50_000));
            calls.add(TimeAxisTest.call("b" + i, second + i * 100_000L, second + i * 100_000L + 50_000));
        }
        Timeline t = TimeAxisTest.timeline(calls, List.of(), second + 7_950_000);
        Path page = dir.resolve("gap.html");
        Files.writeString(page, HtmlTimelineWriter.render(t), StandardCharsets.UTF_8);
        String dom = chromium().dumpDom(page, Files.createDirectories(dir.resolve("chromium-gap")));
        assertThat(count(dom, "<g class=\"gap\"")).isEqualTo(1);
        assertThat(dom).contains("class=\"gap\" data-s=\"7950000\" data-e=\"" + second + "\"", "⋯ 2.00 s ⋯");
        assertEvenTicks(dom);
        assertThat(DrawnLabels.in(dom).overlaps()).isEmpty();
    }

    private static String scalar(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    private static HeadlessChromium chromium() {
        Optional<HeadlessChromium> found = HeadlessChromium.find();
        assumeTrue(found.isPresent(), "NOT RENDERED: no chromium on PATH (apt-get install chromium; .ci/run installs it)");
        return found.get();
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static boolean near(int rgb, int target) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((rgb >> shift) & 0xFF) - ((target >> shift) & 0xFF)) > 6) {
                return false;
            }
        }
        return true;
    }
}
