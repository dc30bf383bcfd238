package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;

import io.rdmatrace.capture.replay.ReplayException;
import io.rdmatrace.capture.replay.ReplayReportText;
import io.rdmatrace.capture.replay.ReplayResult;
import io.rdmatrace.capture.replay.ReplayRunner;
import io.rdmatrace.capture.replay.ReportJson;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.verbs.VerbsLibrary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace replay TRACE`: re-executes what was recorded on a device and reports every place the
 * device behaves differently from the recording.
 */
@Command(name = "replay",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Re-run a recorded host's verbs calls (open, alloc_pd, reg_mr, create_cq/qp, modify_qp, query_qp,",
                "posts of the recorded sizes, polls, destroy) on a device, mapping recorded handles, QPNs, keys,",
                "addresses and GIDs to the new ones; a two-host trace replays both hosts, each in its own process,",
                "re-exchanging fresh parameters over loopback. The replay is recorded as a new trace, and every",
                "divergence is reported: a call that succeeded there and fails here (or the reverse), another errno,",
                "another queried value or granted size, another completion. Handles, QPNs, keys, addresses and times",
                "are expected to differ and are not compared. Departures are listed with their consequences.",
                "Replaying a hardware trace on --soft is a conformance check against the reference device.",
                "Exit 0 when the replay matches, 1 on any divergence, 2 on a usage error or an unusable device."},
        footer = {"", "Example usage:",
                "  rdmatrace replay trace/ --soft",
                "  rdmatrace replay trace/host-a --soft --out replayed/",
                "  rdmatrace replay trace/ --verbs-lib /opt/rdma-core/build/lib/libibverbs.so.1 --json"})
final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRACE", description = "A recorded trace folder (a capture's --out, or one host folder).")
    Path trace;

    @Mixin
    VerbsOptions verbs;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where to record the replay (default: replay-<date>-<time>/ in the current folder).")
    Path out;

    @Option(names = "--completion-wait", paramLabel = "MS", defaultValue = "5000",
            description = "How long a replayed poll waits for the completions the recording had (default: ${DEFAULT-VALUE}).")
    long completionWaitMs;

    @Option(names = "--message-wait", paramLabel = "MS", defaultValue = "30000",
            description = "How long an out-of-band message between the replaying hosts may take (default: ${DEFAULT-VALUE}).")
    long messageWaitMs;

    @Option(names = "--json", description = "Print the per-host reports as JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
        if (!Files.exists(trace)) {
            throw new EnvironmentException(trace + ": no such folder");
        }
        if (completionWaitMs <= 0 || messageWaitMs <= 0) {
            throw new EnvironmentException("--completion-wait and --message-wait must be positive");
        }
        Path outDir = out != null ? out
                : Path.of("replay-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        VerbsLibrary library = VerbsLibrary.select(verbs.soft(), verbs.verbsLib(), System.getenv());
        ReplayResult result;
        try {
            result = ReplayRunner.run(new ReplayRunner.Options(trace, library, outDir, Duration.ofMillis(completionWaitMs),
                    Duration.ofMillis(messageWaitMs), VersionProvider.toolVersion(),
                    "rdmatrace replay " + String.join(" ", spec.commandLine().getParseResult().originalArgs())));
        } catch (TraceException e) {
            throw new EnvironmentException(e.getMessage(), e);
        } catch (ReplayException e) {
            throw e.isEnvironment() ? new EnvironmentException(e.getMessage(), e) : new UserDataException(e.getMessage(), e);
        }
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            stdout.println(ReportJson.write(result));
            stdout.flush();
        } else {
            ReplayReportText.write(result, trace.toString(), stdout);
        }
        if (unusable(result)) {
            throw new EnvironmentException(result.hosts().get(0).failure());
        }
        return result.diverged() ? ExitCode.FAILURE : ExitCode.OK;
    }

    /** Every host failed before calling anything: the library or device is the problem, not the recording. */
    private static boolean unusable(ReplayResult result) {
        return result.hosts().stream().allMatch(h -> h.failure() != null && h.failure().startsWith("cannot use ")
                && h.callsReplayed() == 0);
    }
}
