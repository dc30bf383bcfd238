package io.rdmatrace.cli;

import io.rdmatrace.capture.program.ProgramRecording;
import io.rdmatrace.capture.program.RecordedTrace;
import io.rdmatrace.capture.program.TraceWarmUp;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.tracer.TracerLibrary;
import io.rdmatrace.verbs.QuitSignal;
import io.rdmatrace.verbs.VerbsLibrary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `rdmatrace record -- COMMAND`: records an unmodified verbs program through the tracing libibverbs. */
@Command(name = "record",
        sortOptions = false,
        description = {"Run COMMAND with a tracing libibverbs in front of the real one and record every verbs "
                + "call it makes (arguments, return codes, errnos, durations; the data path; completions and "
                + "async events) into OUT/<host-id>/, the trace the other verbs read. Exits with COMMAND's exit "
                + "status (128+signal if it was killed). SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to COMMAND; "
                + "after --grace seconds it is SIGKILLed, the trace is closed with an END naming the signal, and "
                + "rdmatrace exits 128+signal. Events reach the trace within about a second, so a program that hangs "
                + "can be analysed while it runs. Programs that link libibverbs and programs that dlopen "
                + "it are both recorded; static, setuid and 32-bit programs cannot be."},
        footer = {"", "Example usage:",
                "  rdmatrace record --soft --host-id a -- ibv_rc_pingpong -g 3            (host A)",
                "  rdmatrace record --soft --host-id b -- ibv_rc_pingpong -g 3 hostA      (host B)",
                "  rdmatrace analyze trace/"})
final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    VerbsOptions verbs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "trace",
            description = "Trace root; the program's trace goes to DIR/<host-id>/ (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--host-id", paramLabel = "ID", description = "Name of this host in the trace (default: the host name).")
    String hostId;

    @Option(names = "--data-path", paramLabel = "full|summary", defaultValue = "full",
            description = "full: every post and completion (default); summary: per-QP counts and every error completion.")
    String dataPath;

    @Option(names = "--best-effort",
            description = "When COMMAND cannot be recorded (static, setuid, 32-bit, no real libibverbs), run it unrecorded instead of refusing.")
    boolean bestEffort;

    @Option(names = "--wire", description = "With --soft: also record every packet softverbs sends, receives or drops "
            + "for the program (PACKET events, as capture --wire).")
    boolean wire;

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "5",
            description = "After passing SIGINT/SIGTERM/SIGHUP/SIGQUIT on to COMMAND, wait this long for it to end, "
                    + "then SIGKILL it (default: ${DEFAULT-VALUE}).")
    double graceSeconds;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The program and its arguments (after --).")
    List<String> command;

    /** Longest wait for {@link ProgramRecording#warmUp()} before the program starts anyway. */
    private static final long WARM_UP_WAIT_MILLIS = 10_000;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        TraceWarmUp warmUp = ProgramRecording.warmUp();
        if (!dataPath.equals("full") && !dataPath.equals("summary")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "rdmatrace record: --data-path is full or summary, not '" + dataPath + "'");
        }
        long grace = graceMillis();
        if (wire && !verbs.soft()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "rdmatrace record: --wire records softverbs' packets: it needs --soft");
        }
        Map<String, String> env = System.getenv();
        Path exe = ExecutableCheck.resolve(command.get(0), env.get("PATH")).orElseThrow(() ->
                new EnvironmentException("rdmatrace record: command not found: " + command.get(0)));
        Optional<String> why = ExecutableCheck.problem(exe);
        Optional<Path> real = TracerLibrary.realLibrary(VerbsLibrary.select(verbs.soft(), verbs.verbsLib(), env));
        if (why.isEmpty() && real.isEmpty()) {
            why = Optional.of("there is no real libibverbs.so.1 to forward to"
                    + (verbs.verbsLib() != null ? " at " + verbs.verbsLib() : " on this system (install libibverbs1, or use --soft or --verbs-lib PATH)"));
        }
        if (why.isPresent()) {
            if (!bestEffort) {
                throw new EnvironmentException("rdmatrace record: " + why.get() + "; nothing was run (--best-effort runs it unrecorded)");
            }
            err.println("rdmatrace record: " + why.get() + "; running it unrecorded (--best-effort)");
            err.flush();
            warmUp.finish(0);   // nothing will be recorded: not beside the program
            return runUnrecorded(grace);
        }
        String host = hostId != null ? hostId : CaptureCommand.HostName.local();
        Path hostFolder = TraceLayout.hostFolder(out, host);
        if (TraceLayout.holdsQueueFiles(hostFolder)) {
            throw new EnvironmentException("rdmatrace record: " + hostFolder
                    + " already holds a trace; choose another --out or remove it first");
        }
        Path ringDir = Files.createTempDirectory(ringBase(), "rdmatrace-ring-");
        try {
            ProgramRecording.Settings s = new ProgramRecording.Settings(command, TracerLibrary.directory(), real.get(),
                    ringDir, out, host, dataPath.equals("summary"), VersionProvider.toolVersion(),
                    wire ? ringDir : null);
            ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
            pb.environment().putAll(ProgramRecording.environment(s, env));
            // a trace that cannot be written on (a full disk) is told at once; the program runs on unrecorded
            ProgramRecording recording = new ProgramRecording(s, sentence -> {
                err.println("rdmatrace record: " + sentence);
                err.flush();
            });
            // the program runs after the JVM's start-up, not beside it (a bounded wait: best effort)
            warmUp.finish(WARM_UP_WAIT_MILLIS);
            Process process = QuitSignal.startUnblocked(pb);
            ProgramRecording.Result result;
            int signal;
            try (SignalForwarder forwarder = SignalForwarder.to(process, grace, recording::interrupted)) {
                result = recording.record(process);
                signal = forwarder.received();
            }
            report(err, result, recording.ringProblems());
            return signal > 0 ? 128 + signal : result.exitCode();
        } catch (TraceException e) {
            throw new UserDataException("rdmatrace record: " + e.getMessage(), e);
        } finally {
            deleteTree(ringDir);
        }
    }

    private long graceMillis() {
        if (!(graceSeconds >= 0 && graceSeconds <= 3600)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "rdmatrace record: --grace is 0 to 3600 seconds, not " + graceSeconds);
        }
        return Math.round(graceSeconds * 1000);
    }

    private int runUnrecorded(long grace) throws IOException, InterruptedException {
        Process p = QuitSignal.startUnblocked(new ProcessBuilder(command).inheritIO());
        try (SignalForwarder forwarder = SignalForwarder.to(p, grace, s -> { })) {
            int exit = p.waitFor();
            return forwarder.received() > 0 ? 128 + forwarder.received() : exit;
        }
    }

    private void report(PrintWriter err, ProgramRecording.Result result, List<String> problems) {
        problems.forEach(p -> err.println("rdmatrace record: " + p));
        if (result.noVerbs()) {
            err.println("rdmatrace record: " + String.join(" ", command)
                    + " never opened an RDMA device; no trace was written");
        }
        for (RecordedTrace t : result.traces()) {
            if (t.folder() == null) {
                continue;
            }
            List<String> notes = new ArrayList<>();
            if (t.writeFailure() != null) {
                notes.add("truncated: the trace could not be written to its end, said above");
            } else if (t.truncated()) {
                notes.add("truncated: no END was written for process " + t.pid());
            } else {
                notes.add(t.ending().describe());
            }
            if (t.dropped() > 0) {
                notes.add(t.dropped() + " records dropped (ring full)");
            }
            err.println("rdmatrace record: " + t.folder() + " (" + t.events() + " events"
                    + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)) + ")");
        }
        err.flush();
    }

    /** Shared memory when it is roomy, else the temp folder. */
    private static Path ringBase() {
        Path shm = Path.of("/dev/shm");
        try {
            if (Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).getUsableSpace() > (1L << 30)) {
                return shm;
            }
        } catch (IOException e) {
            // fall through
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp folder is harmless
        }
    }
}
