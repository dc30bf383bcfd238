package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.export.BundleWriter;
import io.rdmatrace.analyzer.load.bundle.BundleException;
import io.rdmatrace.analyzer.load.bundle.BundleLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `rdmatrace export TRACE -o bug.zip [--redact]`: one file to attach to a bug report. */
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
                "Exit 0 when written, 1 when the trace cannot be read, 2 on a usage error."},
        footer = {"", "Example usage:",
                "  rdmatrace export trace/ -o bug.zip",
                "  rdmatrace export trace/ -o bug-redacted.zip --redact",
                "  rdmatrace analyze bug-redacted.zip"})
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRACE", description = "The capture folder (host folders under it) or one host folder.")
    Path trace;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "ZIP", description = "The bundle to write.")
    Path output;

    @Option(names = "--redact", description = "Pseudonymise sensitive values (see above).")
    boolean redact;

    @Option(names = "--force", description = "Replace ZIP if it exists.")
    boolean force;

    @Override
    public Integer call() throws SQLException {
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
