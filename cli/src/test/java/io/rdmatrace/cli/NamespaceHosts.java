package io.rdmatrace.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Two softverbs hosts in network namespaces joined by a veth pair (softverbs-hosts.sh of the softverbs module), one
 * command each, for middleware that wants a device on a real interface (UCX, libfabric, Open MPI).
 * A test skips, naming why, where namespaces cannot be made; every wait is bounded and an overrun is
 * killed by pid.
 */
final class NamespaceHosts {
    /** The helper, from the cli module directory (surefire's working directory). */
    static final Path SCRIPT = Path.of("../softverbs/src/main/sh/softverbs-hosts.sh").toAbsolutePath().normalize();
    private static final Path LIB = Path.of("../softverbs/target/classes/io/rdmatrace/native/linux-x86_64/softverbs")
            .toAbsolutePath().normalize();

    /** One run: the helper's exit and messages, each host's output. */
    record Run(int exit, String a, String b, String helper) {
        String describe() {
            return "softverbs-hosts exit " + exit + "\n--- helper ---\n" + helper + "--- host a ---\n" + a
                    + "--- host b ---\n" + b;
        }
    }

    private NamespaceHosts() {
    }

    /** Runs A and B on the two hosts (b once a listens on TCP {@code waitTcp}, 0: at once), at most {@code seconds}. */
    static Run run(Path work, int waitTcp, int seconds, String a, String b) throws IOException, InterruptedException {
        return run(work, "", waitTcp, seconds, a, b);
    }

    /** As {@link #run(Path, int, int, String, String)}, each device spec ending in {@code deviceOpts} (e.g. ":profile=mlx5"). */
    static Run run(Path work, String deviceOpts, int waitTcp, int seconds, String a, String b)
            throws IOException, InterruptedException {
        Path logs = Files.createDirectories(work.resolve("logs"));
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString(), "--lib", LIB.toString(), "--log-dir",
                logs.toString(), "--timeout", Integer.toString(seconds)));
        if (!deviceOpts.isEmpty()) {
            cmd.addAll(List.of("--device-opts", deviceOpts));
        }
        if (waitTcp > 0) {
            cmd.addAll(List.of("--wait-tcp", Integer.toString(waitTcp)));
        }
        cmd.addAll(List.of("--", a, b));
        Path out = work.resolve("hosts.out");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {   // the helper's own --timeout ends it first
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        int exit = p.isAlive() ? -1 : p.exitValue();
        String helper = Files.readString(out, StandardCharsets.UTF_8);
        assumeTrue(!(exit == 2 && helper.contains("cannot make the hosts")),
                () -> "network namespaces cannot be made here (needs root or CAP_SYS_ADMIN + CAP_NET_ADMIN): " + helper.strip());
        return new Run(exit, read(logs.resolve("a.log")), read(logs.resolve("b.log")), helper);
    }

    /** {@code rdmatrace record ARGS} in a JVM of its own, as one shell command line for a host. */
    static String record(List<String> args) {
        return RecordJvm.command(args).stream().map(NamespaceHosts::quote).collect(Collectors.joining(" "));
    }

    static String quote(String s) {
        return s.matches("[A-Za-z0-9_./:=,@+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
