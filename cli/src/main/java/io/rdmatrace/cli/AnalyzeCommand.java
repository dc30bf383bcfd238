package io.rdmatrace.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.AnalysisWarmUp;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.report.ReportFormat;
import io.rdmatrace.analyzer.report.ReportOptions;
import io.rdmatrace.analyzer.rule.Rule;
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
 * `rdmatrace analyze FOLDER...`: loads every host trace under the folders into DuckDB, runs the
 * SQL rules (built-in rules/*.sql plus --rules DIR) and reports the findings.
 */
@Command(name = "analyze",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Load the traces of every host under FOLDER (or FOLDER itself when it is one host's trace)",
                "into an embedded DuckDB, correlate the two ends of each connection and run the SQL rules. Each",
                "finding names the host, the QP, the evidence events (host#seq) and the fix.",
                "Exit 0 when no finding is at or above --fail-on, 1 when one is, 2 on a usage error or a folder",
                "with no trace in it. Unreadable or truncated host folders are reported and the rest is analysed."},
        footer = {"", "Example usage:",
                "  rdmatrace analyze trace/",
                "  rdmatrace analyze --format markdown -o findings.md hostA-trace/ hostB-trace/",
                "  rdmatrace analyze --format junit -o analyze.xml --fail-on warning trace/",
                "  rdmatrace analyze --rules my-rules/ --db trace.duckdb trace/     (then: duckdb trace.duckdb)",
                "  rdmatrace analyze --list-rules --verbose"})
final class AnalyzeCommand implements Callable<Integer> {

    /** Awaited before the first use of Chronicle or Arrow; its database is the in-memory one. */
    private final AnalysisWarmUp warmUp;

    AnalyzeCommand(AnalysisWarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FOLDER", description = "Trace folders (a capture's --out, or one host folder).")
    List<Path> folders = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text, json, markdown or junit (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
    Path output;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            description = "Exit 1 when a finding is at or above: error, warning, info or never (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--rules", paramLabel = "DIR", description = "A folder of extra rule files (*.sql); repeatable.")
    List<Path> ruleFolders = new ArrayList<>();

    @Option(names = "--db", paramLabel = "FILE", description = "Keep the DuckDB database in FILE (must not exist) instead of memory.")
    Path db;

    @Option(names = "--rule", paramLabel = "ID", split = ",", description = "Run only this rule (repeatable, or "
            + "ID,ID...); only the relations it and the report read are computed. --list-rules lists the ids.")
    List<String> only = new ArrayList<>();

    @Option(names = "--list-rules", description = "List the rules (id, severity, title) and exit.")
    boolean listRules;

    @Option(names = "--verbose", description = "Also show each rule's explanation and SQL, and per-rule timings.")
    boolean verbose;

    @Option(names = "--pcap", paramLabel = "HOST=FILE", description = "A packet capture (pcap or pcapng, e.g. tcpdump -w "
            + "FILE udp port 4791) taken on HOST: its RoCEv2 NAKs are matched to QPs and cited by the rules; repeatable.")
    List<String> pcaps = new ArrayList<>();

    @Option(names = "--all", description = "Show expected findings (the TC02 probe's refused transition) one by one "
            + "instead of folded into one line.")
    boolean all;

    @Override
    public Integer call() throws SQLException, IOException {
        ReportFormat reportFormat = parseFormat();
        Severity threshold = FailOn.parse(spec, failOn);
        Inputs.ruleFolders(ruleFolders);
        if (output != null) {
            Inputs.outputFile(output);
        }
        if (listRules) {
            return listRules(RuleCatalog.load(ruleFolders));
        }
        if (folders.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required parameter: 'FOLDER' (or use --list-rules)");
        }
        for (Path folder : folders) {
            if (!Files.exists(folder)) {
                throw new EnvironmentException(folder + ": no such folder");
            }
        }
        RuleSet rules = only(RuleCatalog.load(ruleFolders)); // while the warm-up's threads finish
        warmUp.await();
        AnalysisDatabase database = open();
        try (Analysis analysis = Analysis.open(database, folders)) {
            LoadReport load = analysis.load();
            if (!load.anyReadable() && load.hosts().stream().noneMatch(h -> !h.status().equals("IGNORED"))) {
                throw new EnvironmentException(String.join("; ", load.rootProblems().isEmpty()
                        ? List.of(folders + ": no host trace found") : load.rootProblems()));
            }
            warnAboutInputs(load);
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
            AnalysisResult result = only.isEmpty() ? analysis.analyze(rules) : analysis.analyzeOnly(rules);
            for (RuleProblem problem : result.ruleProblems()) {
                err().println(prefix() + "rule not run: " + problem);
            }
            String traceArgs = String.join(" ", folders.stream().map(Path::toString).toList());
            write(result, new ReportOptions(verbose, threshold, all, traceArgs));
            return threshold != null && result.countAtLeast(threshold) > 0 ? ExitCode.FAILURE : ExitCode.OK;
        }
    }

    /** The rules --rule names, in the catalog's order (all of them without --rule); an unknown id is a usage error. */
    private RuleSet only(RuleSet catalog) {
        if (only.isEmpty()) {
            return catalog;
        }
        for (String id : only) {
            if (catalog.find(id).isEmpty()) {
                throw new ParameterException(spec.commandLine(),
                        "--rule " + id + ": no such rule (rdmatrace analyze --list-rules lists them)");
            }
        }
        return new RuleSet(catalog.rules().stream().filter(r -> only.contains(r.id())).toList(), catalog.problems());
    }

    private AnalysisDatabase open() throws SQLException {
        if (db == null) {
            return warmUp.inMemoryDatabase();
        }
        warmUp.discardDatabase();
        try {
            return AnalysisDatabase.inFile(db);
        } catch (IllegalArgumentException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
    }

    /** Folders that could not be (fully) read are named on stderr; the report repeats them as findings. */
    private void warnAboutInputs(LoadReport load) {
        for (String problem : load.rootProblems()) {
            err().println(prefix() + problem);
        }
        for (HostLoad host : load.hosts()) {
            if (!host.status().equals("CLEAN")) {
                err().println(prefix() + host.detail());
            }
        }
    }

    private void write(AnalysisResult result, ReportOptions options) throws IOException {
        if (output == null) {
            // standard output flushes on every line (a 1,000-QP report: 33k write calls); the report goes in 64 KB writes
            PrintWriter buffered = new PrintWriter(new BufferedWriter(spec.commandLine().getOut(), 1 << 16));
            reportFormat().writer().write(result, options, buffered);
            buffered.flush();
            return;
        }
        StringWriter text = new StringWriter();
        reportFormat().writer().write(result, options, new PrintWriter(text));
        Files.writeString(output, text.toString(), StandardCharsets.UTF_8);
        spec.commandLine().getOut().printf("%s%d error(s), %d warning(s), %d info; report written to %s%n", prefix(),
                result.count(Severity.ERROR), result.count(Severity.WARNING), result.count(Severity.INFO), output);
    }

    private int listRules(RuleSet rules) {
        PrintWriter out = spec.commandLine().getOut();
        for (Rule rule : rules.rules()) {
            out.printf("%-30s %-8s %s%n", rule.id(), rule.severity().label(), rule.title());
            if (verbose) {
                out.println("    origin: " + rule.origin());
                out.println("    " + rule.explanation().replace("\n", "\n    "));
                out.println("    fix: " + rule.fix().replace("\n", "\n    "));
                out.println("      " + rule.sql().replace("\n", "\n      "));
                out.println();
            }
        }
        for (RuleProblem problem : rules.problems()) {
            err().println(prefix() + "rule not loaded: " + problem);
        }
        return ExitCode.OK;
    }

    private ReportFormat parseFormat() {
        try {
            return ReportFormat.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--format': '" + format + "' (expected text, json, markdown or junit)");
        }
    }

    private ReportFormat reportFormat() {
        return parseFormat();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private String prefix() {
        return ErrorHandlers.prefix(spec.commandLine()) + ": ";
    }
}
