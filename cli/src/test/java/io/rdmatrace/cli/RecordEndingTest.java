package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: a recorded program that hangs (an ibv_rc_pingpong server whose client never comes) is
 * on disk while it hangs, and every way the recording ends leaves a readable trace and no orphan.
 * No timed assertion: every wait is a bounded poll.
 */
class RecordEndingTest {
    /** What the hung server has done: open, PD, MR, CQ, QP. */
    private static final Set<Verb> SET_UP = Set.of(Verb.IBV_OPEN_DEVICE, Verb.IBV_ALLOC_PD, Verb.IBV_REG_MR,
            Verb.IBV_CREATE_CQ, Verb.IBV_CREATE_QP);

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "HUP", "INT", "QUIT"})
    void signalToRecord_isPassedOn_andTheEndNamesIt(String name, @TempDir Path work) throws Exception {
        int number = Map.of("TERM", 15, "HUP", 1, "INT", 2, "QUIT", 3).get(name);
        Path out = work.resolve("trace");
        try (Hung hung = Hung.start(work, out)) {
            assertThat(readWhileRunning(out.resolve("a"))).as(hung.jvm.describe()).isTrue();
            new ProcessBuilder("kill", "-s", name, Long.toString(hung.jvm.process().pid())).start().waitFor();
            assertThat(hung.jvm.await()).as(hung.jvm.describe()).isEqualTo(128 + number);
            assertThat(gone(hung.program)).as("the program %d outlived record", hung.program.pid()).isTrue();
            assertThat(hung.jvm.stderr()).doesNotContain("No such process");
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(verbs(r.events())).containsAll(SET_UP);
        TraceEnding ending = ((EndEvent) r.events().get(r.events().size() - 1)).ending();
        assertThat(ending.how()).isEqualTo(TraceEnding.How.INTERRUPTED);
        assertThat(ending.recorderSignal()).isEqualTo(number);
        assertThat(ending.signal()).as(ending.toString()).isEqualTo(number); // ibv_rc_pingpong dies of it
        StringWriter text = new StringWriter();
        Main.execute(new PrintWriter(text), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(text.toString()).contains("ended: record got SIG" + name + "; the program ended by SIG" + name);
    }

    @Test
    void sigkillOfRecord_leavesTheCallsReadable(@TempDir Path work) throws Exception {
        Path out = work.resolve("trace");
        try (Hung hung = Hung.start(work, out)) {
            assertThat(readWhileRunning(out.resolve("a"))).as(hung.jvm.describe()).isTrue();
            new ProcessBuilder("kill", "-9", Long.toString(hung.jvm.process().pid())).start().waitFor();
            assertThat(hung.jvm.await()).isEqualTo(128 + 9);
            // the tracer tied the program's life to record's (PR_SET_PDEATHSIG): no orphan holds the device
            assertThat(gone(hung.program)).as("the program %d outlived record", hung.program.pid()).isTrue();
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.TRUNCATED);
        assertThat(verbs(r.events())).containsAll(SET_UP);
    }

    @Test
    void fullDisk_traceEndsTruncatedInOneSentence_theProgramRunsToItsOwnEnd(@TempDir Path work) throws Exception {
        Path tool = InstalledPrograms.require("ibv_rc_pingpong");
        LoopbackPair ips = LoopbackPair.random();
        String port = Integer.toString(RecordJvm.freeTcpPort());
        // 20,000 round trips: ~100,000 events, far more than 2 MB holds (it fills after ~24,000)
        List<String> run = List.of("-g", "3", "-n", "20000", "-p", port);
        try (SmallTmpfs disk = SmallTmpfs.mount(work.resolve("small"), "2m")) {
            List<String> a = new java.util.ArrayList<>(List.of("--soft", "--out", disk.dir().toString(), "--host-id", "a",
                    "--", tool.toString(), "-d", "fa"));
            a.addAll(run);
            List<String> b = new java.util.ArrayList<>(List.of("--soft", "--out", work.resolve("trace").toString(),
                    "--host-id", "b", "--", tool.toString(), "-d", "fb"));
            b.addAll(run);
            b.add(ips.a());
            try (RecordJvm server = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "fa@" + ips.a()), work, a)) {
                server.awaitListening(Integer.parseInt(port));
                try (RecordJvm client = RecordJvm.start("b", Map.of("SOFTVERBS_DEVICES", "fb@" + ips.b()), work, b)) {
                    assertThat(client.await()).as(client.describe()).isZero();
                }
                // the program's own exit status and output, as unrecorded
                assertThat(server.await()).as(server.describe()).isZero();
                assertThat(server.stdout()).contains("20000 iters in");
                String err = server.stderr();
                java.util.regex.Matcher said = java.util.regex.Pattern.compile("rdmatrace record: no space left on "
                        + java.util.regex.Pattern.quote(disk.dir().toString()) + ": "
                        + java.util.regex.Pattern.quote(disk.dir().resolve("a").toString())
                        + " ends after (\\d+) events \\(TRUNCATED\\); process \\d+ runs on unrecorded to its end").matcher(err);
                assertThat(said.find()).as(err).isTrue();
                assertThat(said.find()).as("one sentence: " + err).isFalse();
                assertThat(err).doesNotContain("Exception").doesNotContain("Error").doesNotContain("\tat ");

                TraceReader.Result r = TraceReader.readAll(disk.dir().resolve("a"));
                assertThat(r.outcome().status()).as(r.outcome().detail()).isEqualTo(ReadOutcome.Status.TRUNCATED);
                said.reset().find();
                assertThat((long) r.events().size()).isEqualTo(Long.parseLong(said.group(1)));
                assertThat(verbs(r.events())).containsAll(SET_UP).contains(Verb.IBV_POST_SEND, Verb.IBV_POLL_CQ);
            }
        }
    }

    @Test
    void aRunningRecording_isAnalyzedAsStillRecording_inEveryOutput(@TempDir Path work) throws Exception {
        Path out = work.resolve("trace");
        try (Hung hung = Hung.start(work, out)) {
            assertThat(readWhileRunning(out.resolve("a"))).as(hung.jvm.describe()).isTrue();
            for (String format : List.of("text", "json", "markdown", "junit")) {
                StringWriter text = new StringWriter();
                int code = Main.execute(new PrintWriter(text), new PrintWriter(new StringWriter()), "analyze", "--format", format,
                        out.toString());
                // a server waiting for its client: nothing wrong yet, and a live trace alone fails nothing
                assertThat(code).as(format + ":\n" + text).isZero();
                assertThat(text.toString()).as(format).contains("still recording").contains("trace-recording")
                        .doesNotContain("TRUNCATED", "trace truncated", "\"integrity\":\"truncated\"");
            }
            StringWriter text = new StringWriter();
            Main.execute(new PrintWriter(text), new PrintWriter(new StringWriter()), "analyze", out.toString());
            assertThat(text.toString()).containsPattern("a +trace still recording +\\d+ events  verdict: ok");
            Path html = work.resolve("t.html");
            assertThat(Main.execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "timeline", "-o",
                    html.toString(), out.toString())).isZero();
            assertThat(Files.readString(html)).contains("\"integrity\":\"still recording\"").contains("trace-recording");
            StringWriter show = new StringWriter();
            assertThat(Main.execute(new PrintWriter(show), new PrintWriter(new StringWriter()), "show", out.toString(), "a#1"))
                    .isZero();
            assertThat(show.toString()).contains("a#1 CALL");
        }
    }

    /** A recorded ibv_rc_pingpong server waiting for a client that never comes; SIGINT not ignored. */
    private record Hung(RecordJvm jvm, ProcessHandle program) implements AutoCloseable {
        static Hung start(Path work, Path out) throws Exception {
            Path tool = InstalledPrograms.require("ibv_rc_pingpong");
            LoopbackPair ips = LoopbackPair.random();
            int port = RecordJvm.freeTcpPort();
            // a background job ignores SIGINT and SIGQUIT, and its children inherit that: env resets them
            RecordJvm jvm = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "hg@" + ips.a()), work,
                    List.of("--soft", "--grace", "10", "--out", out.toString(), "--host-id", "a", "--", tool.toString(),
                            "-g", "3", "-p", Integer.toString(port)),
                    List.of("env", "--default-signal=INT,QUIT"));
            jvm.awaitListening(port);
            ProcessHandle program = jvm.process().descendants().filter(p -> p.info().command().orElse("")
                    .endsWith("ibv_rc_pingpong")).findFirst().orElseThrow();
            return new Hung(jvm, program);
        }

        @Override
        public void close() {
            program.destroyForcibly();
            jvm.close();
        }
    }

    /** Polls (bounded) until the live trace holds the server's set-up calls. */
    private static boolean readWhileRunning(Path folder) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (Files.isDirectory(folder)) {
                try {
                    TraceReader.Result r = TraceReader.readAll(folder);
                    if (verbs(r.events()).containsAll(SET_UP)) {
                        // record holds the writer lock: a live trace, not a damaged one
                        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.RECORDING);
                        return true;
                    }
                } catch (TraceException e) {
                    // not yet a trace (the SESSION is being written)
                }
            }
            Thread.sleep(100);
        }
        return false;
    }

    private static boolean gone(ProcessHandle p) throws InterruptedException {
        for (int i = 0; i < 300 && p.isAlive(); i++) {
            Thread.sleep(50);
        }
        return !p.isAlive();
    }

    private static Set<Verb> verbs(List<TraceEvent> events) {
        return events.stream().filter(e -> e instanceof CallEvent).map(e -> ((CallEvent) e).verb()).collect(Collectors.toSet());
    }

}
