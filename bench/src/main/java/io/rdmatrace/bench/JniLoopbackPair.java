package io.rdmatrace.bench;

import io.rdmatrace.verbs.AccessFlag;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.IbvGidEntry;
import io.rdmatrace.verbs.GidType;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * Two connected RC queue pairs on two bundled-softverbs devices (loopback addresses private to
 * this process), for the JNI benchmarks.
 */
final class JniLoopbackPair implements AutoCloseable {
    static final int ACCESS = AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ);

    final Verbs verbs;
    final Side a;
    final Side b;

    static final class Side implements AutoCloseable {
        final Context ctx;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final NativeMemory memory;
        final MemoryRegion mr;
        final QueuePair qp;
        final int gidIndex;
        final Gid gid;

        Side(Context ctx, String ip) {
            this.ctx = ctx;
            pd = ctx.allocPd();
            cq = ctx.createCq(256);
            memory = NativeMemory.allocate(64 * 1024);
            mr = pd.regMr(memory, ACCESS);
            qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(128, 128, 1, 1, 0)));
            gidIndex = roceV2GidIndex(ctx, ip);
            gid = ctx.queryGid(1, gidIndex);
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

    JniLoopbackPair() {
        verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
        long pid = ProcessHandle.current().pid();
        String net = "127." + (200 + (int) (pid % 50)) + "." + (int) ((pid / 50) % 250 + 1);
        verbs.configureSoftverbs("ba@" + net + ".1,bb@" + net + ".2");
        try (DeviceList list = verbs.getDeviceList()) {
            a = new Side(list.byName("ba").open(), net + ".1");
            b = new Side(list.byName("bb").open(), net + ".2");
        }
        connect(a, b);
        connect(b, a);
    }

    private static void connect(Side local, Side remote) {
        local.qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(ACCESS));
        local.qp.modify(QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024)
                .destQpNum(remote.qp.qpNum()).rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12)
                .ahAttr(AhAttr.roce(remote.gid, local.gidIndex, 1)));
        local.qp.modify(QpAttr.builder().qpState(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7)
                .maxRdAtomic(1));
    }

    private static int roceV2GidIndex(Context ctx, String ip) {
        int len = ctx.queryPort(1).gidTblLen();
        for (int i = 0; i < len; i++) {
            Outcome<IbvGidEntry> e = ctx.tryQueryGidEntry(1, i);
            if (e instanceof Outcome.Ok<IbvGidEntry> ok && ok.value().gidType() == GidType.ROCE_V2
                    && ok.value().gid().ipv4().filter(ip::equals).isPresent()) {
                return i;
            }
        }
        throw new IllegalStateException("no RoCE v2 GID for " + ip);
    }

    @Override
    public void close() {
        a.close();
        b.close();
        verbs.close();
    }
}
