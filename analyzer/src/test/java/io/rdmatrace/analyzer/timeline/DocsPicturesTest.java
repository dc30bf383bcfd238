package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Analyzer;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.trace.synth.SyntheticTrace;

/**
 * The README's pictures are screenshots of timelines. Each is checked current: the page it was shot
 * from is rendered again from the same trace and its SHA-256 compared with the one
 * {@code docs/pictures.sha256} recorded when the screenshot was taken, so a change to the timeline's
 * drawing or to the findings it marks fails here until the pictures are shot again. With
 * {@code -Drdmatrace.docs.regenerate=true} (what {@code docs/pictures.sh} runs) the pages are shot
 * with headless chromium and the file is rewritten. The PNG's own hash is recorded too, so a picture
 * replaced by hand fails as well.
 */
class DocsPicturesTest {
    static final String MANIFEST = "pictures.sha256";
    static final int WIDTH = 1500;
    static final int HEIGHT = 860;
    /** 2026-12-01T00:00:00Z, where the simulated trace's clock starts */
    static final long SIMULATED_START_NS = 1_796_083_200_000_000_000L;
    private static final Pattern LINE = Pattern.compile("(\\S+) page=([0-9a-f]{64}) png=([0-9a-f]{64})");

    /** Where a picture's trace comes from: a committed sample, or a synthetic trace from a fixed seed. */
    interface TraceSource {
        Path traces(Path repo, Path scratch) throws IOException;
    }

    record Picture(String png, String title, TraceSource source) {
    }

    /** Every picture under docs/, the trace it shows, and the title its page carries. */
    static final List<Picture> PICTURES = List.of(
            new Picture("timeline.png", "sample-traces/advertise-psn-off-by-one",
                    (repo, scratch) -> repo.resolve("sample-traces/advertise-psn-off-by-one")),
            new Picture("timeline-500-qps.png", "trace/", (repo, scratch) -> {
                Path traces = scratch.resolve("synthetic-500-qps");
                SyntheticTrace.writeSimulated(new SyntheticTrace.Spec(traces, "host-a", "host-b",
                        TimelineScaleTest.CONNECTIONS, 6 * 2 * TimelineScaleTest.CONNECTIONS, 3,
                        SyntheticTrace.Fault.PSN_OFF_BY_ONE), SIMULATED_START_NS);
                return traces;
            }));

    @TempDir
    static Path scratch;

    /** Each picture's page as it renders today, by picture file name. */
    static final Map<String, String> pages = new LinkedHashMap<>();

    static Path repo() {
        String root = System.getProperty("rdmatrace.repo.root");
        return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
    }

    static boolean regenerate() {
        return Boolean.getBoolean("rdmatrace.docs.regenerate");
    }

    @BeforeAll
    static void renderAndShootWhenAsked() throws Exception {
        for (Picture p : PICTURES) {
            pages.put(p.png(), page(p));
        }
        if (regenerate()) {
            shoot(repo().resolve("docs"));
        }
    }

    @Test
    void everyPicture_shotFromTheTimelineAsItIsDrawnToday() throws Exception {
        Path docs = repo().resolve("docs");
        Map<String, String[]> recorded = readManifest(docs.resolve(MANIFEST));
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> e : pages.entrySet()) {
            String[] hashes = recorded.get(e.getKey());
            String now = sha256(e.getValue().getBytes(StandardCharsets.UTF_8));
            if (hashes == null) {
                stale.add("docs/" + e.getKey() + " is not in docs/" + MANIFEST);
            } else if (!hashes[0].equals(now)) {
                stale.add("docs/" + e.getKey() + " shows an older timeline (page " + hashes[0].substring(0, 12)
                        + " when shot, " + now.substring(0, 12) + " today)");
            } else if (!hashes[1].equals(sha256(Files.readAllBytes(docs.resolve(e.getKey()))))) {
                stale.add("docs/" + e.getKey() + " is not the screenshot docs/pictures.sh took");
            }
        }
        assertThat(stale).as("run docs/pictures.sh (it needs chromium) and commit docs/").isEmpty();
    }

    @Test
    void docsFolder_holdsExactlyThePicturesListedAndTheReadmeShowsOnlyThose() throws Exception {
        Path docs = repo().resolve("docs");
        TreeSet<String> onDisk = new TreeSet<>();
        try (Stream<Path> list = Files.list(docs)) {
            list.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".png")).forEach(onDisk::add);
        }
        TreeSet<String> listed = new TreeSet<>();
        PICTURES.forEach(p -> listed.add(p.png()));
        assertThat(onDisk).as("pictures in docs/ against DocsPicturesTest.PICTURES").isEqualTo(listed);
        assertThat(readManifest(docs.resolve(MANIFEST)).keySet()).containsExactlyInAnyOrderElementsOf(listed);

        Matcher m = Pattern.compile("\\]\\(docs/([^)]+)\\)").matcher(Files.readString(repo().resolve("README.md")));
        TreeSet<String> shown = new TreeSet<>();
        while (m.find()) {
            shown.add(m.group(1));
        }
        assertThat(listed).as("pictures the README shows").containsAll(shown);
        assertThat(shown).as("every picture is shown by the README").isNotEmpty().containsAll(listed);
    }

    @Test
    void page_renderedTwice_sameBytes() throws Exception {
        // the currency check above is only sound if a page depends on its trace alone
        for (Picture p : PICTURES) {
            assertThat(page(p)).as(p.png()).isEqualTo(pages.get(p.png()));
        }
    }

    private static String page(Picture picture) throws Exception {
        Path traces = picture.source().traces(repo(), Files.createTempDirectory(scratch, "trace"));
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            LoadReport load = db.load(List.of(traces));
            assertThat(load.anyReadable()).as(traces + " holds no readable trace").isTrue();
            db.finishLoading();
            AnalysisResult result = Analyzer.analyze(db, load, RuleCatalog.builtin());
            return HtmlTimelineWriter.render(TimelineBuilder.build(
                    TimelineSource.read(db.connection(), picture.title(), result.diagnosis().ordered())));
        }
    }

    private static void shoot(Path docs) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find().orElseThrow(() -> new IllegalStateException(
                "docs/pictures.sh needs chromium on PATH (apt-get install chromium)"));
        StringBuilder manifest = new StringBuilder("# written by docs/pictures.sh: <picture> page=<sha256 of the"
                + " timeline page it was shot from> png=<sha256 of the picture>\n");
        for (Map.Entry<String, String> e : pages.entrySet()) {
            Path html = scratch.resolve(e.getKey() + ".html");
            Files.writeString(html, e.getValue(), StandardCharsets.UTF_8);
            Path png = docs.resolve(e.getKey());
            Files.deleteIfExists(png);
            chromium.screenshot(html, png, WIDTH, HEIGHT, Files.createTempDirectory(scratch, "chromium"));
            manifest.append(e.getKey()).append(" page=").append(sha256(e.getValue().getBytes(StandardCharsets.UTF_8)))
                    .append(" png=").append(sha256(Files.readAllBytes(png))).append('\n');
        }
        Files.writeString(docs.resolve(MANIFEST), manifest.toString(), StandardCharsets.UTF_8);
    }

    private static Map<String, String[]> readManifest(Path file) throws IOException {
        Map<String, String[]> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            assertThat(m.matches()).as("docs/%s line '%s'", MANIFEST, line).isTrue();
            out.put(m.group(1), new String[] {m.group(2), m.group(3)});
        }
        return out;
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
