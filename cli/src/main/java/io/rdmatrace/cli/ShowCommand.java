package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.AnalysisWarmUp;
import io.rdmatrace.analyzer.load.LoadReport;
import io.rdmatrace.analyzer.show.EventPrinter;
import io.rdmatrace.analyzer.show.EventQuery;
import io.rdmatrace.analyzer.show.EventRef;
import io.rdmatrace.analyzer.show.ShownEvent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `rdmatrace show TRACE EVENT...`: prints the events a finding cites as evidence (host#seq),
 * {@code jfr print}-style, with every recorded field decoded and the QP's state at that moment.
 */
@Command(name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {"Print events of a trace by id, as findings cite them as evidence: HOST#SEQ (hostB#47) or a",
                "range HOST#FIRST-LAST (hostB#40-50). Each event shows its time, thread, the QP's state when it",
                "happened, and every recorded field decoded: enum and flag names, errno names, hex for keys,",
                "addresses, wr_ids, PSNs and QPNs (the raw value in parentheses).",
                "Exit 0 when every event was found, 1 when one was not, 2 on a usage error."},
        footer = {"", "Example usage:",
                "  rdmatrace show trace/ hostB#38",
                "  rdmatrace show sample-traces/advertise-psn-off-by-one hostA#34 hostB#38 hostB#51",
                "  rdmatrace show trace/ hostB#40-50 --json"})
final class ShowCommand implements Callable<Integer> {

    /** Awaited before the first use of Chronicle or Arrow; its database is the in-memory one. */
    private final AnalysisWarmUp warmUp;

    ShowCommand(AnalysisWarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TRACE", description = "A trace folder (a capture's --out, one host folder, or a bundle).")
    Path trace;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "EVENT", description = "HOST#SEQ or HOST#FIRST-LAST.")
    List<String> events = new ArrayList<>();

    @Option(names = "--json", description = "Print JSON: {\"events\": [{host, seq, kind, name, wall_ns, ts_ns, thread, qp_state, fields: {name: {value, text}}}]}.")
    boolean json;

    @Override
    public Integer call() throws SQLException {
        List<EventRef> refs = new ArrayList<>();
        for (String text : events) {
            try {
                refs.add(EventRef.parse(text));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        if (!Files.exists(trace)) {
            throw new EnvironmentException(trace + ": no such folder");
        }
        List<ShownEvent> shown = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        warmUp.await();
        try (Analysis analysis = Analysis.open(warmUp.inMemoryDatabase(), List.of(trace))) {
            LoadReport load = analysis.load();
            if (!load.anyReadable()) {
                throw new UserDataException(String.join("; ", load.rootProblems().isEmpty()
                        ? List.of(trace + ": no readable host trace") : load.rootProblems()));
            }
            EventQuery query = new EventQuery(analysis.connectionFor(EventQuery.RELATIONS));
            Map<String, Long> hosts = query.hosts();
            for (EventRef ref : refs) {
                if (!hosts.containsKey(ref.host())) {
                    missing.add(ref + ": no host '" + ref.host() + "' in " + trace + " (hosts: " + String.join(", ", hosts.keySet()) + ")");
                    continue;
                }
                List<ShownEvent> found = query.find(ref);
                if (found.isEmpty()) {
                    missing.add(ref + ": no such event (" + ref.host() + " has events 0.." + hosts.get(ref.host()) + ")");
                }
                shown.addAll(found);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            EventPrinter.json(shown, out);
        } else {
            EventPrinter.text(shown, out);
        }
        for (String problem : missing) {
            spec.commandLine().getErr().println("rdmatrace show: " + problem);
        }
        spec.commandLine().getErr().flush();
        return missing.isEmpty() ? ExitCode.OK : ExitCode.FAILURE;
    }
}
