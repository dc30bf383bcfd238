package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.AnalysisWarmUp;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.report.ReportLines;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.rule.RuleProblem;
import io.rdmatrace.analyzer.rule.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace watch FOLDER...`: analyzes traces that are still being written, again and again, and
 * prints each finding once, when it can first be made, until every host's trace has ended or a
 * signal stops it.
 */
@Command(name = "watch",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Follow recordings while they run: analyze the traces under FOLDER every --interval, print a "
                + "line when a host's trace appears or changes state (still recording, complete, how it ended), each "
                + "finding once, the moment the traces show it (a hang: the mismatch that causes it, or a stall after 5 s "
                + "without a completion), and an error or warning the traces no longer show (a missing peer appeared).",
                "Ends when every host's trace has ended, or at the next pause after Ctrl-C, SIGTERM or SIGHUP, with a "
                + "summary. Exit 0 when no finding is at or above --fail-on, 1 when one is, 2 on a usage error or when "
                + "no trace appeared before it was stopped."},
        footer = {"", "Example usage:",
                "  rdmatrace record --out trace/ --host-id a -- ibv_rc_pingpong -g 3 &",
                "  rdmatrace watch trace/",
                "  rdmatrace watch --interval 5 --fail-on warning hostA-trace/ hostB-trace/"})
final class WatchCommand implements Callable<Integer> {
    /** HH:mm:ss always: LocalTime's own text drops the seconds at a whole minute ("00:18"). */
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final double MIN_INTERVAL = 0.1;
    private static final double MAX_INTERVAL = 3600;

    private final AnalysisWarmUp warmUp;
    private int rounds;

    WatchCommand(AnalysisWarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FOLDER",
            description = "Trace folders (a record's or capture's --out, or one host folder); may not exist yet.")
    List<Path> folders = new ArrayList<>();

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            description = "Pause between two analyses, from the end of one to the start of the next (default: ${DEFAULT-VALUE}).")
    double intervalSeconds;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            description = "Exit 1 when a finding is at or above: error, warning, info or never (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--rules", paramLabel = "DIR", description = "A folder of extra rule files (*.sql); repeatable.")
    List<Path> ruleFolders = new ArrayList<>();

    @Option(names = "--verbose", description = "Also say on standard error what each analysis read and how long it took.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        if (!(intervalSeconds >= MIN_INTERVAL && intervalSeconds <= MAX_INTERVAL)) {
            throw new ParameterException(spec.commandLine(), "--interval must be between " + MIN_INTERVAL + " and "
                    + (int) MAX_INTERVAL + " seconds, not " + intervalSeconds);
        }
        Severity threshold = FailOn.parse(spec, failOn);
        Inputs.ruleFolders(ruleFolders);
        RuleSet rules = RuleCatalog.load(ruleFolders);
        for (RuleProblem problem : rules.problems()) {
            err().println(prefix() + "rule not loaded: " + problem);
        }
        warmUp.await();
        PrintWriter out = spec.commandLine().getOut();
        WatchProgress progress = new WatchProgress();
        Set<Path> waitedFor = new HashSet<>();
        AnalysisResult last = null;
        try (StopSignals stop = StopSignals.take()) {
            while (true) {
                boolean stopping = stop.requested();
                Optional<AnalysisResult> round = analyze(rules, out, waitedFor);
                if (round.isPresent()) {
                    last = round.get();
                    boolean ended = !stopping && allEnded(last);
                    for (String line : progress.update(last, stopping || ended)) {
                        out.println(now() + " " + line);
                    }
                    out.flush();
                    if (ended) {
                        return finish(out, last, threshold, "every host's trace has ended");
                    }
                }
                if (stopping) {
                    if (last == null) {
                        throw new EnvironmentException("stopped by " + stop.signal().orElse("a signal") + " before any trace"
                                + " appeared in " + String.join(", ", folders.stream().map(Path::toString).toList()));
                    }
                    return finish(out, last, threshold, "stopped by " + stop.signal().orElse("a signal"));
                }
                stop.awaitStop(Math.round(intervalSeconds * 1000));
            }
        }
    }

    /** One analysis of every folder, or empty while a folder does not exist or holds no readable trace yet. */
    private Optional<AnalysisResult> analyze(RuleSet rules, PrintWriter out, Set<Path> waitedFor) throws SQLException {
        for (Path folder : folders) {
            if (!Files.exists(folder)) {
                if (waitedFor.add(folder)) {
                    out.println(now() + " waiting for " + folder + " to appear");
                    out.flush();
                }
                return Optional.empty();
            }
        }
        long start = System.nanoTime();
        try (Analysis analysis = Analysis.open(warmUp.inMemoryDatabase(), folders)) {
            if (!analysis.load().anyReadable()) {
                return Optional.empty();
            }
            AnalysisResult result = analysis.analyze(rules);
            if (verbose) {
                err().printf("%sround %d: %d events of %d host(s) analyzed in %d ms%n", prefix(), ++rounds,
                        result.load().events(), result.load().hosts().size(), (System.nanoTime() - start) / 1_000_000);
            }
            return Optional.of(result);
        }
    }

    private static boolean allEnded(AnalysisResult result) {
        return result.load().hosts().stream().noneMatch(HostLoad::recording);
    }

    private int finish(PrintWriter out, AnalysisResult result, Severity threshold, String why) {
        long recording = result.load().hosts().stream().filter(HostLoad::recording).count();
        out.printf("%s: %d host(s)%s; %d error(s), %d warning(s), %d info%n", capitalize(why), result.load().hosts().stream()
                .filter(h -> !h.status().equals("IGNORED")).count(), recording > 0 ? ", " + recording + " still recording" : "",
                result.count(Severity.ERROR), result.count(Severity.WARNING), result.count(Severity.INFO));
        ReportLines.summary(result).forEach(out::println);
        out.println("The whole report: rdmatrace analyze " + String.join(" ", folders.stream().map(Path::toString).toList()));
        out.flush();
        return threshold != null && result.countAtLeast(threshold) > 0 ? ExitCode.FAILURE : ExitCode.OK;
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private String prefix() {
        return ErrorHandlers.prefix(spec.commandLine()) + ": ";
    }

    private static String now() {
        return clock(LocalTime.now());
    }

    /** The time a line of watch's is stamped with. */
    static String clock(LocalTime t) {
        return t.format(CLOCK);
    }
}
