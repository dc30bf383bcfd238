package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze --pcap} on real packets: dumpcap captures the RoCEv2 traffic on loopback while
 * two softverbs capture agents bring up a connection in which hostB advertised its PSN one too
 * low; the analysis joins hostA's capture to the hosts (by address, from the GID tables) and to
 * hostB's QP (by QPN), and cites the PSN sequence error NAKs hostA sent, as many as tshark finds
 * in the same file. Skips, saying why, where packets cannot be captured.
 */
class PcapJoinCaptureTest {
    private static final List<String> PSN_FAULT = List.of("--advertise-psn", "-1", "--retry-cnt", "2",
            "--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000");
    private static final long START_LIMIT_MS = 20_000;
    private static final long SETTLE_MIN_MS = 1_000;
    private static final long SETTLE_QUIET_MS = 600;
    private static final long SETTLE_MAX_MS = 10_000;

    @Test
    void psnFault_capturedOnLoopback_analyzeJoinsThePacketsAndCitesTheNaks(@TempDir Path dir) throws Exception {
        Path dumpcap = tool("dumpcap");
        Path tshark = tool("tshark");
        int subnet = ThreadLocalRandom.current().nextInt(16, 250);
        String ipA = "127.93." + subnet + ".1";
        String ipB = "127.93." + subnet + ".2";
        Path pcap = dir.resolve("hostA.pcapng");
        Path out = dir.resolve("trace");
        Process capture = startCapture(dumpcap, pcap, ipA, dir);
        try (SoftverbsHost a = new SoftverbsHost("hostA", ipA, "").ready();
             SoftverbsHost b = new SoftverbsHost("hostB", ipB, "").ready()) {
            String agents = SoftverbsHost.capture(out, a, b, List.of(), PSN_FAULT);
            assertThat(agents).contains("send completion IBV_WC_RETRY_EXC_ERR");
        } finally {
            awaitSettled(pcap);
            capture.destroy();                                   // SIGTERM: dumpcap closes the file
            if (!capture.waitFor(20, TimeUnit.SECONDS)) {
                capture.destroyForcibly();
            }
        }
        int naks = tsharkCount(tshark, pcap, "infiniband.aeth.syndrome == 0x60 && ip.src == " + ipA, dir);
        assertThat(naks).as("PSN sequence error NAKs from hostA in the capture (tshark)").isPositive();

        MainTest.Run run = AnalyzeCommandTest.analyze("--pcap", "hostA=" + pcap, out.toString());
        assertThat(run.code()).as(run.err()).isEqualTo(ExitCode.FAILURE);
        // the packets' source address became the host name, their dest QP hostB's QP of the finding
        Matcher cited = Pattern.compile("in the packet capture, hostA sent (\\d+) NAK PSN sequence error for PSN "
                + "(0x[0-9a-f]{6})(\\.\\.0x[0-9a-f]{6})? \\(frames \\d+-\\d+ of hostA\\.pcapng\\)").matcher(run.out());
        assertThat(cited.find()).as(run.out()).isTrue();
        assertThat(Integer.parseInt(cited.group(1))).isEqualTo(naks);
        String finding = run.out().substring(0, cited.start());
        finding = finding.substring(finding.lastIndexOf("ERROR"));
        assertThat(finding).matches("(?s)ERROR psn-misaligned: .*\n  - hostB QP 0x[0-9a-f]{6}: .*");
        // the NAKed PSN is the one hostB sends from: hostA expects one less than that (advertised -1)
        Matcher sqPsn = Pattern.compile("hostB QP 0x[0-9a-f]{6} sends from PSN (0x[0-9a-f]{6})").matcher(run.out());
        assertThat(sqPsn.find()).as(run.out()).isTrue();
        assertThat(Integer.parseInt(cited.group(2).substring(2), 16))
                .isEqualTo((Integer.parseInt(sqPsn.group(1).substring(2), 16) - 1) & 0xFFFFFF);

        // the timeline draws the same packets on the lane of the QP they went to, every NAK in red
        Path html = dir.resolve("timeline.html");
        MainTest.Run timeline = MainTest.run("timeline", out.toString(), "--pcap", "hostA=" + pcap, "-o", html.toString());
        assertThat(timeline.code()).as(timeline.err()).isEqualTo(ExitCode.OK);
        String page = Files.readString(html, StandardCharsets.UTF_8);
        Matcher nak = Pattern.compile("\\{\"ev\":\"pkt-hostA\\.pcapng-\\d+\",\"lane\":\"(h\\d-qp\\d+)\",\"t\":\\d+,"
                + "\"kind\":\"packet\",\"bad\":true,\"label\":\"NAK PSN sequence error " + cited.group(2)).matcher(page);
        int drawn = 0;
        java.util.Set<String> lanes = new java.util.HashSet<>();
        while (nak.find()) {
            drawn++;
            lanes.add(nak.group(1));
        }
        assertThat(drawn).isEqualTo(naks);
        assertThat(lanes).hasSize(1);
        // that lane is hostB's QP (hostB is host 1: hosts are in name order)
        assertThat(lanes.iterator().next()).startsWith("h1-qp");
    }

    private static Path tool(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        assumeTrue(false, "NOT RUN: no " + name + " on PATH (apt-get install tshark; .ci/run installs it)");
        throw new IllegalStateException();
    }

    /** dumpcap on lo for hostA's RoCEv2 traffic; returns once it says it is capturing, else skips. */
    private static Process startCapture(Path dumpcap, Path file, String ip, Path dir) throws Exception {
        Path err = dir.resolve("dumpcap.err");
        Process p = new ProcessBuilder(dumpcap.toString(), "-i", "lo", "-f", "udp port 4791 and host " + ip, "-w",
                file.toString()).redirectErrorStream(true).redirectOutput(err.toFile()).start();
        long end = System.nanoTime() + START_LIMIT_MS * 1_000_000;
        while (System.nanoTime() < end && p.isAlive() && !read(err).contains("Capturing on")) {
            Thread.sleep(50);
        }
        if (!p.isAlive() || !read(err).contains("Capturing on")) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            assumeTrue(false, "NOT RUN: dumpcap cannot capture on lo here (needs root or the dumpcap capabilities): "
                    + read(err).strip());
        }
        return p;
    }

    /** dumpcap hands packets over a block at a time: wait until the file has something and stops growing. */
    private static void awaitSettled(Path file) throws InterruptedException {
        long start = System.nanoTime();
        long last = -1;
        long quietSince = start;
        while ((System.nanoTime() - start) / 1_000_000 < SETTLE_MAX_MS) {
            long size = file.toFile().length();
            long now = System.nanoTime();
            if (size != last) {
                last = size;
                quietSince = now;
            } else if ((now - start) / 1_000_000 >= SETTLE_MIN_MS && (now - quietSince) / 1_000_000 >= SETTLE_QUIET_MS
                    && size > 0) {
                return;
            }
            Thread.sleep(100);
        }
    }

    private static int tsharkCount(Path tshark, Path file, String filter, Path dir) throws Exception {
        Path listing = dir.resolve("tshark.out");
        Process p = new ProcessBuilder(tshark.toString(), "-r", file.toString(), "-Y", filter, "-T", "fields", "-e",
                "frame.number").redirectOutput(listing.toFile()).redirectError(dir.resolve("tshark.err").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("tshark finished").isTrue();
        assertThat(p.exitValue()).as(read(dir.resolve("tshark.err"))).isZero();
        return (int) Files.readAllLines(listing).stream().filter(l -> !l.isBlank()).count();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
