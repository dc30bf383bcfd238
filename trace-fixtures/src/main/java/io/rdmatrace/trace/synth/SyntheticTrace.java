package io.rdmatrace.trace.synth;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CountersEvent;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.model.MarkEvent.Verdict;
import io.rdmatrace.trace.model.OobEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.model.Wc;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Writes a plausible two-host RC bring-up trace without any RDMA device: resources (TC01), the
 * illegal RESET→RTS probe (TC02), the out-of-band exchange and INIT→RTR→RTS with a query after
 * each modify (TC03), then SEND traffic both ways with polls and completions (TC04). The two
 * hosts' values agree the way a real capture's do (one side's advertised PSN is the other's
 * rq_psn, QPNs cross over), so correlation rules can run on it. An optional {@link Fault}
 * makes one side wrong on purpose.
 *
 * <p>For tests and benchmarks of consumers (analyzer, printers); real traces come from
 * {@code rdmatrace capture}. {@link RecordedProgramTrace} writes the other kind: recorded
 * programs without out-of-band or step events, on any number of hosts with skewed clocks. Deterministic for a given
 * {@link Spec}, except for timestamps ({@link #writeSimulated} fixes those too).
 */
public final class SyntheticTrace {

    /** A mistake to bake into host B's side. */
    public enum Fault {
        NONE,
        /** B advertises its PSN off by one: B's SENDs end in IBV_WC_RETRY_EXC_ERR, later ones flushed */
        PSN_OFF_BY_ONE,
        /** B moves to RTR with path MTU 4096 while A uses 1024 */
        MTU_MISMATCH
    }

    /**
     * @param outDir     output folder; host folders are created under it
     * @param hostA      host id of the listening side
     * @param hostB      host id of the connecting side
     * @param qpPairs    connections (≥ 1)
     * @param dataEvents data-path events per host (post/poll/completion), rounded down to a multiple of 6
     * @param seed       seeds PSNs and handles
     */
    public record Spec(Path outDir, String hostA, String hostB, int qpPairs, int dataEvents, long seed, Fault fault) {
        public Spec {
            Objects.requireNonNull(outDir, "outDir");
            Objects.requireNonNull(hostA, "hostA");
            Objects.requireNonNull(hostB, "hostB");
            Objects.requireNonNull(fault, "fault");
            if (qpPairs < 1 || dataEvents < 0) {
                throw new IllegalArgumentException("qpPairs must be ≥ 1 and dataEvents ≥ 0");
            }
        }

        /** Hosts "host-a"/"host-b", no fault, seed 1. */
        public static Spec of(Path outDir, int qpPairs, int dataEvents) {
            return new Spec(outDir, "host-a", "host-b", qpPairs, dataEvents, 1, Fault.NONE);
        }

        public Spec withFault(Fault f) {
            return new Spec(outDir, hostA, hostB, qpPairs, dataEvents, seed, f);
        }
    }

    private static final int PORT = 1;
    private static final int GID_INDEX = 1;
    private static final int MTU_1024 = 3;
    private static final int MTU_4096 = 5;
    private static final long MR_LENGTH = 4096;
    private static final int QP_TYPE_RC = 2;
    private static final int ACCESS_LRW = 0x7; // LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ

    private SyntheticTrace() {
    }

    /** Writes both hosts, stamped with the real clocks, and returns the resulting set. */
    public static TraceSet write(Spec spec) throws TraceException {
        return write(spec, null, -1);
    }

    /**
     * Writes both hosts with simulated time: every event is {@link #SIMULATED_STEP_NS} after the one
     * before it (on either host), the first at {@code wallNanosAtStart}. The traces are then the same
     * bytes' worth of events on every run, for pages and pictures made from them (docs/).
     */
    public static TraceSet writeSimulated(Spec spec, long wallNanosAtStart) throws TraceException {
        long[] now = {0};
        return write(spec, () -> now[0] += SIMULATED_STEP_NS, wallNanosAtStart);
    }

    /** The simulated time between two consecutive events of {@link #writeSimulated}. */
    public static final long SIMULATED_STEP_NS = 1_000;

    private static TraceSet write(Spec spec, LongSupplier clock, long wallNanosAtStart) throws TraceException {
        SplittableRandom rnd = new SplittableRandom(spec.seed());
        Host a = new Host(spec, spec.hostA(), 0, "127.0.0.1", rnd);
        Host b = new Host(spec, spec.hostB(), 1, "127.0.0.2", rnd);
        try (TraceWriter wa = open(spec, a, clock, wallNanosAtStart);
             TraceWriter wb = open(spec, b, clock, wallNanosAtStart)) {
            a.w = wa;
            b.w = wb;
            for (Host h : List.of(a, b)) {
                h.counters(CountersEvent.Phase.START);
                h.openDevice();
                h.createResources();
            }
            for (Host h : List.of(a, b)) {
                h.illegalTransitionProbe();
            }
            exchangeAndConnect(spec, a, b);
            traffic(spec, a, b);
            for (Host h : List.of(a, b)) {
                h.counters(CountersEvent.Phase.END);
            }
        }
        return TraceSet.discover(spec.outDir());
    }

    private static TraceWriter open(Spec spec, Host h, LongSupplier clock, long wallNanosAtStart)
            throws TraceException {
        return clock == null ? TraceWriter.create(spec.outDir(), h.session())
                : TraceWriter.create(spec.outDir(), h.session(), 1000 + h.index, clock, wallNanosAtStart);
    }

    private static void exchangeAndConnect(Spec spec, Host a, Host b) {
        a.w.mark("TC03", Verdict.INFO, "out-of-band exchange and INIT->RTR->RTS");
        b.w.mark("TC03", Verdict.INFO, "out-of-band exchange and INIT->RTR->RTS");
        Attrs hello = Attrs.builder().put(Attr.OOB_VERSION, 1).put(Attr.AUTHENTICATED, false).build();
        b.w.oob(OobEvent.Direction.SENT, a.endpoint, OobEvent.Kind.HELLO, hello);
        a.w.oob(OobEvent.Direction.RECEIVED, b.endpoint, OobEvent.Kind.HELLO, hello);
        a.w.oob(OobEvent.Direction.SENT, b.endpoint, OobEvent.Kind.HELLO, hello);
        b.w.oob(OobEvent.Direction.RECEIVED, a.endpoint, OobEvent.Kind.HELLO, hello);
        for (int i = 0; i < spec.qpPairs(); i++) {
            long advertisedB = spec.fault() == Fault.PSN_OFF_BY_ONE ? (b.psn[i] + 1) & 0xFFFFFF : b.psn[i];
            Attrs pa = a.params(i, a.psn[i]);
            Attrs pb = b.params(i, advertisedB);
            a.w.oob(OobEvent.Direction.SENT, b.endpoint, OobEvent.Kind.PARAMS, pa);
            b.w.oob(OobEvent.Direction.RECEIVED, a.endpoint, OobEvent.Kind.PARAMS, pa);
            b.w.oob(OobEvent.Direction.SENT, a.endpoint, OobEvent.Kind.PARAMS, pb);
            a.w.oob(OobEvent.Direction.RECEIVED, b.endpoint, OobEvent.Kind.PARAMS, pb);
        }
        for (int i = 0; i < spec.qpPairs(); i++) {
            int mtuB = spec.fault() == Fault.MTU_MISMATCH ? MTU_4096 : MTU_1024;
            long advertisedB = spec.fault() == Fault.PSN_OFF_BY_ONE ? (b.psn[i] + 1) & 0xFFFFFF : b.psn[i];
            a.connect(i, b, advertisedB, MTU_1024);
            b.connect(i, a, a.psn[i], mtuB);
        }
        Attrs barrier = Attrs.EMPTY;
        for (Host[] pair : new Host[][] {{a, b}, {b, a}}) {
            pair[0].w.oob(OobEvent.Direction.SENT, pair[1].endpoint, OobEvent.Kind.BARRIER, barrier);
            pair[1].w.oob(OobEvent.Direction.RECEIVED, pair[0].endpoint, OobEvent.Kind.BARRIER, barrier);
        }
        a.w.mark("TC03", Verdict.PASS, "all QPs in RTS on both ends");
        b.w.mark("TC03", Verdict.PASS, "all QPs in RTS on both ends");
    }

    private static void traffic(Spec spec, Host a, Host b) {
        a.w.mark("TC04", Verdict.INFO, "SEND each way with pattern check");
        b.w.mark("TC04", Verdict.INFO, "SEND each way with pattern check");
        int rounds = spec.dataEvents() / 6;
        // B told A a PSN one too high: A's responder treats B's packets as duplicates, B's SENDs
        // exhaust their retries (first one per QP), later ones are flushed; A receives nothing.
        boolean bSendsFail = spec.fault() == Fault.PSN_OFF_BY_ONE;
        for (int r = 0; r < rounds; r++) {
            int qp = r % spec.qpPairs();
            long wrId = r;
            // per host: post_recv, post_send, poll + completion of its send, poll + completion of its receive
            a.postRecv(qp, wrId);
            b.postRecv(qp, wrId);
            a.postSend(qp, wrId);
            b.postSend(qp, wrId);
            a.pollOne(qp, wrId, 0, 0, MR_LENGTH);
            int bStatus = bSendsFail ? (r < spec.qpPairs() ? 12 : 5) : 0; // RETRY_EXC_ERR, then WR_FLUSH_ERR
            b.pollOne(qp, wrId, bStatus, 0, 0);
            b.pollOne(qp, wrId, 0, 128, MR_LENGTH);
            if (bSendsFail) {
                a.pollNone(qp);
            } else {
                a.pollOne(qp, wrId, 0, 128, MR_LENGTH);
            }
        }
        a.w.mark("TC04", bSendsFail ? Verdict.FAIL : Verdict.PASS,
                bSendsFail ? "no data received from the peer" : "data verified both ways");
        b.w.mark("TC04", bSendsFail ? Verdict.FAIL : Verdict.PASS,
                bSendsFail ? "send completed with IBV_WC_RETRY_EXC_ERR" : "data verified both ways");
    }

    /** One simulated host: its handles, QPNs, PSNs and its writer. */
    private static final class Host {
        final Spec spec;
        final String id;
        final String ip;
        final String endpoint;
        final String gid;
        final long base;
        final long context;
        final long pd;
        final long mr;
        final long mrAddr;
        final long rkey;
        final long[] cq;
        final long[] qp;
        final int[] qpn;
        final long[] psn;
        /** what ibv_query_qp reports per QP: state, and the RTR values once set */
        final int[] state;
        final long[] destQpn;
        final long[] rqPsn;
        final int[] pathMtu;
        /** 0 for host A, 1 for host B */
        final int index;
        TraceWriter w;

        Host(Spec spec, String id, int index, String ip, SplittableRandom rnd) {
            this.spec = spec;
            this.index = index;
            this.id = id;
            this.ip = ip;
            this.endpoint = ip + ":18515";
            this.gid = "::ffff:" + ip;
            this.base = 0x5600_0000_0000L + ((long) index << 32) + (rnd.nextLong(1 << 20) << 12);
            this.context = base + 0x10;
            this.pd = base + 0x100;
            this.mr = base + 0x200;
            this.mrAddr = 0x7f00_0000_0000L + ((long) index << 36) + (rnd.nextLong(1 << 16) << 12);
            this.rkey = 0x1000 + index * 0x100 + rnd.nextInt(0x100);
            int n = spec.qpPairs();
            cq = new long[n];
            qp = new long[n];
            qpn = new int[n];
            psn = new long[n];
            state = new int[n];
            destQpn = new long[n];
            rqPsn = new long[n];
            pathMtu = new int[n];
            for (int i = 0; i < n; i++) {
                cq[i] = base + 0x10_0000L + i * 0x200L;
                qp[i] = base + 0x20_0000L + i * 0x400L;
                qpn[i] = 0x11 + index * 0x10_0000 + i;
                psn[i] = rnd.nextLong(1 << 24);
            }
        }

        SessionInfo session() {
            Map<String, String> overrides = new LinkedHashMap<>();
            if (spec.fault() == Fault.PSN_OFF_BY_ONE && id.equals(spec.hostB())) {
                overrides.put("--advertise-psn", "+1");
            }
            if (spec.fault() == Fault.MTU_MISMATCH && id.equals(spec.hostB())) {
                overrides.put("--path-mtu", "4096");
            }
            String role = id.equals(spec.hostA()) ? "--listen 18515" : "--connect 127.0.0.1:18515";
            return new SessionInfo("synthetic", id, "rdmatrace capture --soft " + role + " --qps " + spec.qpPairs(),
                    "softverbs (synthetic)", "tc01-tc04", overrides, deviceAttrs(), List.of(portAttrs()),
                    List.of(new GidEntry(PORT, 0, "fe80::" + (id.equals(spec.hostA()) ? "1" : "2"), 0),
                            new GidEntry(PORT, GID_INDEX, gid, 2)));
        }

        Attrs deviceAttrs() {
            return Attrs.builder().put(Attr.DEV_NAME, "sv-" + id).put(Attr.FW_VER, "0.1.0")
                    .put(Attr.NODE_GUID, base).put(Attr.SYS_IMAGE_GUID, base).put(Attr.VENDOR_ID, 0x1bad)
                    .put(Attr.VENDOR_PART_ID, 1).put(Attr.HW_VER, 0).put(Attr.MAX_QP, 4096).put(Attr.MAX_QP_WR, 16384)
                    .put(Attr.MAX_SGE, 32).put(Attr.MAX_CQ, 4096).put(Attr.MAX_CQE, 65536).put(Attr.MAX_MR, 4096)
                    .put(Attr.MAX_PD, 1024).put(Attr.MAX_QP_RD_ATOM, 128).put(Attr.MAX_QP_INIT_RD_ATOM, 128)
                    .put(Attr.PHYS_PORT_CNT, 1).put(Attr.MAX_PKEYS, 1).put(Attr.ATOMIC_CAP, 0).build();
        }

        Attrs portAttrs() {
            return Attrs.builder().put(Attr.PORT_NUM, PORT).put(Attr.PORT_STATE, 4).put(Attr.MAX_MTU, MTU_4096)
                    .put(Attr.ACTIVE_MTU, MTU_1024).put(Attr.GID_TBL_LEN, 2).put(Attr.PKEY_TBL_LEN, 1)
                    .put(Attr.LID, 0).put(Attr.LINK_LAYER, 2).build();
        }

        void counters(CountersEvent.Phase phase) {
            long n = phase == CountersEvent.Phase.START ? 0 : spec.dataEvents() / 6;
            List<CountersEvent.Counter> c = new ArrayList<>();
            c.add(new CountersEvent.Counter("sent_pkts", n));
            c.add(new CountersEvent.Counter("rcvd_pkts", n));
            c.add(new CountersEvent.Counter("rcvd_seq_err", 0));
            c.add(new CountersEvent.Counter("retry_exceeded_err", 0));
            w.counters("sv-" + id, phase, c);
        }

        void openDevice() {
            w.mark("TC01", Verdict.INFO, "resource creation");
            w.call(Verb.IBV_GET_DEVICE_LIST, 0, 0, 0, 9_000, Attrs.EMPTY,
                    Attrs.builder().put(Attr.NUM_DEVICES, 1).build());
            w.call(Verb.IBV_OPEN_DEVICE, context, 0, 0, 40_000,
                    Attrs.builder().put(Attr.DEV_NAME, "sv-" + id).build(),
                    Attrs.builder().put(Attr.CONTEXT, context).build());
            w.call(Verb.IBV_QUERY_DEVICE, context, 0, 0, 2_000, Attrs.EMPTY, deviceAttrs());
            w.call(Verb.IBV_QUERY_PORT, context, 0, 0, 1_500,
                    Attrs.builder().put(Attr.PORT_NUM, PORT).build(), portAttrs());
            w.call(Verb.IBV_QUERY_GID, context, 0, 0, 1_200,
                    Attrs.builder().put(Attr.PORT_NUM, PORT).put(Attr.GID_INDEX, GID_INDEX).build(),
                    Attrs.builder().put(Attr.GID, gid).put(Attr.GID_TYPE, 2).build());
        }

        void createResources() {
            w.call(Verb.IBV_ALLOC_PD, pd, 0, 0, 3_000, Attrs.builder().put(Attr.CONTEXT, context).build(),
                    Attrs.builder().put(Attr.PD, pd).build());
            w.call(Verb.IBV_REG_MR, mr, 0, 0, 25_000,
                    Attrs.builder().put(Attr.PD, pd).put(Attr.ADDR, mrAddr).put(Attr.LENGTH, MR_LENGTH)
                            .put(Attr.ACCESS, ACCESS_LRW).build(),
                    Attrs.builder().put(Attr.MR, mr).put(Attr.LKEY, rkey).put(Attr.RKEY, rkey).build());
            for (int i = 0; i < qp.length; i++) {
                w.call(Verb.IBV_CREATE_CQ, cq[i], 0, 0, 8_000,
                        Attrs.builder().put(Attr.CONTEXT, context).put(Attr.CQE, 16).put(Attr.COMP_VECTOR, 0).build(),
                        Attrs.builder().put(Attr.CQ, cq[i]).put(Attr.CQE, 16).build());
                Attrs caps = Attrs.builder().put(Attr.MAX_SEND_WR, 16).put(Attr.MAX_RECV_WR, 16)
                        .put(Attr.MAX_SEND_SGE, 1).put(Attr.MAX_RECV_SGE, 1).put(Attr.MAX_INLINE_DATA, 0).build();
                w.call(Verb.IBV_CREATE_QP, qp[i], 0, 0, 15_000,
                        caps.toBuilder().put(Attr.PD, pd).put(Attr.SEND_CQ, cq[i]).put(Attr.RECV_CQ, cq[i])
                                .put(Attr.QP_TYPE, QP_TYPE_RC).put(Attr.SQ_SIG_ALL, false).build(),
                        caps.toBuilder().put(Attr.QP, qp[i]).put(Attr.QP_NUM, qpn[i]).build());
            }
            w.mark("TC01", Verdict.PASS, qp.length + " QP(s) created");
        }

        void illegalTransitionProbe() {
            w.mark("TC02", Verdict.INFO, "illegal transition probe RESET->RTS");
            w.call(Verb.IBV_MODIFY_QP, qp[0], 22, 22, 2_500,
                    Attrs.builder().put(Attr.QP, qp[0]).put(Attr.ATTR_MASK, 0x1).put(Attr.QP_STATE, 3).build(),
                    Attrs.EMPTY);
            query(0);
            w.mark("TC02", Verdict.PASS, "RESET->RTS refused with EINVAL, QP still RESET");
        }

        Attrs params(int i, long advertisedPsn) {
            return Attrs.builder().put(Attr.CONN_INDEX, i).put(Attr.QP_NUM, qpn[i]).put(Attr.LID, 0)
                    .put(Attr.GID, gid).put(Attr.GID_INDEX, GID_INDEX).put(Attr.PSN, advertisedPsn)
                    .put(Attr.PATH_MTU, MTU_1024).put(Attr.ADDR, mrAddr).put(Attr.RKEY, rkey)
                    .put(Attr.LENGTH, MR_LENGTH).put(Attr.PKEY, 0xFFFF).put(Attr.QP_TYPE, QP_TYPE_RC).build();
        }

        void connect(int i, Host peer, long peerPsn, int mtu) {
            modify(i, 1, Attrs.builder().put(Attr.ATTR_MASK, 0x39).put(Attr.PKEY_INDEX, 0)
                    .put(Attr.PORT_NUM, PORT).put(Attr.QP_ACCESS_FLAGS, ACCESS_LRW));
            destQpn[i] = peer.qpn[i];
            rqPsn[i] = peerPsn;
            pathMtu[i] = mtu;
            modify(i, 2, Attrs.builder().put(Attr.ATTR_MASK, 0x129181).put(Attr.PATH_MTU, mtu)
                    .put(Attr.DEST_QP_NUM, peer.qpn[i]).put(Attr.RQ_PSN, peerPsn).put(Attr.MAX_DEST_RD_ATOMIC, 1)
                    .put(Attr.MIN_RNR_TIMER, 12).put(Attr.DLID, 0).put(Attr.SL, 0).put(Attr.IS_GLOBAL, true)
                    .put(Attr.DGID, peer.gid).put(Attr.SGID_INDEX, GID_INDEX).put(Attr.HOP_LIMIT, 64)
                    .put(Attr.AH_PORT_NUM, PORT));
            modify(i, 3, Attrs.builder().put(Attr.ATTR_MASK, 0x12E01).put(Attr.TIMEOUT, 14)
                    .put(Attr.RETRY_CNT, 7).put(Attr.RNR_RETRY, 7).put(Attr.SQ_PSN, psn[i])
                    .put(Attr.MAX_RD_ATOMIC, 1));
        }

        /** A successful modify to {@code newState}, then the query the agent makes after every modify. */
        private void modify(int i, int newState, Attrs.Builder in) {
            w.call(Verb.IBV_MODIFY_QP, qp[i], 0, 0, 6_000,
                    in.put(Attr.QP, qp[i]).put(Attr.QP_STATE, newState).build(), Attrs.EMPTY);
            state[i] = newState;
            query(i);
        }

        private void query(int i) {
            Attrs.Builder out = Attrs.builder().put(Attr.QP_STATE, state[i]).put(Attr.CUR_QP_STATE, state[i])
                    .put(Attr.PORT_NUM, PORT).put(Attr.PKEY_INDEX, 0).put(Attr.QP_ACCESS_FLAGS, ACCESS_LRW)
                    .put(Attr.MAX_SEND_WR, 16).put(Attr.MAX_RECV_WR, 16);
            if (state[i] >= 2) {
                out.put(Attr.DEST_QP_NUM, destQpn[i]).put(Attr.RQ_PSN, rqPsn[i]).put(Attr.PATH_MTU, pathMtu[i]);
            }
            if (state[i] >= 3) {
                out.put(Attr.SQ_PSN, psn[i]).put(Attr.TIMEOUT, 14).put(Attr.RETRY_CNT, 7).put(Attr.RNR_RETRY, 7);
            }
            w.call(Verb.IBV_QUERY_QP, qp[i], 0, 0, 3_000,
                    Attrs.builder().put(Attr.QP, qp[i]).put(Attr.ATTR_MASK, 0x3FFFFF).build(), out.build());
        }

        void postRecv(int i, long wrId) {
            w.call(Verb.IBV_POST_RECV, qp[i], 0, 0, 300, Attrs.builder().put(Attr.WR_ID, wrId).put(Attr.NUM_SGE, 1)
                    .put(Attr.ADDR, mrAddr).put(Attr.LENGTH, MR_LENGTH).put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY);
        }

        void postSend(int i, long wrId) {
            w.call(Verb.IBV_POST_SEND, qp[i], 0, 0, 400, Attrs.builder().put(Attr.WR_ID, wrId).put(Attr.WR_OPCODE, 2)
                    .put(Attr.SEND_FLAGS, 2).put(Attr.NUM_SGE, 1).put(Attr.ADDR, mrAddr).put(Attr.LENGTH, MR_LENGTH)
                    .put(Attr.WR_COUNT, 1).build(), Attrs.EMPTY);
        }

        void pollNone(int i) {
            w.call(Verb.IBV_POLL_CQ, cq[i], 0, 0, 100, Attrs.builder().put(Attr.NUM_ENTRIES, 1).build(),
                    Attrs.builder().put(Attr.POLLED, 0).build());
        }

        void pollOne(int i, long wrId, int status, int opcode, long byteLen) {
            w.call(Verb.IBV_POLL_CQ, cq[i], 1, 0, 150, Attrs.builder().put(Attr.NUM_ENTRIES, 1).build(),
                    Attrs.builder().put(Attr.POLLED, 1).build());
            w.completion(cq[i], new Wc(wrId, status, opcode, 0, byteLen, 0, qpn[i], 0, 0, 0, 0, 0, 0));
        }
    }

    /** {@code SyntheticTrace OUT_DIR [QP_PAIRS [DATA_EVENTS [FAULT]]]} writes a trace for manual use. */
    public static void main(String[] args) throws TraceException {
        if (args.length < 1) {
            System.err.println("usage: SyntheticTrace OUT_DIR [QP_PAIRS [DATA_EVENTS [NONE|PSN_OFF_BY_ONE|MTU_MISMATCH]]]");
            System.exit(2);
        }
        Spec spec = Spec.of(Path.of(args[0]), args.length > 1 ? Integer.parseInt(args[1]) : 1,
                args.length > 2 ? Integer.parseInt(args[2]) : 60);
        if (args.length > 3) {
            spec = spec.withFault(Fault.valueOf(args[3]));
        }
        TraceSet set = write(spec);
        System.out.println("wrote " + set.hostIds() + " under " + set.root());
    }
}
