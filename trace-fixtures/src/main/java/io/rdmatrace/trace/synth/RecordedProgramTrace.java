package io.rdmatrace.trace.synth;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes what {@code rdmatrace record} makes of an unmodified ibv_rc_pingpong-style program run
 * on several hosts: a SESSION of origin RECORD per process, the program's verbs calls, polls and
 * completions, and no OOB or MARK events (the program's own TCP exchange of QPN, PSN and GID is
 * invisible). Each connection is one RC QP per end; the client sends, the server answers, for
 * {@link Spec#rounds()} rounds. Time is simulated (20 µs per wire hop) and each host's wall clock
 * can be skewed, so an analyzer's clock estimate can be checked against the truth.
 *
 * <p>QP numbers start at 0x11 on every machine, as on separate devices, so QPNs alone do not tell
 * which QPs are connected: the GIDs in each address vector do. Processes of one machine (host ids
 * {@code node07.4242}, {@code node07.4243}) share its device: its GIDs and one QPN space. An optional {@link Fault} makes
 * the client end of the first connection wrong the way a buggy program would; its first send then
 * fails with IBV_WC_RETRY_EXC_ERR and that connection carries no traffic.
 */
public final class RecordedProgramTrace {

    /** A program mistake on the client end of the first connection. */
    public enum Fault {
        NONE,
        /** the client's path MTU is 4096 while the server's is 1024 (9000-byte links: both ports allow 4096) */
        MTU_MISMATCH,
        /** the client addresses from GID index 0, the link-local RoCE v1 GID (the right one is index 1) */
        GID_INDEX,
        /** the client tells its peer one PSN and starts sending from the next one */
        PSN_MISMATCH,
        /** the client programs dest_qp_num with a QPN that is not its peer's */
        DEST_QPN
    }

    /** One RC connection: {@code client} sends first, {@code server} answers. */
    public record Connection(String client, String server) {
        public Connection {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(server, "server");
            if (client.equals(server)) {
                throw new IllegalArgumentException("a connection needs two hosts");
            }
        }
    }

    /**
     * @param outDir     output folder; one host folder per entry of {@code hosts}
     * @param hosts      host ids (folder names such as {@code hostA} or {@code hostA.4242})
     * @param links      the connections (each host in at least one)
     * @param rounds     message exchanges per connection (≥ 1)
     * @param clockSkew  host → how far its wall clock runs ahead of the true time, ns (absent: 0)
     * @param fault      a mistake in the client end of the first connection
     */
    public record Spec(Path outDir, List<String> hosts, List<Connection> links, int rounds, Map<String, Long> clockSkew,
                       Fault fault) {
        public Spec {
            Objects.requireNonNull(outDir, "outDir");
            Objects.requireNonNull(fault, "fault");
            hosts = List.copyOf(hosts);
            links = List.copyOf(links);
            clockSkew = Map.copyOf(clockSkew);
            if (hosts.size() < 2 || links.isEmpty() || rounds < 1) {
                throw new IllegalArgumentException("need ≥ 2 hosts, ≥ 1 connection and ≥ 1 round");
            }
            for (Connection c : links) {
                if (!hosts.contains(c.client()) || !hosts.contains(c.server())) {
                    throw new IllegalArgumentException("connection " + c + " names an unknown host");
                }
            }
        }

        /** hostA (server) and hostB (client), one connection, hostB's clock {@code skewNanos} ahead. */
        public static Spec pair(Path outDir, int rounds, long skewNanos) {
            return new Spec(outDir, List.of("hostA", "hostB"), List.of(new Connection("hostB", "hostA")), rounds,
                    Map.of("hostB", skewNanos), Fault.NONE);
        }

        public Spec withFault(Fault f) {
            return new Spec(outDir, hosts, links, rounds, clockSkew, f);
        }
    }

    /** Wall-clock time of the simulation's start (true time). */
    public static final long START_WALL_NS = 1_764_547_200_000_000_000L;
    static final long HOP_NS = 20_000;
    static final long CALL_NS = 1_000;
    static final int MESSAGE_BYTES = 4096;
    static final int MTU_1024 = 3;
    static final int MTU_4096 = 5;
    static final int GOOD_GID_INDEX = 1;

    private final Spec spec;
    private final Map<String, Proc> procs = new LinkedHashMap<>();
    private final List<Step> steps = new ArrayList<>();
    private final Map<Integer, Integer> machineQps = new LinkedHashMap<>();
    private long now;
    private int order;

    private RecordedProgramTrace(Spec spec) {
        this.spec = spec;
    }

    /** Writes every host's trace and returns the resulting set. */
    public static TraceSet write(Spec spec) throws TraceException {
        new RecordedProgramTrace(spec).run();
        return TraceSet.discover(spec.outDir());
    }

    private void run() throws TraceException {
        int index = 0;
        Map<String, Integer> machines = new LinkedHashMap<>();
        for (String host : spec.hosts()) {
            int machine = machines.computeIfAbsent(machineOf(host), m -> machines.size());
            procs.put(host, new Proc(host, index++, machine));
        }
        for (int i = 0; i < spec.links().size(); i++) {
            Connection c = spec.links().get(i);
            QpEnd client = procs.get(c.client()).addQp();
            QpEnd server = procs.get(c.server()).addQp();
            client.peer = server;
            server.peer = client;
            if (i == 0) {
                client.fault = spec.fault();
            }
        }
        List<TraceWriter> writers = new ArrayList<>();
        try {
            for (Proc p : procs.values()) {
                long skew = spec.clockSkew().getOrDefault(p.host, 0L);
                p.w = TraceWriter.create(spec.outDir(), p.session(), 4000 + p.index, () -> now, START_WALL_NS + skew);
                writers.add(p.w);
            }
            schedule();
            steps.sort(Comparator.comparingLong(Step::time).thenComparingInt(Step::order));
            for (Step s : steps) {
                now = s.time();
                s.action().run();
            }
        } finally {
            for (TraceWriter w : writers) {
                w.close();
            }
        }
    }

    private record Step(long time, int order, Runnable action) {
    }

    /** The machine a recorded process runs on: its host id up to a ".PID" suffix ({@code node07.4242}). */
    static String machineOf(String host) {
        int dot = host.indexOf('.');
        return dot > 0 ? host.substring(0, dot) : host;
    }

    private void at(long time, Runnable action) {
        steps.add(new Step(time, order++, action));
    }

    private void schedule() {
        long t = 1_000_000;
        for (Proc p : procs.values()) {
            long s = t + p.index * 50_000L;
            at(s, p::openAndQuery);
            for (QpEnd q : p.qps) {
                at(s + 10_000, () -> p.createAndInit(q));
            }
        }
        // the program's own exchange happens here, invisible; then each end connects (each phase
        // starts after the last process finished the one before, however many there are)
        long n = procs.size();
        t += 5_000_000 + n * 50_000L;
        for (Proc p : procs.values()) {
            for (QpEnd q : p.qps) {
                at(t + p.index * 30_000L, () -> p.connect(q));
            }
        }
        t += 5_000_000 + n * 30_000L;
        for (Connection c : spec.links()) {
            QpEnd client = null;
            for (QpEnd q : procs.get(c.client()).qps) {
                if (q.peer.proc.host.equals(c.server()) && client == null && !q.scheduled) {
                    client = q;
                }
            }
            client.scheduled = true;
            t = client.fault != Fault.NONE ? failedSend(client, t) : pingpong(client, t);
        }
        t += 5_000_000;
        for (Proc p : procs.values()) {
            at(t + p.index * 10_000L, p::teardown);
        }
    }

    private long pingpong(QpEnd c, long t) {
        QpEnd s = c.peer;
        for (int r = 0; r < spec.rounds(); r++) {
            long wrC = 1000 + r;
            long wrS = 2000 + r;
            at(t, () -> c.proc.postSend(c, wrC));
            at(t + HOP_NS + 2 * CALL_NS, () -> s.proc.pollRecv(s, MESSAGE_BYTES));
            at(t + HOP_NS + 3 * CALL_NS, () -> s.proc.postRecv(s, 1));
            at(t + HOP_NS + 4 * CALL_NS, () -> s.proc.postSend(s, wrS));
            at(t + 2 * HOP_NS + CALL_NS, () -> c.proc.pollSend(c, wrC, 0));
            at(t + 2 * HOP_NS + 6 * CALL_NS, () -> c.proc.pollRecv(c, MESSAGE_BYTES));
            at(t + 2 * HOP_NS + 7 * CALL_NS, () -> c.proc.postRecv(c, 1));
            at(t + 3 * HOP_NS + 6 * CALL_NS, () -> s.proc.pollSend(s, wrS, 0));
            t += 3 * HOP_NS + 20 * CALL_NS;
        }
        return t + 100_000;
    }

    private long failedSend(QpEnd c, long t) {
        at(t, () -> c.proc.postSend(c, 1000));
        long giveUp = t + 50_000_000; // retry_cnt x local ACK timeout
        at(giveUp, () -> c.proc.pollSend(c, 1000, 12)); // IBV_WC_RETRY_EXC_ERR
        return giveUp + 1_000_000;
    }

    /** One end of a connection. */
    private static final class QpEnd {
        Proc proc;
        QpEnd peer;
        Fault fault = Fault.NONE;
        boolean scheduled;
        long handle;
        long cq;
        int qpn;
        long psn;
        final Deque<Long> recvs = new ArrayDeque<>();
        long nextRecvId = 1;

        /** What the program tells its peer: QPN, PSN and the GID at its index. */
        int advertisedQpn() {
            return qpn;
        }

        long sqPsn() {
            return fault == Fault.PSN_MISMATCH ? (psn + 1) & 0xFFFFFF : psn;
        }

        int gidIndex() {
            return fault == Fault.GID_INDEX ? 0 : GOOD_GID_INDEX;
        }

        String gid() {
            return proc.gidAt(gidIndex());
        }

        int pathMtu() {
            return fault == Fault.MTU_MISMATCH ? MTU_4096 : MTU_1024;
        }

        long destQpn() {
            return fault == Fault.DEST_QPN ? peer.advertisedQpn() + 0x100 : peer.advertisedQpn();
        }
    }

    /** One recorded process. */
    private final class Proc {
        final String host;
        final int index;
        /** the machine's index: processes on one machine share its device, GIDs and QPN space */
        final int machine;
        final long base;
        final long context;
        final long pd;
        final long mr;
        final long mrAddr;
        final long lkey;
        final List<QpEnd> qps = new ArrayList<>();
        TraceWriter w;

        Proc(String host, int index, int machine) {
            this.host = host;
            this.index = index;
            this.machine = machine;
            this.base = 0x5600_0000_0000L + ((long) index << 32);
            this.context = base + 0x10;
            this.pd = base + 0x100;
            this.mr = base + 0x200;
            this.mrAddr = 0x7f00_0000_0000L + ((long) index << 36);
            this.lkey = 0x100 + index;
        }

        QpEnd addQp() {
            QpEnd q = new QpEnd();
            int i = qps.size();
            q.proc = this;
            q.handle = base + 0x20_0000L + i * 0x400L;
            q.cq = base + 0x10_0000L + i * 0x200L;
            q.qpn = 0x11 + machineQps.merge(machine, 1, Integer::sum) - 1;
            q.psn = (0x1234 * (index + 1) + 0x777 * i) & 0xFFFFFF;
            qps.add(q);
            return q;
        }

        String gidAt(int i) {
            int n = machine + 1;
            return i == 0 ? "fe80::" + Integer.toHexString(0xa0 + machine)
                    : "::ffff:10." + (n >> 16 & 0xff) + "." + (n >> 8 & 0xff) + "." + (n & 0xff);
        }

        SessionInfo session() {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("pid", Integer.toString(4000 + index));
            env.put("data-path", "full");
            return new SessionInfo("synthetic", host, "ibv_rc_pingpong -g " + GOOD_GID_INDEX + " -s " + MESSAGE_BYTES,
                    "softverbs (synthetic)", SessionInfo.PROGRAM_SCENARIO, env, device(), List.of(port()),
                    List.of(new GidEntry(1, 0, gidAt(0), 0), new GidEntry(1, 1, gidAt(1), 2)));
        }

        Attrs device() {
            long nodeGuid = 0x5600_0000_0000L + ((long) machine << 32);
            return Attrs.builder().put(Attr.DEV_NAME, "sv" + machine).put(Attr.FW_VER, "0.1.0").put(Attr.NODE_GUID, nodeGuid)
                    .put(Attr.VENDOR_ID, 0x1bad).put(Attr.VENDOR_PART_ID, 1).put(Attr.MAX_QP, 4096)
                    .put(Attr.MAX_QP_WR, 16384).put(Attr.MAX_SGE, 32).put(Attr.MAX_CQ, 4096).put(Attr.MAX_CQE, 65536)
                    .put(Attr.PHYS_PORT_CNT, 1).put(Attr.MAX_PKEYS, 1).build();
        }

        Attrs port() {
            return Attrs.builder().put(Attr.PORT_NUM, 1).put(Attr.PORT_STATE, 4).put(Attr.MAX_MTU, MTU_4096)
                    .put(Attr.ACTIVE_MTU, MTU_4096).put(Attr.GID_TBL_LEN, 2).put(Attr.PKEY_TBL_LEN, 1).put(Attr.LID, 0)
                    .put(Attr.LINK_LAYER, 2).build();
        }

        void call(Verb verb, long handle, int ret, Attrs in, Attrs out) {
            w.call(verb, handle, ret, 0, CALL_NS, in, out);
        }

        void openAndQuery() {
            call(Verb.IBV_GET_DEVICE_LIST, 0, 0, Attrs.EMPTY, Attrs.builder().put(Attr.NUM_DEVICES, 1).build());
            call(Verb.IBV_OPEN_DEVICE, context, 0, Attrs.builder().put(Attr.DEV_NAME, "sv" + machine).build(), Attrs.EMPTY);
            call(Verb.IBV_QUERY_PORT, context, 0, Attrs.builder().put(Attr.PORT_NUM, 1).build(), port());
            call(Verb.IBV_ALLOC_PD, pd, 0, Attrs.builder().put(Attr.CONTEXT, context).build(), Attrs.EMPTY);
            call(Verb.IBV_REG_MR, mr, 0, Attrs.builder().put(Attr.PD, pd).put(Attr.ADDR, mrAddr)
                    .put(Attr.LENGTH, 2 * MESSAGE_BYTES).put(Attr.ACCESS, 1).build(),
                    Attrs.builder().put(Attr.LKEY, lkey).put(Attr.RKEY, lkey).build());
        }

        void createAndInit(QpEnd q) {
            call(Verb.IBV_CREATE_CQ, q.cq, 0, Attrs.builder().put(Attr.CONTEXT, context).put(Attr.CQE, 501)
                    .put(Attr.COMP_VECTOR, 0).build(), Attrs.builder().put(Attr.CQE, 511).build());
            Attrs caps = Attrs.builder().put(Attr.MAX_SEND_WR, 1).put(Attr.MAX_RECV_WR, 500).put(Attr.MAX_SEND_SGE, 1)
                    .put(Attr.MAX_RECV_SGE, 1).put(Attr.MAX_INLINE_DATA, 0).build();
            call(Verb.IBV_CREATE_QP, q.handle, 0, caps.toBuilder().put(Attr.PD, pd).put(Attr.SEND_CQ, q.cq)
                    .put(Attr.RECV_CQ, q.cq).put(Attr.QP_TYPE, 2).put(Attr.SQ_SIG_ALL, false).build(),
                    caps.toBuilder().put(Attr.QP_NUM, q.qpn).build());
            call(Verb.IBV_QUERY_GID, context, 0, Attrs.builder().put(Attr.PORT_NUM, 1).put(Attr.GID_INDEX, q.gidIndex()).build(),
                    Attrs.builder().put(Attr.GID, q.gid()).build());
            modify(q, 1, Attrs.builder().put(Attr.ATTR_MASK, 0x39).put(Attr.PKEY_INDEX, 0).put(Attr.PORT_NUM, 1)
                    .put(Attr.QP_ACCESS_FLAGS, 0), Attrs.builder());
            postRecv(q, 2); // a chain of two receives
        }

        void connect(QpEnd q) {
            QpEnd p = q.peer;
            modify(q, 2, Attrs.builder().put(Attr.ATTR_MASK, 0x129181).put(Attr.PATH_MTU, q.pathMtu())
                    .put(Attr.DEST_QP_NUM, q.destQpn()).put(Attr.RQ_PSN, p.psn).put(Attr.MAX_DEST_RD_ATOMIC, 1)
                    .put(Attr.MIN_RNR_TIMER, 12).put(Attr.DLID, 0).put(Attr.SL, 0).put(Attr.SRC_PATH_BITS, 0)
                    .put(Attr.IS_GLOBAL, true).put(Attr.AH_PORT_NUM, 1).put(Attr.DGID, p.gid())
                    .put(Attr.SGID_INDEX, q.gidIndex()).put(Attr.HOP_LIMIT, 1),
                    Attrs.builder().put(Attr.PATH_MTU, q.pathMtu()).put(Attr.DEST_QP_NUM, q.destQpn())
                            .put(Attr.RQ_PSN, p.psn).put(Attr.DGID, p.gid()).put(Attr.SGID_INDEX, q.gidIndex())
                            .put(Attr.IS_GLOBAL, true));
            modify(q, 3, Attrs.builder().put(Attr.ATTR_MASK, 0x12E01).put(Attr.TIMEOUT, 14).put(Attr.RETRY_CNT, 7)
                    .put(Attr.RNR_RETRY, 7).put(Attr.SQ_PSN, q.sqPsn()).put(Attr.MAX_RD_ATOMIC, 1),
                    Attrs.builder().put(Attr.PATH_MTU, q.pathMtu()).put(Attr.DEST_QP_NUM, q.destQpn())
                            .put(Attr.RQ_PSN, p.psn).put(Attr.SQ_PSN, q.sqPsn()).put(Attr.TIMEOUT, 14)
                            .put(Attr.RETRY_CNT, 7).put(Attr.RNR_RETRY, 7));
        }

        /** A successful modify, then the query the recorder makes after it (answering what was set). */
        private void modify(QpEnd q, int state, Attrs.Builder in, Attrs.Builder got) {
            call(Verb.IBV_MODIFY_QP, q.handle, 0, in.put(Attr.QP_NUM, q.qpn).put(Attr.QP_STATE, state).build(), Attrs.EMPTY);
            call(Verb.IBV_QUERY_QP, q.handle, 0, Attrs.builder().put(Attr.QP_NUM, q.qpn).put(Attr.ATTR_MASK, 0x1FFFFF).build(),
                    got.put(Attr.QP_STATE, state).put(Attr.CUR_QP_STATE, state).put(Attr.QP_NUM, q.qpn)
                            .put(Attr.PORT_NUM, 1).put(Attr.PKEY_INDEX, 0).put(Attr.QP_ACCESS_FLAGS, 0).build());
        }

        void postRecv(QpEnd q, int count) {
            List<WorkRequest> chain = new ArrayList<>();
            long first = q.nextRecvId;
            for (int i = 0; i < count; i++) {
                long id = q.nextRecvId++;
                q.recvs.add(id);
                chain.add(new WorkRequest(Attrs.builder().put(Attr.WR_ID, id).build(),
                        List.of(new WorkRequest.Sge(mrAddr, MESSAGE_BYTES, lkey))));
            }
            Attrs in = Attrs.builder().put(Attr.ADDR, mrAddr).put(Attr.LENGTH, MESSAGE_BYTES).put(Attr.LKEY, lkey)
                    .put(Attr.QP_NUM, q.qpn).put(Attr.WR_ID, first).put(Attr.NUM_SGE, 1).put(Attr.WR_COUNT, count).build();
            w.call(Verb.IBV_POST_RECV, q.handle, 0, 0, CALL_NS, in, Attrs.EMPTY, count > 1 ? chain : List.of());
        }

        void postSend(QpEnd q, long wrId) {
            call(Verb.IBV_POST_SEND, q.handle, 0, Attrs.builder().put(Attr.ADDR, mrAddr + MESSAGE_BYTES)
                    .put(Attr.LENGTH, MESSAGE_BYTES).put(Attr.LKEY, lkey).put(Attr.QP_NUM, q.qpn).put(Attr.WR_ID, wrId)
                    .put(Attr.WR_OPCODE, 2).put(Attr.SEND_FLAGS, 2).put(Attr.NUM_SGE, 1).put(Attr.WR_COUNT, 1).build(),
                    Attrs.EMPTY);
        }

        void pollRecv(QpEnd q, long byteLen) {
            long wrId = q.recvs.isEmpty() ? 0 : q.recvs.poll();
            poll(q, new Wc(wrId, 0, 128, 0, byteLen, 0, q.qpn, 0, 0, 0, 0, 0, 0));
        }

        void pollSend(QpEnd q, long wrId, int status) {
            poll(q, new Wc(wrId, status, 0, status == 0 ? 0 : 0x81, 0, 0, q.qpn, 0, 0, 0, 0, 0, 0));
        }

        private void poll(QpEnd q, Wc wc) {
            call(Verb.IBV_POLL_CQ, q.cq, 1, Attrs.builder().put(Attr.NUM_ENTRIES, 2).build(),
                    Attrs.builder().put(Attr.POLLED, 1).build());
            w.completion(q.cq, wc);
        }

        void teardown() {
            for (QpEnd q : qps) {
                call(Verb.IBV_DESTROY_QP, q.handle, 0, Attrs.builder().put(Attr.QP_NUM, q.qpn).build(), Attrs.EMPTY);
                call(Verb.IBV_DESTROY_CQ, q.cq, 0, Attrs.EMPTY, Attrs.EMPTY);
            }
            call(Verb.IBV_DEREG_MR, mr, 0, Attrs.EMPTY, Attrs.EMPTY);
            call(Verb.IBV_DEALLOC_PD, pd, 0, Attrs.EMPTY, Attrs.EMPTY);
            call(Verb.IBV_CLOSE_DEVICE, context, 0, Attrs.EMPTY, Attrs.EMPTY);
        }
    }
}
