package io.rdmatrace.softverbs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tshark capture of RoCEv2 traffic on the loopback interface, and its decoding by tshark's
 * own InfiniBand dissector (UDP port 4791 is decoded as RoCEv2 by default). The capture also
 * holds the marker datagrams (UDP port {@value #MARKER_PORT}) that proved it live; decoding and
 * {@link #roceDatagrams} leave them out.
 */
final class RoceCapture implements AutoCloseable {
    private static final Duration START_DEADLINE = Duration.ofSeconds(20);
    private static final Duration DECODE_DEADLINE = Duration.ofSeconds(60);
    private static final Duration SETTLE_MIN = Duration.ofMillis(1000);
    private static final Duration SETTLE_QUIET = Duration.ofMillis(600);
    private static final Duration SETTLE_MAX = Duration.ofSeconds(10);
    /** The discard port: marker datagrams go there, to nobody, while the capture is not yet live. */
    static final int MARKER_PORT = 9;
    /** A pcap file's global header; a file this size holds no packet yet. */
    private static final long PCAP_HEADER_BYTES = 24;
    /** Wireshark's heuristic guesses at what a SEND payload carries (NFS-over-RDMA, EoIB, …); they
     * report pingpong's opaque bytes as malformed, so they are switched off: only RoCE is checked. */
    private static final List<String> PAYLOAD_HEURISTICS = List.of("smc", "smb_direct", "rpcordma", "nvme-rdma",
            "lnet", "iser", "infiniband.eoib", "infiniband_sdp", "fcoib");
    /** _ws.expert.severity of an error (Wireshark's PI_ERROR). */
    static final long EXPERT_ERROR = 0x00800000L;

    /** One packet as tshark decoded it; absent fields are -1 (numbers) or false. */
    record Packet(int frame, String src, String dst, int dstPort, String protocols, int opcode, int destQp, int psn,
                  boolean ackReq, long qkey, int srcQp, int syndrome, boolean malformed, long maxExpertSeverity) {
    }

    private final Path tshark;
    private final Path file;
    private final ChildProcess capture;

    private RoceCapture(Path tshark, Path file, ChildProcess capture) {
        this.tshark = tshark;
        this.file = file;
        this.capture = capture;
    }

    /** Starts capturing UDP 4791 traffic to or from `host`; returns once tshark is capturing. */
    static RoceCapture start(Path workDir, String host) {
        Path tshark = SoftverbsEnv.requireTool("tshark", "tshark");
        Path file = workDir.resolve("roce.pcap");
        ChildProcess p = ChildProcess.start("tshark-capture", List.of(tshark.toString(), "-i", "lo", "-f",
                "udp and host " + host + " and (port 4791 or port " + MARKER_PORT + ")", "-F", "pcap", "-w", file.toString()), Map.of(), workDir);
        long end = System.nanoTime() + START_DEADLINE.toNanos();
        // tshark reports "Capturing on 'Loopback: lo'" on stderr once the capture is running
        while (System.nanoTime() < end && p.isAlive() && !readStderr(workDir).contains("Capturing on")) {
            sleep(50);
        }
        if (!p.isAlive() || !readStderr(workDir).contains("Capturing on")) {
            ChildProcess.Result r = p.terminate(Duration.ofSeconds(5));
            assumeTrue(false, () -> "tshark cannot capture on lo here (needs root or dumpcap capabilities): "
                    + r.describe());
        }
        awaitLive(file, host, end);
        return new RoceCapture(tshark, file, p);
    }

    /**
     * "Capturing on" can come before the kernel hands dumpcap packets (on a loaded machine, the
     * first 16 packets of a run were missing): send marker datagrams until one is in the file, so
     * the capture is known to be live before the run starts.
     */
    private static void awaitLive(Path file, String host, long deadline) {
        try (DatagramSocket socket = new DatagramSocket()) {
            byte[] marker = {0};
            while (file.toFile().length() <= PCAP_HEADER_BYTES && System.nanoTime() < deadline) {
                socket.send(new DatagramPacket(marker, marker.length, InetAddress.getByName(host), MARKER_PORT));
                sleep(100);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (file.toFile().length() <= PCAP_HEADER_BYTES) {
            throw new IllegalStateException("tshark said it was capturing but never wrote a marker datagram to " + file);
        }
    }

    /** The capture's RoCEv2 datagrams (UDP 4791), without the markers. */
    static List<PcapFile.Datagram> roceDatagrams(Path pcap) throws IOException {
        return PcapFile.readUdp(pcap).stream().filter(d -> d.dstPort() == 4791 || d.srcPort() == 4791).toList();
    }

    /** Stops the capture (SIGTERM lets tshark finish the file) and returns the pcap file. */
    Path stop() {
        awaitSettled();
        ChildProcess.Result r = capture.terminate(Duration.ofSeconds(20));
        if (r.timedOut()) {
            throw new IllegalStateException("tshark did not stop: " + r.describe());
        }
        return file;
    }

    /**
     * dumpcap reads the kernel's capture ring a block at a time, and a block is handed over only
     * when full or after its timeout (250 ms in dumpcap); stopping earlier loses the packets of a
     * short run. So wait at least SETTLE_MIN and until the first packet is in the file (a loaded
     * machine delays dumpcap by seconds), then until the file has not grown for SETTLE_QUIET.
     */
    private void awaitSettled() {
        long start = System.nanoTime();
        long lastSize = -1;
        long quietSince = start;
        while (System.nanoTime() - start < SETTLE_MAX.toNanos()) {
            long size = file.toFile().length();
            long now = System.nanoTime();
            if (size != lastSize) {
                lastSize = size;
                quietSince = now;
            } else if (size > PCAP_HEADER_BYTES && now - start >= SETTLE_MIN.toNanos()
                    && now - quietSince >= SETTLE_QUIET.toNanos()) {
                return;
            }
            sleep(100);
        }
    }

    /** tshark's decoding of every packet in the capture. */
    List<Packet> decode() {
        List<String> command = new ArrayList<>(List.of(tshark.toString(), "-r", file.toString(), "-Y", "udp.port == 4791"));
        for (String p : PAYLOAD_HEURISTICS) {
            command.addAll(List.of("--disable-protocol", p));
        }
        command.addAll(List.of("-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,"));
        for (String f : List.of("frame.number", "ip.src", "ip.dst", "udp.dstport", "frame.protocols",
                "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a",
                "infiniband.deth.q_key", "infiniband.deth.srcqp", "infiniband.aeth.syndrome", "_ws.malformed",
                "_ws.expert.severity")) {
            command.addAll(List.of("-e", f));
        }
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("tshark-decode", command, Map.of(), file.getParent())) {
            r = p.await(DECODE_DEADLINE);
        }
        if (r.exitCode() != 0) {
            throw new IllegalStateException("tshark could not read the capture: " + r.describe());
        }
        List<Packet> packets = new ArrayList<>();
        for (String line : r.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            packets.add(new Packet(Integer.parseInt(f[0]), f[1], f[2], num(f[3]), f[4], num(f[5]), num(f[6]),
                    num(f[7]), bool(f[8]), numLong(f[9]), num(f[10]), num(f[11]), !f[12].isEmpty(), maxOf(f[13])));
        }
        return packets;
    }

    @Override
    public void close() {
        capture.close();
    }

    private static int num(String s) {
        return (int) numLong(s);
    }

    private static long numLong(String s) {
        String v = s.contains(",") ? s.substring(0, s.indexOf(',')) : s;
        if (v.isEmpty()) {
            return -1;
        }
        return v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
    }

    private static boolean bool(String s) {
        return s.equals("1") || s.equalsIgnoreCase("true");
    }

    private static long maxOf(String s) {
        long max = 0;
        for (String v : s.split(",")) {
            if (!v.isEmpty()) {
                max = Math.max(max, numLong(v));
            }
        }
        return max;
    }

    private static String readStderr(Path workDir) {
        try {
            Path err = workDir.resolve("tshark-capture.err");
            return Files.exists(err) ? new String(Files.readAllBytes(err), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
