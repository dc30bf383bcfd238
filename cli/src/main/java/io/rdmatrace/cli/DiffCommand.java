package io.rdmatrace.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.diff.DiffFormat;
import io.rdmatrace.analyzer.diff.DiffInput;
import io.rdmatrace.analyzer.diff.DiffOptions;
import io.rdmatrace.analyzer.diff.DiffReport;
import io.rdmatrace.analyzer.diff.HostEvents;
import io.rdmatrace.analyzer.diff.TraceDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace diff A B`: what differs in behaviour between two captures of the same scenario
 * (firmware X vs firmware Y), aligned by host role, object order and scenario step.
 */
@Command(name = "diff",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Compare two captures (e.g. firmware X vs Y): return codes and errnos, returned and queried",
                "attributes (caps granted, QP attributes after each modify), completion statuses and vendor errors,",
                "async events, step verdicts, device identity, and per-verb call latency.",
                "Hosts are paired by role (listen/connect, else host order) and calls by object and step (the n-th QP,",
                "its k-th modify), never by handle values. PSNs, QPNs, keys, addresses, GIDs, GUIDs and timestamps",
                "are not compared. A or B may be a trace folder or an export bundle (.zip).",
                "Exit 0 when equivalent, 1 on a behavioural difference, 2 on a usage error or an unreadable input."},
        footer = {"", "Latency: per host role and verb, reported when both captures have at least --latency-min-calls calls,",
                "the median ratio is at least --latency-ratio (or at most its inverse), the interquartile ranges do not",
                "overlap and the medians differ by at least --latency-min-shift-ns; informational unless --fail-on-latency.",
                "", "Example usage:",
                "  rdmatrace diff fw-14.32/ fw-14.33/",
                "  rdmatrace diff --format markdown -o diff.md baseline/ candidate.zip",
                "  rdmatrace diff --ignore fw_ver,max_inline_data --fail-on-latency old/ new/"})
final class DiffCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The reference capture (folder or bundle).")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "The capture to compare with it.")
    Path b;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, json or markdown (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
    Path output;

    @Option(names = "--ignore", split = ",", paramLabel = "FIELD",
            description = {"More fields not to compare: attribute names (max_send_wr, vendor_err, fw_ver; in_/out_ for one",
                    "side of a call), ret, errno, verdict, latency, or a group: psns, qpns, keys, addresses, gids, text."})
    List<String> ignore = new ArrayList<>();

    @Option(names = "--latency-ratio", paramLabel = "R", defaultValue = "2.0",
            description = "Median ratio that counts as a latency shift (default: ${DEFAULT-VALUE}).")
    double latencyRatio;

    @Option(names = "--latency-min-calls", paramLabel = "N", defaultValue = "20",
            description = "Calls needed on each side before a verb's latency is judged (default: ${DEFAULT-VALUE}).")
    int latencyMinCalls;

    @Option(names = "--latency-min-shift-ns", paramLabel = "NS", defaultValue = "1000",
            description = "Smallest median shift reported, in ns (default: ${DEFAULT-VALUE}).")
    long latencyMinShift;

    @Option(names = "--fail-on-latency", description = "Exit 1 on a latency shift too.")
    boolean failOnLatency;

    @Override
    public Integer call() throws SQLException, IOException {
        DiffFormat f;
        DiffOptions options;
        try {
            f = DiffFormat.parse(format);
            options = DiffOptions.defaults().ignoring(ignore)
                    .withLatency(latencyRatio, latencyMinCalls, latencyMinShift, failOnLatency);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        List<HostEvents> hostsA = read("A", a);
        List<HostEvents> hostsB = read("B", b);
        DiffReport report = TraceDiff.compare(a.toString(), hostsA, b.toString(), hostsB, options);
        String rendered = f.render(report);
        if (output != null) {
            Files.writeString(output, rendered, StandardCharsets.UTF_8);
            PrintWriter out = spec.commandLine().getOut();
            out.println("rdmatrace diff: " + summaryLine(report) + "; report written to " + output);
        } else {
            spec.commandLine().getOut().print(rendered);
        }
        return report.equivalent() ? ExitCode.OK : ExitCode.FAILURE;
    }

    private static List<HostEvents> read(String side, Path input) throws SQLException {
        try {
            return DiffInput.read(input);
        } catch (DiffInput.UnusableInputException e) {
            throw new EnvironmentException(side + " (" + input + ") cannot be compared: " + e.getMessage(), e);
        }
    }

    private static String summaryLine(DiffReport r) {
        int n = r.behavioural().size();
        return r.equivalent() ? "equivalent" : n + " behavioural difference" + (n == 1 ? "" : "s");
    }
}
