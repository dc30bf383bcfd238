package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

/**
 * Two connected queue pairs of one type, one on each softverbs device of a {@link SoftDevices},
 * each with its own PD, CQ and a 64 KiB memory region: the two "hosts" of a loopback test.
 */
final class Loopback implements AutoCloseable {
    static final int PORT = 1;
    static final int MR_SIZE = 64 * 1024;
    static final int ACCESS = AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);
    static final int QKEY = 0x11111111;

    final Side a;
    final Side b;

    /** One host: its context and objects. */
    static final class Side implements AutoCloseable {
        final Context ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final NativeMemory memory;
        final MemoryRegion mr;
        final QueuePair qp;
        final int gidIndex;
        final Gid gid;

        Side(Device device, String ip, QpType type) {
            this(device.open(), ip, type, null);
        }

        Side(Context ctx, String ip, QpType type, CompletionChannel channel) {
            this.ctx = ctx;
            pd = ctx.allocPd();
            cq = ctx.createCq(64, channel, 0);
            memory = NativeMemory.allocate(MR_SIZE);
            mr = pd.regMr(memory, ACCESS);
            qp = pd.createQp(QpInitAttr.of(type, cq, new QpCap(32, 32, 4, 4, 64)));
            gidIndex = roceV2GidIndex(ctx, ip);
            gid = ctx.queryGid(PORT, gidIndex);
        }

        @Override
        public void close() {
            qp.close();
            mr.close();
            memory.close();
            cq.close();
            pd.close();
            ctx.close();
        }
    }

    private Loopback(Side a, Side b) {
        this.a = a;
        this.b = b;
    }

    /** Two QPs of {@code type}, brought up to RTS against each other. */
    static Loopback connected(SoftDevices soft, QpType type) {
        Side a = new Side(soft.a(), soft.ipA, type);
        Side b = new Side(soft.b(), soft.ipB, type);
        Loopback lb = new Loopback(a, b);
        lb.bringUp();
        return lb;
    }

    /** Like {@link #connected} but A's CQ reports through {@code channel} (made on A's context). */
    static Loopback connectedWithChannel(SoftDevices soft, Context ctxA, CompletionChannel channel) {
        Side a = new Side(ctxA, soft.ipA, QpType.RC, channel);
        Side b = new Side(soft.b(), soft.ipB, QpType.RC);
        Loopback lb = new Loopback(a, b);
        lb.bringUp();
        return lb;
    }

    private void bringUp() {
        toRts(a, b);
        toRts(b, a);
    }

    static QpAttr.Builder init(QpType type) {
        QpAttr.Builder init = QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(PORT);
        return type == QpType.UD ? init.qkey(QKEY) : init.qpAccessFlags(ACCESS);
    }

    static QpAttr.Builder rtr(QpType type, Side local, Side remote) {
        QpAttr.Builder rtr = QpAttr.builder().qpState(QpState.RTR);
        if (type == QpType.UD) {
            return rtr;
        }
        rtr.pathMtu(Mtu.MTU_1024).destQpNum(remote.qp.qpNum()).rqPsn(0x1000 + remote.qp.qpNum())
                .ahAttr(AhAttr.roce(remote.gid, local.gidIndex, PORT));
        return type == QpType.RC ? rtr.maxDestRdAtomic(4).minRnrTimer(12) : rtr;
    }

    static QpAttr.Builder rts(QpType type, Side local) {
        QpAttr.Builder rts = QpAttr.builder().qpState(QpState.RTS).sqPsn(0x1000 + local.qp.qpNum());
        return type == QpType.RC ? rts.timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4) : rts;
    }

    private static void toRts(Side local, Side remote) {
        QpType type = local.qp.qpType();
        local.qp.modify(init(type));
        local.qp.modify(rtr(type, local, remote));
        local.qp.modify(rts(type, local));
    }

    /** The index of the RoCE v2 GID that carries {@code ip} (::ffff:ip). */
    static int roceV2GidIndex(Context ctx, String ip) {
        int len = ctx.queryPort(PORT).gidTblLen();
        for (int i = 0; i < len; i++) {
            Outcome<IbvGidEntry> entry = ctx.tryQueryGidEntry(PORT, i);
            if (entry instanceof Outcome.Ok<IbvGidEntry> ok && ok.value().gidType() == GidType.ROCE_V2
                    && ok.value().gid().ipv4().filter(ip::equals).isPresent()) {
                return i;
            }
        }
        throw new AssertionError("no RoCE v2 GID for " + ip + " in " + len + " entries");
    }

    /** Polls until {@code n} completions are in {@code batch} (copied out one poll at a time). */
    static WorkCompletion[] pollAll(CompletionQueue cq, CompletionBatch batch, int n, Duration timeout) {
        WorkCompletion[] got = new WorkCompletion[n];
        int have = 0;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (have < n) {
            int polled = cq.poll(batch);
            assertThat(polled).as("ibv_poll_cq return").isGreaterThanOrEqualTo(0);
            for (int i = 0; i < polled && have < n; i++) {
                got[have++] = batch.get(i);
            }
            if (have < n && System.nanoTime() > deadline) {
                throw new AssertionError("only " + have + " of " + n + " completions within " + timeout);
            }
            if (polled == 0) {
                Thread.onSpinWait();
            }
        }
        return got;
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }
}
