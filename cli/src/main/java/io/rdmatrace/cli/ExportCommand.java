package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.export.BundleWriter;
import io.rdmatrace.analyzer.export.ParquetExport;
import io.rdmatrace.analyzer.load.bundle.BundleException;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace export TRACE -o bug.zip [--redact]`: one file to attach to a bug report; `rdmatrace export --format parquet
 * OUT/ TRACE...`: the analysis tables as Parquet partitioned by host, for DuckDB, Spark or Trino (fleet/README.md).
 */
@Command(name = "export",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Write one zip to attach to a bug report: every host's events as Parquet (written by DuckDB,",
                "readable by any Parquet tool), each host's SESSION metadata as JSON, and the analysis report in",
                "markdown. `rdmatrace analyze` and `rdmatrace diff` take the zip in place of a trace folder.",
                "--redact replaces GIDs, IP addresses, host names, lkeys/rkeys, virtual addresses and handles,",
                "MAC-derived GUIDs and absolute paths by consistent pseudonyms (one value, one pseudonym, across",
                "hosts and files) keyed by a random secret that is not kept; link-local GIDs stay link-local,",
                "IPv4-mapped GIDs stay IPv4-mapped and offsets inside a buffer are kept, so every rule still works.",
                "--format parquet writes the analysis tables (hosts, calls, completions, qp_settings, ... as documented",
                "in rules/README.md) of one or more traces into the folder OUT, partitioned by host, Hive-style:",
                "OUT/TABLE/host=NAME/part-0.parquet, with OUT/_schema.json and OUT/README.md naming every table, column",
                "and type and the trace format; DuckDB, Spark and Trino read each folder as a table. Not redacted.",
                "Exit 0 when written, 1 when the trace cannot be read, 2 on a usage error."},
        footer = {"", "Example usage:",
                "  rdmatrace export trace/ -o bug.zip",
                "  rdmatrace export trace/ -o bug-redacted.zip --redact",
                "  rdmatrace analyze bug-redacted.zip",
                "  rdmatrace export --format parquet job-parquet/ trace/"})
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** What export writes. */
    enum Format { bundle, parquet }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "bundle",
            description = "bundle (a zip, -o ZIP) or parquet (a folder: OUT TRACE...). Default: ${DEFAULT-VALUE}.")
    Format format;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = {"bundle: TRACE, the capture folder (host folders under it) or one host folder.",
            "parquet: OUT (a new or empty folder), then one or more TRACE folders."})
    List<Path> paths;

    @Option(names = {"-o", "--output"}, paramLabel = "ZIP", description = "The bundle to write (--format bundle).")
    Path output;

    @Option(names = "--redact", description = "Pseudonymise sensitive values (see above).")
    boolean redact;

    @Option(names = "--force", description = "Replace ZIP if it exists.")
    boolean force;

    /** The bundle's trace folder. */
    private Path trace;

    @Override
    public Integer call() throws SQLException {
        if (format == Format.parquet) {
            return parquet();
        }
        if (output == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--output=ZIP'");
        }
        if (paths.size() != 1) {
            throw new ParameterException(spec.commandLine(), "a bundle takes one TRACE folder, not " + paths.size()
                    + " (several traces: --format parquet OUT TRACE...)");
        }
        trace = paths.get(0);
        checkUsage();
        BundleWriter.Result result;
        try {
            result = BundleWriter.export(trace, output, redact, force, VersionProvider.toolVersion());
        } catch (BundleException e) {
            throw new EnvironmentException(e.getMessage(), e); // nothing exportable in it: unusable input
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf("rdmatrace export: wrote %s (%d bytes): %d host(s), %d finding(s), %s%n", output, result.bytes(),
                result.hosts().size(), result.analysis().findings().size(), redact ? "redacted" : "not redacted");
        if (result.redaction() != null) {
            out.println("redacted:");
            for (String line : result.redaction().lines()) {
                out.println("  " + line);
            }
            out.println("host names in the bundle (this list is not in it):");
            for (Map.Entry<String, String> h : result.hostPseudonyms().entrySet()) {
                out.println("  " + h.getKey() + " → " + h.getValue());
            }
        }
        return ExitCode.OK;
    }

    /** `--format parquet OUT TRACE...`. */
    private int parquet() throws SQLException {
        if (output != null || redact || force) {
            throw new ParameterException(spec.commandLine(), "--format parquet takes OUT TRACE..., without "
                    + (output != null ? "-o" : redact ? "--redact (the bundle's; the Parquet tables are not redacted)"
                    : "--force (OUT must be new or empty)"));
        }
        if (paths.size() < 2) {
            throw new ParameterException(spec.commandLine(), "--format parquet takes OUT and at least one TRACE folder");
        }
        Path out = paths.get(0);
        List<Path> traces = paths.subList(1, paths.size());
        for (Path t : traces) {
            if (!Files.exists(t)) {
                throw new EnvironmentException(t + ": no such trace folder");
            }
        }
        ParquetExport.Result result;
        try {
            ParquetExport.checkOutput(out);
            result = ParquetExport.export(traces, out, VersionProvider.toolVersion());
        } catch (BundleException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        long rows = result.tables().stream().mapToLong(ParquetExport.Table::rows).sum();
        spec.commandLine().getOut().printf("rdmatrace export: wrote %s (%d bytes): %d host(s), %d table(s), %d row(s), "
                        + "partitioned by host; schema in %s%n", out, result.bytes(), result.hosts().size(),
                result.tables().size(), rows, out.resolve("_schema.json"));
        return ExitCode.OK;
    }

    /** Problems with the paths themselves are usage errors (exit 2), before any reading. */
    private void checkUsage() {
        if (!Files.exists(trace)) {
            throw new EnvironmentException(trace + ": no such trace folder");
        }
        if (BundleLayout.looksLikeBundle(trace)) {
            throw new EnvironmentException(trace + ": is already a bundle; export takes a trace folder");
        }
        if (Files.isDirectory(output)) {
            throw new EnvironmentException(output + ": is a folder; give the zip file to write, e.g. -o bug.zip");
        }
        if (Files.exists(output) && !force) {
            throw new EnvironmentException(output + ": already exists; choose another -o file or pass --force");
        }
        Path parent = output.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new EnvironmentException(output + ": its folder does not exist");
        }
    }
}
