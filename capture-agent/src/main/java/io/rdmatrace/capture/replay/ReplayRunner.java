package io.rdmatrace.capture.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceLayout;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * {@code rdmatrace replay}: re-executes a recorded trace on a device and reports where the outcome
 * departs from the recording. A one-host trace replays in this process; a two-host trace replays
 * each host in its own process (as it was recorded), the two re-exchanging fresh QPNs, GIDs and
 * keys over the capture agent's out-of-band channel on loopback. On the bundled softverbs each
 * host gets a reference device of its own.
 */
public final class ReplayRunner {
    /** How long the listening process may take to start and bind. */
    private static final long START_WAIT_MS = 60_000;

    private ReplayRunner() {
    }

    /**
     * @param trace          the recorded trace folder (host folders, or one host folder)
     * @param library        the libibverbs to replay on
     * @param outDir         where to record the replay (created; must not hold the same hosts yet)
     * @param completionWait how long a replayed poll waits for the recorded completions
     * @param messageWait    how long an out-of-band message may take
     */
    public record Options(Path trace, VerbsLibrary library, Path outDir, Duration completionWait, Duration messageWait,
                          String toolVersion, String commandLine) {
        public Options {
            Objects.requireNonNull(trace, "trace");
            Objects.requireNonNull(library, "library");
            Objects.requireNonNull(outDir, "outDir");
            Objects.requireNonNull(completionWait, "completionWait");
            Objects.requireNonNull(messageWait, "messageWait");
            Objects.requireNonNull(toolVersion, "toolVersion");
            Objects.requireNonNull(commandLine, "commandLine");
        }
    }

    public static ReplayResult run(Options o) throws TraceException, ReplayException {
        TraceSet set = TraceSet.discover(o.trace());
        if (set.hosts().size() > 2) {
            throw new ReplayException(o.trace() + " holds " + set.hosts().size() + " hosts " + set.hostIds()
                    + "; replay re-runs one host or a pair of connected hosts", false);
        }
        List<TraceReader.Result> recordings = new ArrayList<>();
        for (Path host : set.hosts()) {
            recordings.add(TraceReader.readAll(host));
        }
        for (TraceReader.Result r : recordings) {
            Path taken = o.outDir().resolve(r.session().hostId());
            if (TraceLayout.holdsQueueFiles(taken)) {
                throw new ReplayException(taken + " already holds a trace; choose another --out", true);
            }
        }
        boolean reference = o.library().kind() == VerbsLibrary.Kind.BUNDLED_SOFTVERBS;
        SoftDevices devices = new SoftDevices();
        List<HostReplayReport> reports = new ArrayList<>();
        if (recordings.size() == 1) {
            TraceReader.Result r = recordings.get(0);
            reports.add(new HostReplay(new HostReplayConfig(r, o.library(), reference ? devices.spec(r, 0) : null,
                    reference, null, o.outDir(), o.completionWait(), o.messageWait(), o.toolVersion(),
                    o.commandLine())).run());
        } else {
            reports.addAll(pair(o, set.hosts(), recordings, devices, reference));
        }
        return new ReplayResult(o.outDir(), o.library().describe(), reference, reports);
    }

    /** Both hosts, each in a child JVM: the recorded listener first, then the connector to its port. */
    private static List<HostReplayReport> pair(Options o, List<Path> folders, List<TraceReader.Result> recordings,
                                               SoftDevices devices, boolean reference) throws ReplayException {
        int listener = listenerIndex(recordings);
        int connector = 1 - listener;
        Path work;
        try {
            Files.createDirectories(o.outDir());
            work = Files.createTempDirectory("rdmatrace-replay-");
        } catch (IOException e) {
            throw new ReplayException("cannot create " + o.outDir() + ": " + e.getMessage(), true, e);
        }
        // generous: a replay that goes wrong waits out its message and completion waits
        long budgetMs = START_WAIT_MS + 4 * o.messageWait().toMillis()
                + o.completionWait().toMillis() * Math.min(20, Math.max(1, completionsIn(recordings)));
        try (ChildJvm first = child(o, folders, recordings, devices, reference, listener, "listen", work)) {
            String port = first.awaitLine(START_WAIT_MS);
            if (port == null) {
                first.waitFor(1000);
                throw new ReplayException("the replay of " + hostOf(recordings, listener) + " did not start:"
                        + System.lineSeparator() + first.tail(20), true);
            }
            try (ChildJvm second = child(o, folders, recordings, devices, reference, connector,
                    "connect:127.0.0.1:" + port, work)) {
                int secondExit = second.waitFor(budgetMs);
                int firstExit = first.waitFor(Math.max(10_000, o.messageWait().toMillis()));
                List<HostReplayReport> reports = new ArrayList<>();
                reports.add(report(recordings, listener, firstExit, first, work));
                reports.add(report(recordings, connector, secondExit, second, work));
                reports.sort((a, b) -> a.host().compareTo(b.host()));
                if (reports.stream().allMatch(r -> r.failure() == null)) {
                    deleteQuietly(work); // the logs only matter when something went wrong
                }
                return reports;
            }
        } catch (IOException e) {
            throw new ReplayException("cannot start a replaying process: " + e.getMessage(), true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplayException("interrupted while replaying", true, e);
        }
    }

    private static ChildJvm child(Options o, List<Path> folders, List<TraceReader.Result> recordings, SoftDevices devices,
                                  boolean reference, int index, String role, Path work) throws IOException {
        String host = hostOf(recordings, index);
        List<String> args = new ArrayList<>(List.of(
                "--recording", folders.get(index).toAbsolutePath().toString(),
                "--out", o.outDir().toAbsolutePath().toString(),
                "--report", reportFile(work, index).toString(),
                "--library-kind", o.library().kind().name(),
                "--library-location", o.library().location(),
                "--role", role,
                "--reference", Boolean.toString(reference),
                "--completion-wait-ms", Long.toString(o.completionWait().toMillis()),
                "--message-wait-ms", Long.toString(o.messageWait().toMillis()),
                "--tool-version", o.toolVersion(),
                "--command-line", o.commandLine()));
        if (reference) {
            args.add("--soft-spec");
            args.add(devices.spec(recordings.get(index), index));
        }
        return ChildJvm.start(ReplayHostMain.class, args, work.resolve("replay-" + index + "-" + safe(host) + ".log"),
                ReplayHostMain.PORT_LINE);
    }

    private static HostReplayReport report(List<TraceReader.Result> recordings, int index, int exit, ChildJvm child,
                                           Path work) {
        String host = hostOf(recordings, index);
        Path file = reportFile(work, index);
        if (exit == 0 && Files.isRegularFile(file)) {
            try {
                return ReportJson.read(Files.readString(file));
            } catch (IOException e) {
                return failed(host, "its report is unreadable: " + e.getMessage());
            }
        }
        return failed(host, (exit < 0 ? "the replaying process ran out of time and was stopped"
                : "the replaying process exited with " + exit) + " (log: " + child.log() + "); its last output:"
                + System.lineSeparator() + child.tail(15));
    }

    private static HostReplayReport failed(String host, String why) {
        return new HostReplayReport(host, null, "", 0, 0, List.of(), List.of(), why);
    }

    /** The host that listened in the recording (its SESSION says so), else the first. */
    private static int listenerIndex(List<TraceReader.Result> recordings) {
        for (int i = 0; i < recordings.size(); i++) {
            var s = recordings.get(i).session();
            if ("listen".equals(s.overrides().get("role")) || s.overrides().containsKey("--listen")
                    || s.commandLine().contains("--listen")) {
                return i;
            }
        }
        for (int i = 0; i < recordings.size(); i++) {
            for (TraceEvent e : recordings.get(i).events()) {
                if (e instanceof OobEvent oob) {
                    if (oob.direction() == OobEvent.Direction.RECEIVED) {
                        return i; // the first to hear from the other accepted its connection
                    }
                    break;
                }
            }
        }
        return 0;
    }

    private static long completionsIn(List<TraceReader.Result> recordings) {
        return recordings.stream().flatMap(r -> r.events().stream())
                .filter(e -> e instanceof io.rdmatrace.trace.model.CompletionEvent).count();
    }

    private static String hostOf(List<TraceReader.Result> recordings, int index) {
        return recordings.get(index).session().hostId();
    }

    private static Path reportFile(Path work, int index) {
        return work.resolve("report-" + index + ".json");
    }

    private static void deleteQuietly(Path work) {
        try (var files = Files.list(work)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(work);
        } catch (IOException e) {
            // a leftover temporary folder is harmless
        }
    }

    private static String safe(String host) {
        return host.replaceAll("[^A-Za-z0-9_.-]", "_");
    }
}
