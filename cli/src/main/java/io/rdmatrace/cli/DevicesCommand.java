package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import io.rdmatrace.verbs.VerbsUnavailableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace devices`: what {@code ibv_devinfo -v} shows (devices, firmware, GUIDs, vendor ids,
 * ports, state, MTUs, link layer, GID table with types), through the same verbs binding the
 * capture uses. No library or no device: the one-sentence reason and exit 2. A device that cannot
 * be opened or queried is listed with its error and the exit code is 1.
 */
@Command(name = "devices",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"List RDMA devices and their ports like `ibv_devinfo -v`.",
                "Exit 0 when every device could be queried, 1 when one could not, 2 when there is none."},
        footer = {"", "Example usage:",
                "  rdmatrace devices",
                "  rdmatrace devices --soft --json",
                "  SOFTVERBS_DEVICES=a@127.0.0.1,b@127.0.0.2 rdmatrace devices --soft",
                "  rdmatrace devices --verbs-lib /opt/rdma-core/build/lib/libibverbs.so.1"})
final class DevicesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    VerbsOptions verbs;

    @Option(names = "--json", description = "Print JSON (schema " + DevicesFormat.SCHEMA + ").")
    boolean json;

    @Override
    public Integer call() {
        VerbsLibrary library = VerbsLibrary.select(verbs.soft(), verbs.verbsLib(), System.getenv());
        DevicesReport report;
        try (Verbs loaded = Verbs.open(library); DeviceList list = loaded.getDeviceList()) {
            report = DevicesReport.collect(loaded, list);
        } catch (VerbsUnavailableException e) {
            throw new EnvironmentException(e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            DevicesFormat.json(report, out);
        } else {
            DevicesFormat.text(report, out);
        }
        return report.anyError() ? ExitCode.FAILURE : ExitCode.OK;
    }
}
