package io.rdmatrace.cli;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.config.Workload;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.run.CaptureAgent;
import io.rdmatrace.capture.run.CaptureException;
import io.rdmatrace.capture.run.CaptureReport;
import io.rdmatrace.capture.scenario.ScenarioJson;
import io.rdmatrace.verbs.CmLibrary;
import io.rdmatrace.verbs.VerbsLibrary;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** `rdmatrace capture`: one side of a recorded two-host bring-up (TC01–TC04 or a --scenario file). */
@Command(name = "capture",
        description = "Bring up an RDMA connection with a peer agent (TC01 resources, TC02 illegal-transition probe, "
                + "TC03 exchange and INIT->RTR->RTS, TC04 data each way) and record every verbs call, completion, "
                + "async event and out-of-band message into OUT/<host-id>/. Prints a PASS/FAIL table; exit 0 when "
                + "every step passed on both sides, 1 when one failed, 2 when it cannot run.",
        sortOptions = false,
        footer = {"", "Example usage:",
                "  SOFTVERBS_DEVICES=a@127.0.0.1 rdmatrace capture --soft --host-id hostA --listen 127.0.0.1:7471",
                "  SOFTVERBS_DEVICES=b@127.0.0.2 rdmatrace capture --soft --host-id hostB --connect 127.0.0.1:7471",
                "  rdmatrace capture --connect hostA:7471 --advertise-psn -1 --retry-cnt 2   (inject a PSN fault)",
                "  rdmatrace capture --listen 7471 --print-scenario > my.json                (start a scenario file)",
                "  SOFTVERBS_DEVICES=a@127.0.0.1 rdmatrace capture --soft --cm --host-id hostA --listen 127.0.0.1:7471",
                "  SOFTVERBS_DEVICES=b@127.0.0.2 rdmatrace capture --soft --cm --host-id hostB --connect 127.0.0.1:7471",
                "                                                          (QPs connected through rdma_cm)"})
final class CaptureCommand implements Callable<Integer> {
    /** Options whose values are not overrides (or secrets) and stay out of the SESSION's override list. */
    private static final Set<String> NOT_OVERRIDES = Set.of("--listen", "--connect", "--out", "--host-id", "--token",
            "--print-scenario", "--soft", "--verbs-lib", "--no-record", "--cm-lib");

    /** Default UD message size: fits the active MTU of a 1500-byte Ethernet link. */
    static final int UD_DEFAULT_SIZE = 1024;

    @Spec
    CommandSpec spec;

    static final class Role {
        @Option(names = "--listen", paramLabel = "[ADDR:]PORT", required = true, description = "Wait for the peer on this TCP port.")
        String listen;

        @Option(names = "--connect", paramLabel = "HOST:PORT", required = true,
                description = "Connect to the listening peer (retries until --oob-timeout-ms).")
        String connect;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Role role;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "trace", description = "Capture root; this host writes DIR/<host-id>/ (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--host-id", paramLabel = "ID", description = "Name of this host in the trace (default: the host name).")
    String hostId;

    @Option(names = "--device", paramLabel = "NAME", description = "RDMA device (default: the first one).")
    String device;

    @Option(names = "--ib-port", paramLabel = "N", defaultValue = "1", description = "Port number (default: ${DEFAULT-VALUE}).")
    int ibPort;

    @Mixin
    VerbsOptions verbs;

    @Option(names = "--qp-type", paramLabel = "rc|uc|ud", defaultValue = "rc", description = "QP type (default: ${DEFAULT-VALUE}).")
    String qpType;

    @Option(names = "--qps", paramLabel = "N", defaultValue = "1", description = "Connections over one exchange (default: ${DEFAULT-VALUE}).")
    int qps;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "4096", description = "Message size (default: ${DEFAULT-VALUE}; 1024 on UD).")
    int size;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "1", description = "Messages each way per QP (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--op", paramLabel = "send|write|read", defaultValue = "send", description = "TC04 operation (default: ${DEFAULT-VALUE}).")
    String op;

    @Mixin
    CaptureFaultOptions faults;

    @Mixin
    CaptureCmOptions cm;

    @Option(names = "--scenario", paramLabel = "FILE", description = "Run this scenario (JSON, or YAML by .yaml/.yml) instead of TC01–TC04.")
    Path scenario;

    @Option(names = "--print-scenario", description = "Print the scenario these options run, as JSON, and exit.")
    boolean printScenario;

    @Option(names = "--token", paramLabel = "SECRET", description = "Shared secret: authenticate the exchange with HMAC-SHA256 (same on both sides).")
    String token;

    @Option(names = "--no-barrier", description = "Do not wait for the peer's RTS before sending.")
    boolean noBarrier;

    @Option(names = {"-v", "--verbose"}, description = "In the step table, show every note of every step, one per line "
            + "(without it, a step shows its first 3).")
    boolean verbose;

    @Option(names = "--no-record", description = "Run the steps without writing a trace (and without the verbs listener).")
    boolean noRecord;

    @Option(names = "--wire", description = "With --soft: record every packet softverbs sends, receives or drops "
            + "(opcode, PSN, AETH syndrome, drop reason) as PACKET events in the trace.")
    boolean wire;

    @Option(names = "--oob-timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Wait for the peer to connect, and for each of its messages (default: ${DEFAULT-VALUE}).")
    long oobTimeoutMs;

    @Option(names = "--cq-timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "Wait for completions before TC04 fails (default: ${DEFAULT-VALUE}).")
    long cqTimeoutMs;

    @Override
    public Integer call() {
        PrintWriter outw = spec.commandLine().getOut();
        CaptureConfig config = config();
        if (printScenario) {
            try {
                outw.print(ScenarioJson.write(CaptureAgent.scenarioOf(config)));
                outw.flush();
                return ExitCode.OK;
            } catch (IOException | RuntimeException e) {
                throw new UserDataException("cannot read scenario " + scenario + ": " + e.getMessage(), e);
            }
        }
        if (wire && (noRecord || !verbs.soft())) {
            throw new ParameterException(spec.commandLine(), "--wire records softverbs' packets into the trace: it needs"
                    + " --soft and a trace (not --no-record)");
        }
        VerbsLibrary library = VerbsLibrary.select(verbs.soft(), verbs.verbsLib(), System.getenv());
        CaptureReport report;
        try {
            CaptureAgent agent = new CaptureAgent(config, library, VersionProvider.toolVersion(), line -> {
                outw.println("rdmatrace capture: " + line);
                outw.flush();
            });
            if (cm.cmLib != null) {
                agent = agent.withCmLibrary(CmLibrary.select(false, cm.cmLib));
            }
            report = (noRecord ? agent.withoutRecording() : wire ? agent.withWire() : agent).run();
        } catch (CaptureException e) {
            if (e.environment()) {
                throw new EnvironmentException(e.getMessage(), e);
            }
            throw new UserDataException(e.getMessage(), e);
        }
        CaptureTable.print(outw, config, report, verbose);
        if (report.writeFailed()) {
            // the environment stopped the capture (full disk, file-size limit), not the device under test
            spec.commandLine().getErr().println("rdmatrace capture: " + report.traceProblem());
            spec.commandLine().getErr().flush();
            return ExitCode.USAGE;
        }
        return report.passed() ? ExitCode.OK : ExitCode.FAILURE;
    }

    /** The options as a validated config; a bad value is a usage error naming the option. */
    CaptureConfig config() {
        try {
            OobRole r = role.listen != null ? OobRole.LISTEN : OobRole.CONNECT;
            String endpoint = r == OobRole.LISTEN ? role.listen : role.connect;
            if (token != null && token.isEmpty()) {
                throw new IllegalArgumentException("--token must not be empty");
            }
            if (oobTimeoutMs < 1 || cqTimeoutMs < 1) {
                throw new IllegalArgumentException("--oob-timeout-ms and --cq-timeout-ms must be positive");
            }
            if (scenario != null && !Files.isReadable(scenario)) {
                throw new IllegalArgumentException("--scenario " + scenario + ": no such readable file");
            }
            Duration cqWait = Duration.ofMillis(cqTimeoutMs);
            // the peer may wait out a whole TC04 before it answers, so a message may take longer than a poll
            Duration messageWait = Duration.ofMillis(Math.max(oobTimeoutMs, 2 * cqTimeoutMs + 5000));
            PeerLink link = new PeerLink(r, endpoint, Optional.ofNullable(token), !noBarrier, Duration.ofMillis(oobTimeoutMs), messageWait);
            Transport type = parse(Transport.class, qpType, "--qp-type");
            // a UD message must fit the path MTU (1024 on a 1500-byte link); a larger --size is a fault to ask for
            int bytes = type == Transport.UD && !spec.commandLine().getParseResult().hasMatchedOption("--size") ? UD_DEFAULT_SIZE : size;
            Workload w = new Workload(type, qps, bytes, iterations, parse(Op.class, op, "--op"));
            QpKnobs k = faults.knobs();
            if (r == OobRole.LISTEN) {
                io.rdmatrace.capture.oob.OobEndpoint.parseListen(endpoint);
            } else {
                io.rdmatrace.capture.oob.OobEndpoint.parseConnect(endpoint);
            }
            return new CaptureConfig(hostId != null ? hostId : HostName.local(), out, device, ibPort, link, w, k, scenario, cqWait,
                    overrides(), commandLine(),
                    cm.settings(spec.commandLine().getParseResult()::hasMatchedOption));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** The command line for the SESSION, with the --token secret masked. */
    private String commandLine() {
        java.util.List<String> args = new java.util.ArrayList<>(spec.commandLine().getParseResult().originalArgs());
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--token") && i + 1 < args.size()) {
                args.set(i + 1, "***");
            } else if (args.get(i).startsWith("--token=")) {
                args.set(i, "--token=***");
            }
        }
        return "rdmatrace capture " + String.join(" ", args);
    }

    /** Every option the user gave explicitly, as typed, for the SESSION (so findings can say "injected by ..."). */
    private Map<String, String> overrides() {
        Map<String, String> m = new LinkedHashMap<>();
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            String name = o.longestName();
            if (!NOT_OVERRIDES.contains(name)) {
                m.put(name, o.originalStringValues().isEmpty() ? "true" : String.join(",", o.originalStringValues()));
            }
        }
        if (token != null) {
            m.put("--token", "(set)"); // never the secret itself
        }
        return m;
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String text, String option) {
        try {
            return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            StringBuilder names = new StringBuilder();
            for (E v : type.getEnumConstants()) {
                names.append(names.length() > 0 ? ", " : "").append(v.name().toLowerCase(Locale.ROOT));
            }
            throw new IllegalArgumentException(option + " must be one of " + names + ", got '" + text + "'");
        }
    }

    /** The host name without DNS: the kernel's, else the JVM's idea of it. */
    static final class HostName {
        private HostName() {
        }

        static String local() {
            try {
                String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
                if (!h.isEmpty()) {
                    return h;
                }
            } catch (IOException | RuntimeException e) {
                // not Linux: fall through
            }
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return "localhost";
            }
        }
    }
}
