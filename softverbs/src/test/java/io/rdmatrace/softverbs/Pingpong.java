package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs an unmodified ibverbs-utils pingpong between two processes, each on its own softverbs
 * device: by default the server on {@code a@127.0.0.1}, the client on {@code b@127.0.0.2}, with
 * {@code -g 3} (the IPv4-mapped RoCE v2 GID, as on a RoCE NIC) and a free TCP port.
 */
final class Pingpong implements AutoCloseable {
    /** The two tools; UD refuses messages larger than the active MTU. */
    enum Kind {
        RC("ibv_rc_pingpong"), UD("ibv_ud_pingpong");

        final String tool;

        Kind(String tool) {
            this.tool = tool;
        }
    }

    /** One side's address line: "local address:  LID 0x0000, QPN 0x000011, PSN 0x3a2f1c, GID ::ffff:127.0.0.1". */
    record Address(int lid, int qpn, int psn, String gid) {
    }

    /** Both processes' results and the addresses each printed. */
    record Run(SoftverbsEnv.Hosts hosts, ChildProcess.Result server, ChildProcess.Result client, Address serverLocal, Address serverRemote,
               Address clientLocal, Address clientRemote) {
        String describe() {
            return server.describe() + "\n" + client.describe();
        }
    }

    static final Duration LISTEN_DEADLINE = Duration.ofSeconds(15);
    static final Duration RUN_DEADLINE = Duration.ofSeconds(60);
    private static final Pattern ADDRESS = Pattern.compile(
            "(local|remote) address:\\s+LID 0x([0-9a-f]+), QPN 0x([0-9a-f]+), PSN 0x([0-9a-f]+)[,:] GID (\\S+)");
    private static final Pattern ITERS = Pattern.compile("(\\d+) iters in ([0-9.]+) seconds");

    private final SoftverbsEnv.Hosts hosts;
    private final ChildProcess server;
    private final ChildProcess client;

    private Pingpong(SoftverbsEnv.Hosts hosts, ChildProcess server, ChildProcess client) {
        this.hosts = hosts;
        this.server = server;
        this.client = client;
    }

    /** Starts server then client; returns once both are running (the exchange may be under way). */
    static Pingpong start(Kind kind, List<String> options, int iterations, Path workDir) {
        return start(kind, SoftverbsEnv.Hosts.DEFAULT, options, iterations, workDir);
    }

    /** As {@link #start(Kind, List, int, Path)} on another pair of loopback addresses. */
    static Pingpong start(Kind kind, SoftverbsEnv.Hosts hosts, List<String> options, int iterations, Path workDir) {
        Path tool = SoftverbsEnv.requireTool(kind.tool, "ibverbs-utils");
        int port = freeTcpPort();
        List<String> common = new ArrayList<>();
        common.add(tool.toString());
        common.addAll(List.of("-g", "3", "-p", Integer.toString(port), "-n", Integer.toString(iterations)));
        common.addAll(options);
        ChildProcess server = ChildProcess.start(kind.name().toLowerCase(Locale.ROOT) + "-server", common,
                SoftverbsEnv.processEnv(hosts.serverDevices()), workDir);
        awaitListening(server, port);
        List<String> clientCommand = new ArrayList<>(common);
        clientCommand.add(hosts.serverIp());
        ChildProcess client = ChildProcess.start(kind.name().toLowerCase(Locale.ROOT) + "-client", clientCommand,
                SoftverbsEnv.processEnv(hosts.clientDevices()), workDir);
        return new Pingpong(hosts, server, client);
    }

    /** Starts, waits for both to finish (killing them on overrun) and parses what they printed. */
    static Run run(Kind kind, List<String> options, int iterations, Path workDir) {
        return run(kind, SoftverbsEnv.Hosts.DEFAULT, options, iterations, workDir);
    }

    static Run run(Kind kind, SoftverbsEnv.Hosts hosts, List<String> options, int iterations, Path workDir) {
        try (Pingpong p = start(kind, hosts, options, iterations, workDir)) {
            return p.await(RUN_DEADLINE);
        }
    }

    boolean clientAlive() {
        return client.isAlive();
    }

    Run await(Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        ChildProcess.Result c = client.await(deadline);
        ChildProcess.Result s = server.await(Duration.ofNanos(Math.max(1_000_000_000L, end - System.nanoTime())));
        return new Run(hosts, s, c, address(s.stdout(), "local"), address(s.stdout(), "remote"),
                address(c.stdout(), "local"), address(c.stdout(), "remote"));
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }

    /** Asserts both ends exited 0 after all iterations, and that their addresses match up. */
    static void assertCompleted(Run run, int iterations) {
        assertThat(run.server().timedOut() || run.client().timedOut()).as(run.describe()).isFalse();
        assertThat(run.server().exitCode()).as(run.describe()).isZero();
        assertThat(run.client().exitCode()).as(run.describe()).isZero();
        assertThat(iterationsDone(run.server().stdout())).as(run.describe()).contains(iterations);
        assertThat(iterationsDone(run.client().stdout())).as(run.describe()).contains(iterations);
        assertThat(run.serverLocal()).as(run.describe()).isNotNull();
        assertThat(run.clientLocal()).as(run.describe()).isNotNull();
        // each side learnt exactly what the other announced
        assertThat(run.serverRemote()).as(run.describe()).isEqualTo(run.clientLocal());
        assertThat(run.clientRemote()).as(run.describe()).isEqualTo(run.serverLocal());
        // GID index 3 is the IPv4-mapped RoCE v2 GID of each device's own address
        assertThat(run.serverLocal().gid()).isEqualTo("::ffff:" + run.hosts().serverIp());
        assertThat(run.clientLocal().gid()).isEqualTo("::ffff:" + run.hosts().clientIp());
        assertThat(run.serverLocal().qpn()).isBetween(1, 0xFFFFFF);
        assertThat(run.clientLocal().qpn()).isBetween(1, 0xFFFFFF);
    }

    static Optional<Integer> iterationsDone(String stdout) {
        Matcher m = ITERS.matcher(stdout);
        return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    static Address address(String stdout, String which) {
        Matcher m = ADDRESS.matcher(stdout);
        while (m.find()) {
            if (m.group(1).equals(which)) {
                return new Address(Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16),
                        Integer.parseInt(m.group(4), 16), m.group(5));
            }
        }
        return null;
    }

    static int freeTcpPort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port", e);
        }
    }

    /** Polls /proc/net/tcp{,6} until the server listens on the port (it accepts only one connection). */
    static void awaitListening(ChildProcess server, int port) {
        String portHex = String.format(Locale.ROOT, ":%04X ", port);
        long end = System.nanoTime() + LISTEN_DEADLINE.toNanos();
        while (System.nanoTime() < end) {
            if (!server.isAlive()) {
                fail("pingpong server exited before listening:\n" + server.await(Duration.ofSeconds(1)).describe());
            }
            if (listening(Path.of("/proc/net/tcp"), portHex) || listening(Path.of("/proc/net/tcp6"), portHex)) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        server.close();
        fail("pingpong server did not listen on TCP port " + port + " within " + LISTEN_DEADLINE);
    }

    private static boolean listening(Path procNet, String portHex) {
        try {
            for (String line : Files.readAllLines(procNet)) {
                String[] f = line.trim().split("\\s+");
                // fields: sl local_address rem_address st ...; st 0A = LISTEN
                if (f.length > 3 && (f[1] + " ").endsWith(portHex) && f[3].equals("0A")) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false;   // no IPv6 on this kernel: the IPv4 table decides
        }
        return false;
    }
}
