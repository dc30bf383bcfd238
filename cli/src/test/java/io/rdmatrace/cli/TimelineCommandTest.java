package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * `rdmatrace timeline` on a real capture made on a "buggy firmware" device: the analysis runs and
 * its findings reach the page and the Perfetto file. (The page itself is rendered in headless
 * chromium by the analyzer's TimelineRenderTest.)
 */
class TimelineCommandTest {
    @TempDir
    static Path dir;

    static Path trace;

    @BeforeAll
    static void record() throws Exception {
        trace = RecordedPair.record(dir.resolve("trace"), ":quirk=accept-reset-to-rts");
    }

    @Test
    void timeline_html_selfContainedPageWithFindings() throws Exception {
        Path page = dir.resolve("timeline.html");
        MainTest.Run run = MainTest.run("timeline", trace.toString(), "-o", page.toString());

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).startsWith("rdmatrace timeline: 2 host(s), 4 lane(s), ").contains("wrote " + page);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<script id=\"timeline-data\"")
                .contains("\"id\":\"host-a\"", "\"id\":\"host-b\"", "illegal-transition-accepted");
        assertThat(html.replace("'http://www.w3.org/2000/svg'", "")).doesNotContain("http:", "https:", " src=");
    }

    @Test
    void timeline_perfetto_traceEventJsonWithBothHostsAndTheFinding() throws Exception {
        Path file = dir.resolve("trace.json");
        MainTest.Run run = MainTest.run("timeline", trace.toString(), "--format", "perfetto", "-o", file.toString());

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        Set<String> processes = new HashSet<>();
        boolean finding = false;
        for (JsonNode e : json.path("traceEvents")) {
            assertThat(e.has("ph") && e.has("pid")).isTrue();
            if (e.path("ph").asText().equals("M") && e.path("name").asText().equals("process_name")) {
                processes.add(e.path("args").path("name").asText());
            }
            finding |= e.path("cat").asText().equals("finding")
                    && e.path("name").asText().contains("illegal-transition-accepted");
        }
        assertThat(processes).contains("host-a (listen)", "host-b (connect)");
        assertThat(finding).isTrue();
    }

    @Test
    void timeline_unknownFormat_isAUsageError() {
        MainTest.Run run = MainTest.run("timeline", trace.toString(), "--format", "svg", "-o", dir.resolve("x").toString());
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("--format must be html or perfetto");
    }

    @Test
    void timeline_missingOutput_isAUsageError() {
        MainTest.Run run = MainTest.run("timeline", trace.toString());
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("--output");
    }
}
