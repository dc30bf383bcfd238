package io.rdmatrace.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.AnalysisWarmUp;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.rule.RuleCatalog;
import io.rdmatrace.analyzer.timeline.HtmlTimelineWriter;
import io.rdmatrace.analyzer.timeline.PerfettoWriter;
import io.rdmatrace.analyzer.timeline.Timeline;
import io.rdmatrace.analyzer.timeline.TimelineBuilder;
import io.rdmatrace.analyzer.timeline.TimelineSource;
import io.rdmatrace.trace.store.TraceException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace timeline FOLDER -o FILE`: the two hosts side by side in time, as one self-contained
 * HTML page or as Chrome trace-event JSON for ui.perfetto.dev, with the analysis findings marked.
 */
@Command(name = "timeline",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Draw a trace as a timeline: one lane per host and per QP with the verbs calls (and their",
                "durations), QP state changes, completions, async events, scenario steps, and the out-of-band messages",
                "as arrows between the hosts, clock-offset corrected (the analyzer's host_clock_offset estimate). The",
                "analysis runs first and its findings are highlighted on their evidence events.",
                "html: one file with inline CSS, script and data, no network needed to view it.",
                "perfetto: Chrome trace-event JSON, for ui.perfetto.dev or chrome://tracing.",
                "Exit 0 when the file was written, 1 when the traces cannot be read, 2 on a usage error."},
        footer = {"", "Example usage:",
                "  rdmatrace timeline trace/ -o timeline.html",
                "  rdmatrace timeline trace/ --format perfetto -o trace.json    (open in ui.perfetto.dev)",
                "  rdmatrace timeline trace/ --rules my-rules/ -o timeline.html",
                "  rdmatrace timeline trace/ --pcap hostA=hostA.pcap -o timeline.html"})
final class TimelineCommand implements Callable<Integer> {

    /** Awaited before the first use of Chronicle or Arrow; its database is the in-memory one. */
    private final AnalysisWarmUp warmUp;

    TimelineCommand(AnalysisWarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FOLDER", description = "A trace folder (a capture's --out, or one host folder).")
    Path folder;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The file to write.")
    Path output;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "html",
            description = "html or perfetto (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--rules", paramLabel = "DIR", description = "A folder of extra rule files (*.sql); repeatable.")
    List<Path> ruleFolders = new ArrayList<>();

    @Option(names = "--pcap", paramLabel = "HOST=FILE", description = "A packet capture (pcap or pcapng) taken on HOST: "
            + "its RoCEv2 packets are drawn on the lanes of the QPs they went to (NAKs in red); repeatable.")
    List<String> pcaps = new ArrayList<>();

    @Override
    public Integer call() throws SQLException, IOException {
        boolean html = switch (format.toLowerCase(java.util.Locale.ROOT)) {
            case "html" -> true;
            case "perfetto" -> false;
            default -> throw new ParameterException(spec.commandLine(),
                    "--format must be html or perfetto, not '" + format + "'");
        };
        Inputs.ruleFolders(ruleFolders);
        Inputs.outputFile(output);
        if (!Files.exists(folder)) {
            throw new EnvironmentException(folder + ": no such folder");
        }
        Timeline timeline;
        warmUp.await();
        try (Analysis analysis = Analysis.open(warmUp.inMemoryDatabase(), List.of(folder))) {
            LoadReport load = analysis.load();
            if (!load.anyReadable()) {
                throw new EnvironmentException(String.join("; ", load.rootProblems().isEmpty()
                        ? List.of(folder + ": no readable host trace") : load.rootProblems()));
            }
            for (String pcap : pcaps) {
                int eq = pcap.indexOf('=');
                if (eq <= 0 || eq == pcap.length() - 1) {
                    throw new ParameterException(spec.commandLine(), "--pcap takes HOST=FILE, not '" + pcap + "'");
                }
                try {
                    analysis.database().loadPackets(pcap.substring(0, eq), Path.of(pcap.substring(eq + 1)));
                } catch (IOException e) {
                    throw new UserDataException("--pcap " + pcap + ": " + e.getMessage(), e);
                }
            }
            AnalysisResult result = analysis.analyze(RuleCatalog.load(ruleFolders));
            timeline = TimelineBuilder.build(TimelineSource.read(analysis.connection(), folder.toString(),
                    result.diagnosis().ordered())); // causes before their consequences, as the report lists them
        } catch (TraceException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        String text = html ? HtmlTimelineWriter.render(timeline) : PerfettoWriter.render(timeline);
        Path parent = output.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new EnvironmentException(output + ": its folder does not exist");
        }
        Files.writeString(output, text, StandardCharsets.UTF_8);
        spec.commandLine().getOut().printf("%s: %d host(s), %d lane(s), %d call(s), %d message(s), %d finding(s); wrote %s%n",
                spec.qualifiedName(), timeline.hosts().size(), timeline.lanes().size(), timeline.calls().size(),
                timeline.links().size(), timeline.findings().size(), output);
        return ExitCode.OK;
    }
}
