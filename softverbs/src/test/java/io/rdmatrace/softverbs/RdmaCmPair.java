package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * Runs an unmodified librdmacm program pair (rping, udaddy, ucmatose from rdmacm-utils) between
 * two processes, each with its own softverbs device and softverbs' librdmacm.so.1 found through
 * LD_LIBRARY_PATH: the server starts, the client starts once the server's device is up.
 */
final class RdmaCmPair {
    static final Duration DEVICE_DEADLINE = Duration.ofSeconds(15);
    static final Duration RUN_DEADLINE = Duration.ofSeconds(60);
    /** A client that reaches the device before its server listens is refused, as on hardware; it is run again. */
    private static final int CLIENT_ATTEMPTS = 10;

    /** Both processes' results. */
    record Run(ChildProcess.Result server, ChildProcess.Result client) {
        String describe() {
            return server.describe() + "\n" + client.describe();
        }
    }

    private RdmaCmPair() {
    }

    /** A fresh pair of loopback device addresses 127.X.Y.1 / .2 (never 127.0.0.x). */
    static SoftverbsEnv.Hosts randomHosts() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String net = "127." + r.nextInt(100, 250) + "." + r.nextInt(1, 255) + ".";
        return new SoftverbsEnv.Hosts("cma", net + "1", "cmb", net + "2");
    }

    static int randomPort() {
        return ThreadLocalRandom.current().nextInt(20000, 30000);
    }

    /** Starts the server on the server device (the caller stops or awaits it). */
    static ChildProcess startServer(SoftverbsEnv.Hosts hosts, String label, List<String> command, Path work) {
        ChildProcess server = ChildProcess.start(label, command, SoftverbsEnv.processEnv(hosts.serverDevices()), work);
        awaitDevice(server, hosts.serverIp());
        return server;
    }

    /**
     * Runs the client until it is not refused (at most CLIENT_ATTEMPTS times), then waits for the
     * server. {@code refused} says whether a client result is "nobody listened yet".
     */
    static Run run(SoftverbsEnv.Hosts hosts, String tool, List<String> serverArgs, List<String> clientArgs,
                   Predicate<ChildProcess.Result> refused, Path work) {
        Path exe = SoftverbsEnv.requireTool(tool, tool.startsWith("ib_") ? "perftest" : "rdmacm-utils");
        ChildProcess server = startServer(hosts, tool + "-server", prepend(exe, serverArgs), work);
        try (server) {
            ChildProcess.Result client = null;
            for (int attempt = 1; attempt <= CLIENT_ATTEMPTS; attempt++) {
                try (ChildProcess c = ChildProcess.start(tool + "-client-" + attempt, prepend(exe, clientArgs),
                        SoftverbsEnv.processEnv(hosts.clientDevices()), work)) {
                    client = c.await(RUN_DEADLINE);
                }
                if (!refused.test(client) || !server.isAlive()) {
                    break;
                }
                sleep(100);
            }
            return new Run(server.await(RUN_DEADLINE), client);
        }
    }

    /** Waits until the server process has bound its device's RoCE socket (ip:4791 in /proc/net/udp). */
    static void awaitDevice(ChildProcess server, String ip) {
        String[] b = ip.split("\\.");
        String local = String.format(Locale.ROOT, "%02X%02X%02X%02X:12B7", Integer.parseInt(b[3]),
                Integer.parseInt(b[2]), Integer.parseInt(b[1]), Integer.parseInt(b[0]));
        long end = System.nanoTime() + DEVICE_DEADLINE.toNanos();
        while (System.nanoTime() < end) {
            if (!server.isAlive()) {
                fail("server exited before its device was up:\n" + server.await(Duration.ofSeconds(1)).describe());
            }
            try {
                for (String line : Files.readAllLines(Path.of("/proc/net/udp"))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 1 && f[1].equals(local)) {
                        return;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            sleep(20);
        }
        server.close();
        fail("server device " + ip + " was not up within " + DEVICE_DEADLINE);
    }

    private static List<String> prepend(Path exe, List<String> args) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(exe.toString()), args.stream()).toList();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
