package io.rdmatrace.softverbs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two softverbs hosts in network namespaces of their own (src/main/sh/softverbs-hosts.sh): one command
 * per host, each with a device bound to its end of a veth pair. Tests that need it skip visibly where
 * namespaces cannot be made (no root, no CAP_NET_ADMIN, a container that forbids them).
 */
final class TwoHosts {
    /** The helper, from the module directory (surefire's working directory). */
    static final Path SCRIPT = Path.of("src/main/sh/softverbs-hosts.sh").toAbsolutePath();
    /** The hosts' IPv4 /24 when a test does not choose one (host a .1, host b .2). */
    static final String NET = "10.29.0";
    private static volatile String cannotMake;

    /** One run of the helper: its exit, its own messages, and each host's output. */
    record Run(int exit, boolean timedOut, String a, String b, String helper) {
        String describe() {
            return "softverbs-hosts " + (timedOut ? "TIMED OUT" : "exit " + exit) + "\n--- helper ---\n" + helper
                    + "--- host a ---\n" + a + "--- host b ---\n" + b;
        }
    }

    private TwoHosts() {
    }

    /** Skips the test, naming the step, where this machine cannot make network namespaces. */
    static void assumeNamespaces(Path work) {
        if (cannotMake == null) {
            Run probe = run(work.resolve("probe"), List.of("--timeout", "30"), "true", "true", Duration.ofSeconds(60));
            cannotMake = probe.exit() == 2 && probe.helper().contains("cannot make the hosts") ? probe.helper() : "";
        }
        assumeTrue(cannotMake.isEmpty(), () -> "network namespaces cannot be made here (needs root or "
                + "CAP_SYS_ADMIN + CAP_NET_ADMIN): " + cannotMake.strip());
    }

    /** Runs COMMAND A and COMMAND B on the two hosts; the test's own deadline kills the helper (its pid). */
    static Run run(Path work, List<String> options, String commandA, String commandB, Duration deadline) {
        try (ChildProcess p = start(work, options, commandA, commandB)) {
            ChildProcess.Result r = p.await(deadline);
            return result(work, r);
        }
    }

    /** Starts the helper; {@link #result} reads the hosts' logs once it ended. */
    static ChildProcess start(Path work, List<String> options, String commandA, String commandB) {
        try {
            Files.createDirectories(work.resolve("logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(),
                "--lib", SoftverbsEnv.libraryDir().toString(), "--log-dir", work.resolve("logs").toString()));
        command.addAll(options);
        command.addAll(List.of("--", commandA, commandB));
        return ChildProcess.start("hosts", command, Map.of(), work);
    }

    static Run result(Path work, ChildProcess.Result r) {
        return new Run(r.exitCode(), r.timedOut(), log(work, "a"), log(work, "b"), r.stdout() + r.stderr());
    }

    /** What a host printed so far. */
    static String log(Path work, String host) {
        Path file = work.resolve("logs").resolve(host + ".log");
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
