package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.CompletionEvent;
import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.model.PacketEvent;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.WorkRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `rdmatrace record -- COMMAND` (issue 10) on unmodified programs over softverbs: both ends of an
 * ibv_rc_pingpong recorded into one trace with the attributes the analyzer needs, exit status
 * passthrough, a killed program's trace whose END names the signal, and the bad-input sentences.
 */
class RecordCommandTest {
    private static final int ITERATIONS = 50;

    @Test
    void rcPingpong_bothHostsRecorded(@TempDir Path work) throws Exception {
        // the client posts with the new post API (-N: ibv_wr_start/ibv_wr_send/ibv_wr_set_sge/ibv_wr_complete)
        // the server's packets too (record --soft --wire)
        Path out = pingpong(work, "ibv_rc_pingpong", List.of("--wire"), List.of(), List.of("-N"));
        TraceReader.Result ra = TraceReader.readAll(out.resolve("a"));
        TraceReader.Result rb = TraceReader.readAll(out.resolve("b"));
        assertThat(ra.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(((EndEvent) ra.events().get(ra.events().size() - 1)).ending()).isEqualTo(TraceEnding.exited(0, ""));
        assertThat(ra.session().info().fromProgram()).isTrue();
        assertThat(ra.session().info().commandLine()).contains("ibv_rc_pingpong");
        String ipA = ra.session().info().overrides().get("env.SOFTVERBS_DEVICES").substring("ra@".length());
        String ipB = rb.session().info().overrides().get("env.SOFTVERBS_DEVICES").substring("rb@".length());
        assertThat(ra.session().info().overrides()).containsKey("pid");
        assertThat(ra.session().info().gids()).anyMatch(g -> g.gid().equals("::ffff:" + ipA));

        long qpnA = createdQpn(ra.events());
        long qpnB = createdQpn(rb.events());
        // each side's RTR names the peer's QP: the QPN rc_pingpong exchanged over TCP, which we never saw
        assertThat(rtr(ra.events()).in().get(Attr.DEST_QP_NUM, -1)).isEqualTo(qpnB);
        assertThat(rtr(rb.events()).in().get(Attr.DEST_QP_NUM, -1)).isEqualTo(qpnA);
        assertThat(rtr(ra.events()).in().text(Attr.DGID)).isEqualTo("::ffff:" + ipB);
        // the tracer's own query after each modify, marked as the recorder's
        assertThat(calls(ra.events(), Verb.IBV_QUERY_QP)).anyMatch(c -> "rdmatrace: query after ibv_modify_qp"
                .equals(c.out().text(Attr.MESSAGE)) && c.out().get(Attr.QP_STATE, -1) == 3);
        // ibv_query_port is inline: softverbs answers through the context's query_port op, swapped at open
        assertThat(calls(ra.events(), Verb.IBV_QUERY_PORT)).isNotEmpty()
                .allMatch(c -> c.ret() == 0 && c.out().get(Attr.ACTIVE_MTU, -1) > 0);
        // the inline data path: every post and completion
        assertThat(calls(ra.events(), Verb.IBV_POST_RECV)).isNotEmpty();
        assertThat(calls(rb.events(), Verb.IBV_POST_SEND)).hasSizeGreaterThanOrEqualTo(ITERATIONS)
                .allMatch(c -> c.ret() == 0 && c.in().get(Attr.QP_NUM, -1) == qpnB && c.in().get(Attr.WR_OPCODE, -1) == 2
                        && c.in().get(Attr.NUM_SGE, -1) == 1 && c.in().get(Attr.LENGTH, -1) == 4096);
        assertThat(ra.events().stream().filter(e -> e instanceof CompletionEvent c && c.wc().status() == 0).count())
                .isGreaterThanOrEqualTo(2L * ITERATIONS);
        // --wire on a only: a's softverbs packets are PACKET events, b has none; every SEND b posted
        // arrived at a's QP (4096 bytes at path MTU 1024: RC_SEND_LAST 0x02 ends each message)
        List<PacketEvent> packets = ra.events().stream().filter(e -> e instanceof PacketEvent).map(e -> (PacketEvent) e).toList();
        assertThat(packets).allMatch(p -> p.device().equals(ipA));
        assertThat(packets).filteredOn(p -> p.direction() == PacketEvent.Direction.RECEIVED && p.destQp() == qpnA
                && p.opcode() == 0x02 && p.peer().equals(ipB)).hasSizeGreaterThanOrEqualTo(ITERATIONS);
        assertThat(packets).noneMatch(p -> p.direction() == PacketEvent.Direction.DROPPED);
        assertThat(rb.events()).noneMatch(e -> e instanceof PacketEvent);

        StringWriter report = new StringWriter();
        int code = Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).contains("matched by dest_qp_num").contains("0 error(s)");
        assertThat(code).as(report.toString()).isZero();
    }

    @Test
    void udAndSrqPingpong_recorded_summaryOnOneSide(@TempDir Path work) throws Exception {
        Path ud = pingpong(work.resolve("ud"), "ibv_ud_pingpong", List.of(), List.of("--data-path", "summary"));
        TraceReader.Result a = TraceReader.readAll(ud.resolve("a"));
        TraceReader.Result b = TraceReader.readAll(ud.resolve("b"));
        long qpnB = createdQpn(b.events());
        // every UD send names its destination through the address handle: the peer's QPN
        assertThat(calls(a.events(), Verb.IBV_POST_SEND)).isNotEmpty().allMatch(c -> c.in().get(Attr.REMOTE_QPN, -1) == qpnB
                && c.in().get(Attr.AH, 0) != 0);
        assertThat(calls(a.events(), Verb.IBV_CREATE_AH)).isNotEmpty();
        // summary side: one tally per QP and verb instead of every post, no successful completion events
        assertThat(b.session().info().overrides()).containsEntry("data-path", "summary");
        assertThat(calls(b.events(), Verb.IBV_POST_SEND)).singleElement().satisfies(c -> {
            assertThat(c.out().text(Attr.MESSAGE)).startsWith("summary: ");
            assertThat(c.in().get(Attr.WR_COUNT, 0)).isGreaterThanOrEqualTo(ITERATIONS);
        });
        assertThat(b.events()).noneMatch(e -> e instanceof CompletionEvent);

        Path srq = pingpong(work.resolve("srq"), "ibv_srq_pingpong", List.of(), List.of());
        TraceReader.Result s = TraceReader.readAll(srq.resolve("a"));
        List<CallEvent> created = calls(s.events(), Verb.IBV_CREATE_SRQ);
        assertThat(created).singleElement().matches(c -> c.ret() == 0);
        long srqHandle = created.get(0).handle();
        assertThat(calls(s.events(), Verb.IBV_CREATE_QP)).hasSizeGreaterThan(1)
                .allMatch(c -> c.in().get(Attr.SRQ, 0) == srqHandle);
        assertThat(calls(s.events(), Verb.IBV_POST_SRQ_RECV)).isNotEmpty().allMatch(c -> c.handle() == srqHandle);
    }

    @Test
    void exitStatus_passedThrough_andNoVerbsSaidSo(@TempDir Path work) {
        Run three = record(work, "sh", "-c", "exit 3");
        assertThat(three.code()).isEqualTo(3);
        assertThat(three.err()).contains("never opened an RDMA device; no trace was written");
        Run killed = record(work, "sh", "-c", "kill -TERM $$");
        assertThat(killed.code()).isEqualTo(128 + 15);
    }

    @Test
    void killedProgram_leavesTraceWhoseEndNamesTheSignal(@TempDir Path work) throws Exception {
        Path tool = InstalledPrograms.require("ibv_rc_pingpong");
        LoopbackPair ips = LoopbackPair.random();
        int port = RecordJvm.freeTcpPort();
        Path out = work.resolve("trace");
        // the server opens the device, creates its QP and waits for a client that never comes
        try (RecordJvm a = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "ka@" + ips.a()), work,
                List.of("--soft", "--out", out.toString(), "--host-id", "a", "--", tool.toString(), "-g", "3", "-p",
                        Integer.toString(port)))) {
            a.awaitListening(port);
            ProcessHandle program = a.process().descendants().filter(p -> p.info().command().orElse("")
                    .endsWith("ibv_rc_pingpong")).findFirst().orElseThrow();
            new ProcessBuilder("kill", "-9", Long.toString(program.pid())).start().waitFor();
            assertThat(a.await()).as(a.describe()).isEqualTo(128 + 9);
            assertThat(a.stderr()).contains("the program ended by SIGKILL");
        }
        // the recorder outlived the program: every call is in the ring, and the END says how it ended
        TraceReader.Result r = TraceReader.readAll(out.resolve("a"));
        assertThat(r.outcome().status()).isEqualTo(ReadOutcome.Status.CLEAN);
        assertThat(calls(r.events(), Verb.IBV_CREATE_QP)).hasSize(1);
        assertThat(((EndEvent) r.events().get(r.events().size() - 1)).ending())
                .isEqualTo(TraceEnding.killed(9, ""));
        // analyze shows it (text and JSON; hosts.signal for rules)
        StringWriter text = new StringWriter();
        Main.execute(new PrintWriter(text), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(text.toString()).contains("ended: the program ended by SIGKILL");
        StringWriter json = new StringWriter();
        Main.execute(new PrintWriter(json), new PrintWriter(new StringWriter()), "analyze", "--format", "json", out.toString());
        assertThat(json.toString()).contains("\"ending\":{\"how\":\"KILLED\",\"exit_status\":null,\"signal\":9,"
                + "\"recorder_signal\":null,\"detail\":null,\"text\":\"the program ended by SIGKILL\"}");
    }

    @Test
    void dlopenProgram_isRecorded(@TempDir Path work) throws Exception {
        Path cc = InstalledPrograms.require("cc");
        Path src = work.resolve("dlopen_verbs.c");
        try (var in = RecordCommandTest.class.getResourceAsStream("/dlopen_verbs.c")) {
            Files.copy(in, src);
        }
        Path exe = work.resolve("dlopen_verbs");
        Process compile = new ProcessBuilder(cc.toString(), "-O2", "-o", exe.toString(), src.toString(), "-ldl")
                .redirectErrorStream(true).start();
        assertThat(compile.waitFor()).as(new String(compile.getInputStream().readAllBytes())).isZero();
        LoopbackPair ips = LoopbackPair.random();
        Path out = work.resolve("trace");
        try (RecordJvm a = RecordJvm.start("d", Map.of("SOFTVERBS_DEVICES", "dl@" + ips.a()), work,
                List.of("--soft", "--out", out.toString(), "--host-id", "d", "--", exe.toString()))) {
            assertThat(a.await()).as(a.describe()).isZero();
            assertThat(a.stdout()).contains("dlopen_verbs: ok");
        }
        TraceReader.Result r = TraceReader.readAll(out.resolve("d"));
        assertThat(calls(r.events(), Verb.IBV_ALLOC_PD)).singleElement().matches(c -> c.ret() == 0);
        assertThat(calls(r.events(), Verb.IBV_DEALLOC_PD)).hasSize(1);
        assertThat(calls(r.events(), Verb.IBV_CLOSE_DEVICE)).hasSize(1);
        // a receive chain: every WR with all its SGEs
        CallEvent recv = calls(r.events(), Verb.IBV_POST_RECV).get(0);
        assertThat(recv.ret()).isZero();
        assertThat(recv.in().get(Attr.WR_COUNT, 0)).isEqualTo(3);
        assertThat(recv.wrs()).hasSize(3);
        assertThat(recv.wrs().get(2).fields().get(Attr.WR_ID, 0)).isEqualTo(12);
        assertThat(recv.wrs().get(2).sges()).extracting(WorkRequest.Sge::length).containsExactly(104L, 105L);
        // the program's own error is recorded, not masked: a send in INIT is refused at its first WR
        CallEvent send = calls(r.events(), Verb.IBV_POST_SEND).get(0);
        assertThat(send.ret()).isNotZero();
        assertThat(send.errno()).isEqualTo(send.ret());
        assertThat(send.out().get(Attr.BAD_WR_INDEX, -1)).isZero();
        assertThat(send.wrs()).hasSize(2);
        assertThat(send.wrs().get(1).fields().get(Attr.IMM_DATA, 0)).isEqualTo(7);
        // the extended CQ, read through ibv_start_poll/next_poll/end_poll: the three flushed receives
        assertThat(r.events().stream().filter(e -> e instanceof CompletionEvent c && c.wc().status() == 5)
                .map(e -> ((CompletionEvent) e).wc().wrId())).containsExactlyInAnyOrder(10L, 11L, 12L);
    }

    @Test
    void badInput_oneSentenceExit2(@TempDir Path work) throws Exception {
        Run missing = record(work, "--verbs-lib", work.resolve("nowhere/libibverbs.so.1").toString(), "--", "true");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no real libibverbs.so.1 to forward to").contains("nothing was run");

        Run bestEffort = record(work, "--best-effort", "--verbs-lib", work.resolve("nowhere.so").toString(), "--",
                "sh", "-c", "exit 4");
        assertThat(bestEffort.code()).isEqualTo(4);
        assertThat(bestEffort.err()).contains("running it unrecorded");

        Path elf32 = work.resolve("prog32");
        byte[] header = new byte[64];
        header[0] = 0x7f;
        header[1] = 'E';
        header[2] = 'L';
        header[3] = 'F';
        header[4] = 1; // ELFCLASS32
        Files.write(elf32, header);
        elf32.toFile().setExecutable(true);
        Run x32 = record(work, "--soft", "--", elf32.toString());
        assertThat(x32.code()).isEqualTo(2);
        assertThat(x32.err()).contains("32-bit program");

        Path ldconfig = Stream.of("/usr/sbin/ldconfig", "/sbin/ldconfig").map(Path::of).filter(Files::isRegularFile)
                .findFirst().orElse(null);
        if (ldconfig != null && ExecutableCheck.problem(ldconfig).isPresent()) {
            Run stat = record(work, "--soft", "--", ldconfig.toString(), "-p");
            assertThat(stat.code()).isEqualTo(2);
            assertThat(stat.err()).contains("statically linked");
        }
        Path setuid = Stream.of("/usr/bin/passwd", "/bin/su", "/usr/bin/su").map(Path::of).filter(Files::isRegularFile)
                .findFirst().orElse(null);
        if (setuid != null && ExecutableCheck.problem(setuid).isPresent()) {
            Run su = record(work, "--soft", "--", setuid.toString());
            assertThat(su.code()).isEqualTo(2);
            assertThat(su.err()).contains("setuid");
        }
        Run none = record(work, "--", "no-such-program-rdmatrace");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("command not found");
    }

    // ---- helpers ----------------------------------------------------------------------------

    /** Records {@code tool} as server "a" and client "b" on two softverbs devices; both must exit 0. */
    private static Path pingpong(Path work, String tool, List<String> aRecordArgs, List<String> bRecordArgs)
            throws Exception {
        return pingpong(work, tool, aRecordArgs, bRecordArgs, List.of());
    }

    /** As above, {@code bOptions} added to the client's own command line. */
    private static Path pingpong(Path work, String tool, List<String> aRecordArgs, List<String> bRecordArgs,
                                 List<String> bOptions) throws Exception {
        Path exe = InstalledPrograms.require(tool);
        Files.createDirectories(work);
        LoopbackPair ips = LoopbackPair.random();
        int port = RecordJvm.freeTcpPort();
        List<String> pp = List.of(exe.toString(), "-g", "3", "-p", Integer.toString(port), "-n",
                Integer.toString(ITERATIONS));
        Path out = work.resolve("trace");
        try (RecordJvm a = RecordJvm.start("a", Map.of("SOFTVERBS_DEVICES", "ra@" + ips.a()), work,
                concat(List.of("--soft", "--out", out.toString(), "--host-id", "a"), aRecordArgs, List.of("--"), pp))) {
            a.awaitListening(port);
            try (RecordJvm b = RecordJvm.start("b", Map.of("SOFTVERBS_DEVICES", "rb@" + ips.b()), work,
                    concat(List.of("--soft", "--out", out.toString(), "--host-id", "b"), bRecordArgs, List.of("--"), pp,
                            bOptions, List.of(ips.a())))) {
                assertThat(b.await()).as(b.describe()).isZero();
                assertThat(a.await()).as(a.describe()).isZero();
                assertThat(a.stdout()).contains(ITERATIONS + " iters");
                assertThat(a.stderr()).contains("rdmatrace record: " + out.resolve("a"));
            }
        }
        return out;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run record(Path work, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] full = new String[args.length + 3];
        full[0] = "record";
        full[1] = "--out=" + work.resolve("t" + System.nanoTime());
        full[2] = "--host-id=h";
        System.arraycopy(args, 0, full, 3, args.length);
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), full);
        return new Run(code, out.toString(), err.toString());
    }


    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }

    private static List<CallEvent> calls(List<TraceEvent> events, Verb verb) {
        return events.stream().filter(e -> e instanceof CallEvent c && c.verb() == verb).map(e -> (CallEvent) e).toList();
    }

    private static long createdQpn(List<TraceEvent> events) {
        List<CallEvent> creates = calls(events, Verb.IBV_CREATE_QP);
        assertThat(creates).hasSize(1);
        return creates.get(0).out().get(Attr.QP_NUM, -1);
    }

    private static CallEvent rtr(List<TraceEvent> events) {
        return calls(events, Verb.IBV_MODIFY_QP).stream().filter(c -> c.in().get(Attr.QP_STATE, -1) == 2)
                .findFirst().orElseThrow();
    }
}
