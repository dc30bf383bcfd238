package io.rdmatrace.capture.record;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.WorkRequest;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.WrOpcode;
import java.util.ArrayList;
import java.util.List;

/**
 * A posted list as trace attributes: the fields of one send request (shared by the CALL's
 * {@code in} set, which describes the first request, and by each request of a chain), and the
 * whole chain when {@code in} cannot describe the post alone (FORMAT.md, "Work-request chains").
 * Shared by the agent's recorder (from the binding's batches) and the program recorder (from the
 * tracer's ring records), so both spell a request alike.
 */
public final class WrChains {
    private WrChains() {
    }

    /** True when a post needs its chain recorded: more than one request, or one with several SGEs. */
    public static boolean needsChain(int count, int firstSges) {
        return count > 1 || firstSges > 1;
    }

    /** The fields of send request {@code i} (everything but its SGEs, the QP and the counts). */
    static void sendFields(Attrs.Builder b, SendBatch batch, int i) {
        sendFields(b, batch.wrId(i), batch.opcode(i).value(), batch.sendFlags(i), batch.remoteAddr(i), batch.rkey(i),
                batch.immData(i), batch.compareAdd(i), batch.swap(i), batch.ahHandle(i), batch.remoteQpn(i),
                batch.remoteQkey(i));
    }

    /**
     * The fields of one send request from its raw values ({@code opcode} is ibv_wr_opcode, {@code imm}
     * in host order): only those that apply to it.
     */
    public static void sendFields(Attrs.Builder b, long wrId, int opcode, int sendFlags, long remoteAddr, int rkey,
                                  int imm, long compareAdd, long swap, long ah, int remoteQpn, int remoteQkey) {
        if (ah != 0) {
            b.put(Attr.AH, ah);
        }
        boolean remote = remoteAddr != 0 || rkey != 0;
        if (remote) {
            b.put(Attr.RKEY, Integer.toUnsignedLong(rkey));
        }
        WrOpcode op = WrOpcode.of(opcode);
        b.put(Attr.WR_ID, wrId);
        b.put(Attr.WR_OPCODE, opcode);
        b.put(Attr.SEND_FLAGS, Integer.toUnsignedLong(sendFlags));
        if (remote) {
            b.put(Attr.REMOTE_ADDR, remoteAddr);
        }
        if (carriesImm(op)) {
            b.put(Attr.IMM_DATA, Integer.toUnsignedLong(imm));
        }
        if (ah != 0) {
            b.put(Attr.REMOTE_QPN, Integer.toUnsignedLong(remoteQpn));
            b.put(Attr.REMOTE_QKEY, Integer.toUnsignedLong(remoteQkey));
        }
        if (op == WrOpcode.ATOMIC_CMP_AND_SWP || op == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            b.put(Attr.COMPARE_ADD, compareAdd);
            if (op == WrOpcode.ATOMIC_CMP_AND_SWP) {
                b.put(Attr.SWAP, swap);
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
