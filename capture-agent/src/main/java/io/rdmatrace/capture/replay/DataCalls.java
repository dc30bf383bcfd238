package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.Wc;
import io.rdmatrace.trace.model.WorkRequest;
import io.rdmatrace.verbs.AddressHandle;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.WrOpcode;

/**
 * The data path, as far as a recording tells it: posts of exactly the recorded requests (every
 * request of a chain with all its SGEs, opcodes, flags, immediates and atomic operands; see
 * {@link #requests}) and polls that wait, up to the completion wait, for as many
 * completions as the recorded poll returned.
 */
final class DataCalls {
    private static final int MAX_WR_PER_POST = 4096;
    private static final long EMPTY_POLL_PAUSE_NS = 20_000;

    private final ReplayState s;

    DataCalls(ReplayState state) {
        this.s = state;
    }

    Replayed postRecv(CallEvent c) {
        QueuePair qp = s.objects.get(c.handle(), QueuePair.class);
        if (qp == null) {
            return new Replayed.Skipped("the QP it posts to was not created here", true);
        }
        List<WorkRequest> wrs = requests(c);
        try (RecvBatch batch = new RecvBatch(Math.max(1, wrs.size()), maxSges(wrs))) {
            for (WorkRequest wr : wrs) {
                batch.add(wr.fields().get(Attr.WR_ID, 0));
                for (WorkRequest.Sge sge : wr.sges()) {
                    batch.sge(s.values.localAddress(sge.addr()), (int) sge.length(), (int) s.values.localKey(sge.lkey()));
                }
            }
            qp.postRecv(batch);
            return new Replayed.Done((int) batch.ret(), batch.errno(), badWr(batch.badIndex()));
        }
    }

    Replayed postSend(CallEvent c) {
        QueuePair qp = s.objects.get(c.handle(), QueuePair.class);
        if (qp == null) {
            return new Replayed.Skipped("the QP it posts to was not created here", true);
        }
        List<WorkRequest> wrs = requests(c);
        try (SendBatch batch = new SendBatch(Math.max(1, wrs.size()), maxSges(wrs))) {
            for (WorkRequest wr : wrs) {
                Attrs f = wr.fields();
                AddressHandle ah = null;
                if (f.get(Attr.AH, 0) != 0) {
                    ah = s.objects.get(f.get(Attr.AH, 0), AddressHandle.class);
                    if (ah == null) {
                        return new Replayed.Skipped("the address handle it sends to was not created here", true);
                    }
                }
                WrOpcode opcode = WrOpcode.of((int) f.get(Attr.WR_OPCODE, WrOpcode.SEND.value()));
                batch.add(f.get(Attr.WR_ID, 0), opcode, (int) f.get(Attr.SEND_FLAGS, 0));
                for (WorkRequest.Sge sge : wr.sges()) {
                    batch.sge(s.values.localAddress(sge.addr()), (int) sge.length(), (int) s.values.localKey(sge.lkey()));
                }
                if (f.has(Attr.REMOTE_ADDR)) {
                    long remote = s.values.peerAddress(f.get(Attr.REMOTE_ADDR, 0));
                    int rkey = (int) s.values.peerKey(f.get(Attr.RKEY, 0));
                    if (opcode == WrOpcode.ATOMIC_CMP_AND_SWP || opcode == WrOpcode.ATOMIC_FETCH_AND_ADD) {
                        // operands as recorded (format 1.1); a 1.0 trace did not record them: 0
                        batch.atomic(remote, rkey, f.get(Attr.COMPARE_ADD, 0), f.get(Attr.SWAP, 0));
                    } else {
                        batch.rdma(remote, rkey);
                    }
                }
                if (f.has(Attr.IMM_DATA)) {
                    batch.imm((int) f.get(Attr.IMM_DATA, 0));
                }
                if (ah != null) {
                    batch.ud(ah, (int) s.values.peerQpn(f.get(Attr.REMOTE_QPN, 0)), (int) f.get(Attr.REMOTE_QKEY, 0));
                }
            }
            qp.postSend(batch);
            return new Replayed.Done((int) batch.ret(), batch.errno(), badWr(batch.badIndex()));
        }
    }

    /**
     * The requests to post: the recorded chain (every request with all its SGEs), or the single
     * request the CALL describes. A format-1.0 trace of a longer list recorded only the first
     * request and the count: each one is replayed like the first, with consecutive wr_ids.
     */
    static List<WorkRequest> requests(CallEvent c) {
        List<WorkRequest> wrs = c.workRequests();
        int count = wrCount(c.in());
        if (!c.wrs().isEmpty() || wrs.size() != 1 || count <= 1) {
            return wrs;
        }
        WorkRequest first = wrs.get(0);
        long wrId = first.fields().get(Attr.WR_ID, 0);
        List<WorkRequest> copies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            copies.add(new WorkRequest(first.fields().toBuilder().put(Attr.WR_ID, wrId + i).build(), first.sges()));
        }
        return copies;
    }

    private static int maxSges(List<WorkRequest> wrs) {
        int max = 1;
        for (WorkRequest wr : wrs) {
            max = Math.max(max, wr.sges().size());
        }
        return max;
    }

    /** A recorded completion and the replayed one it was matched with (null: none came in time). */
    record Match(io.rdmatrace.trace.model.CompletionEvent recorded, Wc replayed) {
    }

    /** Replayed completions polled but not yet matched to a recorded one, per recorded CQ handle. */
    private final java.util.Map<Long, List<Wc>> pending = new java.util.HashMap<>();

    /**
     * Matches the completions a recorded poll returned with replayed ones, polling the CQ until each
     * has a partner or the completion wait runs out. Completions are matched by QP, wr_id and
     * (preferably) opcode, not by position: a CQ shared by the send and receive queues returns the two
     * in whichever order they finish, which differs from run to run. Returns null when the CQ does not
     * exist here.
     */
    List<Match> poll(CallEvent c, List<io.rdmatrace.trace.model.CompletionEvent> recorded) {
        CompletionQueue cq = s.objects.get(c.handle(), CompletionQueue.class);
        if (cq == null) {
            return null;
        }
        List<Wc> pool = pending.computeIfAbsent(c.handle(), k -> new ArrayList<>());
        List<Match> matches = new ArrayList<>();
        List<io.rdmatrace.trace.model.CompletionEvent> open = new ArrayList<>(recorded);
        long deadline = System.nanoTime() + s.completionWait.toNanos();
        try (CompletionBatch batch = new CompletionBatch(Math.max(1, recorded.size()))) {
            while (true) {
                for (var it = open.iterator(); it.hasNext(); ) {
                    io.rdmatrace.trace.model.CompletionEvent rec = it.next();
                    Wc partner = take(pool, rec.wc());
                    if (partner != null) {
                        matches.add(new Match(rec, partner));
                        it.remove();
                    }
                }
                if (open.isEmpty() || System.nanoTime() > deadline) {
                    break;
                }
                int n = cq.poll(batch);
                if (n < 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    pool.add(new Wc(batch.wrId(i), batch.statusValue(i), batch.opcodeValue(i),
                            Integer.toUnsignedLong(batch.vendorErr(i)), Integer.toUnsignedLong(batch.byteLen(i)),
                            Integer.toUnsignedLong(batch.immData(i)), batch.qpNum(i), batch.srcQp(i), batch.wcFlags(i),
                            batch.pkeyIndex(i), batch.slid(i), batch.sl(i), batch.dlidPathBits(i)));
                }
                if (n == 0) {
                    LockSupport.parkNanos(EMPTY_POLL_PAUSE_NS); // leave the CPU to the device's progress thread
                }
            }
        }
        for (io.rdmatrace.trace.model.CompletionEvent rec : open) {
            matches.add(new Match(rec, null));
        }
        matches.sort(java.util.Comparator.comparingLong(m -> m.recorded().seq()));
        return matches;
    }

    /** Replayed completions nobody recorded, per CQ, once the replay is over. */
    List<Wc> unmatched() {
        List<Wc> all = new ArrayList<>();
        pending.values().forEach(all::addAll);
        return all;
    }

    /** Removes and returns the pooled completion that stands for {@code recorded}, or null. */
    private Wc take(List<Wc> pool, Wc recorded) {
        long qpNum = s.values.localQpn(recorded.qpNum());
        Wc fallback = null;
        for (Wc w : pool) {
            if (w.qpNum() == qpNum && w.wrId() == recorded.wrId()) {
                if (w.opcode() == recorded.opcode()) {
                    pool.remove(w);
                    return w;
                }
                if (fallback == null) {
                    fallback = w;
                }
            }
        }
        if (fallback != null) {
            pool.remove(fallback);
        }
        return fallback;
    }

    private static int wrCount(Attrs in) {
        return (int) Math.max(1, Math.min(MAX_WR_PER_POST, in.get(Attr.WR_COUNT, 1)));
    }

    private static Attrs badWr(int index) {
        return index >= 0 ? Attrs.builder().put(Attr.BAD_WR_INDEX, index).build() : Attrs.EMPTY;
    }
}
