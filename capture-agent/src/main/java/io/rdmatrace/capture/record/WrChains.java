package io.rdmatrace.capture.record;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.WorkRequest;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.WrOpcode;
import java.util.ArrayList;
import java.util.List;

/**
 * A posted list as trace attributes: the fields of one send request (shared by the CALL's
 * {@code in} set, which describes the first request, and by each request of a chain), and the
 * whole chain when {@code in} cannot describe the post alone (FORMAT.md, "Work-request chains").
 */
final class WrChains {
    private WrChains() {
    }

    /** True when a post needs its chain recorded: more than one request, or one with several SGEs. */
    static boolean needsChain(int count, int firstSges) {
        return count > 1 || firstSges > 1;
    }

    /** The fields of send request {@code i} (everything but its SGEs, the QP and the counts). */
    static void sendFields(Attrs.Builder b, SendBatch batch, int i) {
        long ah = batch.ahHandle(i);
        if (ah != 0) {
            b.put(Attr.AH, ah);
        }
        long remoteAddr = batch.remoteAddr(i);
        int rkey = batch.rkey(i);
        boolean remote = remoteAddr != 0 || rkey != 0;
        if (remote) {
            b.put(Attr.RKEY, Integer.toUnsignedLong(rkey));
        }
        WrOpcode opcode = batch.opcode(i);
        b.put(Attr.WR_ID, batch.wrId(i));
        b.put(Attr.WR_OPCODE, opcode.value());
        b.put(Attr.SEND_FLAGS, Integer.toUnsignedLong(batch.sendFlags(i)));
        if (remote) {
            b.put(Attr.REMOTE_ADDR, remoteAddr);
        }
        if (carriesImm(opcode)) {
            b.put(Attr.IMM_DATA, Integer.toUnsignedLong(batch.immData(i)));
        }
        if (ah != 0) {
            b.put(Attr.REMOTE_QPN, Integer.toUnsignedLong(batch.remoteQpn(i)));
            b.put(Attr.REMOTE_QKEY, Integer.toUnsignedLong(batch.remoteQkey(i)));
        }
        if (opcode == WrOpcode.ATOMIC_CMP_AND_SWP || opcode == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            b.put(Attr.COMPARE_ADD, batch.compareAdd(i));
            if (opcode == WrOpcode.ATOMIC_CMP_AND_SWP) {
                b.put(Attr.SWAP, batch.swap(i));
            }
        }
    }

    /** Every request of a send list with all its SGEs. */
    static List<WorkRequest> send(SendBatch batch) {
        int n = batch.count();
        List<WorkRequest> wrs = new ArrayList<>(n);
        Attrs.Builder b = Attrs.builder();
        for (int i = 0; i < n; i++) {
            sendFields(b.clear(), batch, i);
            int sges = batch.numSge(i);
            List<WorkRequest.Sge> list = new ArrayList<>(sges);
            for (int j = 0; j < sges; j++) {
                list.add(new WorkRequest.Sge(batch.sgeAddr(i, j), Integer.toUnsignedLong(batch.sgeLength(i, j)),
                        Integer.toUnsignedLong(batch.sgeLkey(i, j))));
            }
            wrs.add(new WorkRequest(b.build(), list));
        }
        return wrs;
    }

    /** Every request of a receive list with all its SGEs. */
    static List<WorkRequest> recv(RecvBatch batch) {
        int n = batch.count();
        List<WorkRequest> wrs = new ArrayList<>(n);
        Attrs.Builder b = Attrs.builder();
        for (int i = 0; i < n; i++) {
            int sges = batch.numSge(i);
            List<WorkRequest.Sge> list = new ArrayList<>(sges);
            for (int j = 0; j < sges; j++) {
                list.add(new WorkRequest.Sge(batch.sgeAddr(i, j), Integer.toUnsignedLong(batch.sgeLength(i, j)),
                        Integer.toUnsignedLong(batch.sgeLkey(i, j))));
            }
            wrs.add(new WorkRequest(b.clear().put(Attr.WR_ID, batch.wrId(i)).build(), list));
        }
        return wrs;
    }

    /** Opcodes whose imm_data field is used: immediate data, or the rkey to invalidate. */
    private static boolean carriesImm(WrOpcode op) {
        return op == WrOpcode.RDMA_WRITE_WITH_IMM || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.SEND_WITH_INV
                || op == WrOpcode.LOCAL_INV;
    }
}
