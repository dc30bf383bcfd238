package io.rdmatrace.capture.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.rdmatrace.capture.oob.OobException;
import io.rdmatrace.capture.oob.OobServer;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * The process that replays one host of a two-host trace (each host runs in its own process, as
 * it did when recorded: one softverbs device per process). Started by {@link ReplayRunner}, not
 * by people; its arguments are {@code --name value} pairs. A listening host prints
 * {@value #PORT_LINE}{@code <port>} once bound; the report goes to the {@code --report} file as JSON.
 * Exit 0 when the report was written, 2 on bad arguments or an unreadable recording.
 */
public final class ReplayHostMain {
    static final String PORT_LINE = "oob-port ";

    private ReplayHostMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    static int run(String[] args, PrintStream out) {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                out.println("replay host: unexpected argument " + args[i]);
                return 2;
            }
            a.put(args[i].substring(2), args[i + 1]);
        }
        for (String required : new String[] {"recording", "out", "report", "library-kind", "library-location", "role"}) {
            if (!a.containsKey(required)) {
                out.println("replay host: missing --" + required);
                return 2;
            }
        }
        TraceReader.Result recording;
        try {
            recording = TraceReader.readAll(Path.of(a.get("recording")));
        } catch (TraceException e) {
            out.println("replay host: " + e.getMessage());
            return 2;
        }
        OobReplay.Link link;
        try {
            link = link(a.get("role"), out);
        } catch (OobException | IllegalArgumentException e) {
            out.println("replay host: " + e.getMessage());
            return 2;
        }
        VerbsLibrary library = new VerbsLibrary(VerbsLibrary.Kind.valueOf(a.get("library-kind")), a.get("library-location"));
        HostReplayConfig config = new HostReplayConfig(recording, library, a.get("soft-spec"),
                Boolean.parseBoolean(a.getOrDefault("reference", "false")), link, Path.of(a.get("out")),
                Duration.ofMillis(Long.parseLong(a.getOrDefault("completion-wait-ms", "5000"))),
                Duration.ofMillis(Long.parseLong(a.getOrDefault("message-wait-ms", "30000"))),
                a.getOrDefault("tool-version", "unknown"), a.getOrDefault("command-line", "rdmatrace replay"));
        HostReplayReport report = new HostReplay(config).run();
        try {
            Files.writeString(Path.of(a.get("report")), ReportJson.write(report));
        } catch (IOException e) {
            out.println("replay host: cannot write the report: " + e.getMessage());
            return 2;
        }
        out.println("replay host: " + report.host() + " done, " + report.divergences().size() + " divergence(s)");
        return 0;
    }

    /** "listen" (binds 127.0.0.1 on a free port and says which), "connect:HOST:PORT" or "none". */
    private static OobReplay.Link link(String role, PrintStream out) throws OobException {
        if (role.equals("none")) {
            return null;
        }
        if (role.equals("listen")) {
            OobServer server = OobServer.bind(new InetSocketAddress("127.0.0.1", 0));
            out.println(PORT_LINE + server.port());
            out.flush();
            return new OobReplay.Listen(server);
        }
        if (role.startsWith("connect:")) {
            String target = role.substring("connect:".length());
            int colon = target.lastIndexOf(':');
            return new OobReplay.Connect(new InetSocketAddress(target.substring(0, colon),
                    Integer.parseInt(target.substring(colon + 1))));
        }
        throw new IllegalArgumentException("--role must be listen, connect:HOST:PORT or none, got " + role);
    }
}
