package io.rdmatrace.capture.program;

import io.rdmatrace.capture.wire.SoftverbsWireLog;
import io.rdmatrace.trace.model.TraceEnding;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.tracer.RingFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs one command with the tracing libibverbs in front and turns every ring its processes create
 * into a trace: {@code OUT/<host-id>/} for the first process that opens a device,
 * {@code OUT/<host-id>.<pid>/} for each further one. Returns when the command and every traced
 * descendant have exited and every ring is drained.
 */
public final class ProgramRecording {
    /** Drain pause when no ring had anything new. */
    private static final long IDLE_SLEEP_MILLIS = 2;
    /** New processes (new ring files) are looked for this often; listing the folder every pass costs a core. */
    private static final long SCAN_INTERVAL_NANOS = 50_000_000L;

    /**
     * What to run and where the trace goes; {@code wireDir}: where softverbs logs the program's
     * packets (record --soft --wire), or null.
     */
    public record Settings(List<String> command, Path tracerDir, Path realLibrary, Path ringDir, Path outDir,
                           String hostId, boolean summary, String toolVersion, Path wireDir) {
    }

    /** How the recording ended. */
    public record Result(int exitCode, List<RecordedTrace> traces) {
        /** True when no process of the command opened a device. */
        public boolean noVerbs() {
            return traces.stream().allMatch(t -> t.folder() == null && t.writeFailure() == null);
        }
    }

    private final Settings settings;
    private final Consumer<String> onWriteFailure;
    private final Map<Path, ProgramTrace> traces = new LinkedHashMap<>();
    private final List<String> ringProblems = new ArrayList<>();
    private boolean firstTaken;
    /** The signal the recorder got and forwarded (0: none). */
    private volatile int recorderSignal;
    private long lastScan = System.nanoTime() - SCAN_INTERVAL_NANOS;

    public ProgramRecording(Settings settings) {
        this(settings, sentence -> { });
    }

    /**
     * {@code onWriteFailure} hears, at once, the one sentence of a trace that cannot be written on
     * (a full disk: where, after how many events); the program runs on unrecorded.
     */
    public ProgramRecording(Settings settings, Consumer<String> onWriteFailure) {
        this.settings = settings;
        this.onWriteFailure = onWriteFailure;
    }

    /** The environment the command runs with: the tracer first on LD_LIBRARY_PATH, the ring and the real library named. */
    public static Map<String, String> environment(Settings s, Map<String, String> inherited) {
        Map<String, String> env = new LinkedHashMap<>();
        String old = inherited.get("LD_LIBRARY_PATH");
        env.put("LD_LIBRARY_PATH", s.tracerDir() + (old == null || old.isEmpty() ? "" : ":" + old));
        env.put("RDMATRACE_REAL_VERBS", s.realLibrary().toString());
        // the librdmacm beside the real libibverbs (softverbs' with --soft); else the tracer finds the system's
        Path rdmacm = s.realLibrary().resolveSibling("librdmacm.so.1");
        if (Files.isRegularFile(rdmacm)) {
            env.put("RDMATRACE_REAL_RDMACM", rdmacm.toString());
        }
        env.put("RDMATRACE_RING_DIR", s.ringDir().toString());
        env.put("RDMATRACE_DATA_PATH", s.summary() ? "summary" : "full");
        // the tracer ties the command's life to ours (PR_SET_PDEATHSIG): no orphan if record is SIGKILLed
        env.put("RDMATRACE_RECORDER_PID", Long.toString(ProcessHandle.current().pid()));
        if (s.wireDir() != null) {
            env.put("SOFTVERBS_WIRE", s.wireDir().toString());
        }
        return env;
    }

    /**
     * Starts Chronicle Queue on a thread of its own ({@link TraceWarmUp}); {@link TraceWarmUp#finish}
     * it before starting the program, so its run does not share the CPUs with the JVM's start-up.
     */
    public static TraceWarmUp warmUp() {
        return TraceWarmUp.start();
    }

    /** Problems met opening rings (a tracer from another build): each one sentence. */
    public List<String> ringProblems() {
        return ringProblems;
    }

    /** Records while {@code process} runs; {@code process} must already be started with {@link #environment}. */
    public Result record(Process process) throws IOException, TraceException, InterruptedException {
        DrainPriority.lower();
        while (true) {
            boolean alive = process.isAlive();
            long now = System.nanoTime();
            boolean scan = now - lastScan >= SCAN_INTERVAL_NANOS;
            if (scan) {
                lastScan = now;
            }
            pollRings(scan);
            if (!alive && !anyTracedProcessAlive()) {
                break;
            }
            // Each pass drains everything the rings hold, and a ring holds far more than a pause's
            // worth of calls: pausing even when busy keeps the drain off the CPU the program needs.
            Thread.sleep(IDLE_SLEEP_MILLIS);
        }
        pollRings(true);
        int exit = process.waitFor();
        List<RecordedTrace> outcomes = new ArrayList<>();
        List<SoftverbsWireLog> wire = settings.wireDir() == null ? List.of() : SoftverbsWireLog.readAll(settings.wireDir());
        for (ProgramTrace t : traces.values()) {
            TraceEnding ending = ending(t.ring(), process.pid(), exit);
            outcomes.add(t.finish(ending, wire.stream().filter(w -> w.pid() == t.ring().pid()).toList()));
            t.ring().close();
        }
        return new Result(exit, outcomes);
    }

    /**
     * Notes that the recorder got {@code signal} and passed it on: the END of every trace says so.
     * Safe to call from a signal handler's thread.
     */
    public void interrupted(int signal) {
        recorderSignal = signal;
    }

    /**
     * What the END of {@code ring}'s trace says. The command's own process: its status as
     * waitFor gives it (128+n for a death by signal n: a closed ring tells an exit(143) from a
     * SIGTERM, since only an exit runs the tracer's exit handler). Any other process is not our
     * child, so only its ring says whether it exited.
     */
    private TraceEnding ending(RingFile ring, long commandPid, int exit) {
        int got = recorderSignal;
        boolean exited = ring.closed();
        int status = -1;
        int signal = 0;
        String detail;
        if (ring.pid() == commandPid) {
            if (exited || exit < 128) {
                status = exit;
                detail = exited ? "" : "process " + ring.pid() + " exited without running its exit handlers";
            } else {
                signal = exit - 128;
                detail = "";
            }
        } else {
            detail = "process " + ring.pid() + " (a descendant of the command) "
                    + (exited ? "exited" : "died before its exit handlers ran") + "; its status is its parent's to see";
        }
        if (got > 0) {
            if (signal == 9 && got != 9) {
                detail = TraceEnding.signalName(got) + " was passed on; the program had not ended when the grace period"
                        + " was over and was SIGKILLed" + (detail.isEmpty() ? "" : "; " + detail);
            }
            return TraceEnding.interrupted(got, status, signal, detail);
        }
        return signal > 0 || !exited && status < 0 ? TraceEnding.killed(signal, detail) : new TraceEnding(
                TraceEnding.How.EXITED, status, 0, 0, detail);
    }

    /** Opens new rings (when {@code scan}) and drains all of them. */
    private void pollRings(boolean scan) throws IOException, TraceException {
        if (scan) {
            openNewRings();
        }
        for (ProgramTrace t : traces.values()) {
            if (t != null) {
                t.drain();
            }
        }
        traces.values().removeIf(java.util.Objects::isNull);
    }

    private void openNewRings() throws IOException, TraceException {
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(settings.ringDir(), "ring.*")) {
            for (Path p : dir) {
                if (!traces.containsKey(p)) {
                    try {
                        RingFile ring = RingFile.openIfReady(p);
                        if (ring != null) {
                            traces.put(p, new ProgramTrace(ring, settings.outDir(), folders, settings.toolVersion()));
                        }
                    } catch (IOException e) {
                        ringProblems.add(e.getMessage());
                        traces.put(p, null);
                    }
                }
            }
        }
    }

    private boolean anyTracedProcessAlive() {
        for (ProgramTrace t : traces.values()) {
            if (t != null && !t.ring().closed()) {
                Optional<ProcessHandle> h = ProcessHandle.of(t.ring().pid());
                if (h.isPresent() && h.get().isAlive()) {
                    return true;
                }
            }
        }
        return false;
    }

    private final ProgramTrace.Folders folders = new ProgramTrace.Folders() {
        @Override
        public String hostIdFor(long pid) {
            return ProgramRecording.this.hostIdFor(pid);
        }

        @Override
        public void writeFailed(String sentence) {
            onWriteFailure.accept(sentence);
        }
    };

    private String hostIdFor(long pid) {
        if (!firstTaken) {
            firstTaken = true;
            return settings.hostId();
        }
        return settings.hostId() + "." + pid;
    }
}
