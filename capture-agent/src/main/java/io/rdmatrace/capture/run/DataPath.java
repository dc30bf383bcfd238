package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.scenario.Expect;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.SendFlag;
import io.rdmatrace.verbs.WcStatus;
import io.rdmatrace.verbs.WrOpcode;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** TC04's verbs: post receives and sends, poll with a deadline, check the peer's pattern. */
final class DataPath {
    /** Empty polls spun before backing off (two agents share two cores with softverbs' threads). */
    private static final int SPIN_POLLS = 200;
    private static final long BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final AgentState s;

    DataPath(AgentState s) {
        this.s = s;
    }

    StepOutcome postRecv(int count, Expect e, QpSlot slot) {
        QueuePair qp = StepExecutor.requireQp(slot, "post_recv");
        requireMr(slot, "post_recv");
        for (int k = 0; k < count; k++) {
            s.recvBatch.clear().add(slot.recvsPosted).sge(slot.mr, slot.recvOffset(slot.recvsPosted), slot.recvLength);
            qp.postRecv(s.recvBatch);
            CallStatus st = s.recvBatch.status();
            String why = Expectations.outcome(e, st, StepExecutor.qpTag(slot) + "ibv_post_recv #" + (k + 1) + " of " + count);
            if (why != null) {
                return StepOutcome.fail(why);
            }
            if (st.ok()) {
                slot.recvsPosted++;
            }
        }
        return StepOutcome.OK;
    }

    StepOutcome postSend(Op op, Expect e, QpSlot slot, int iter) {
        QueuePair qp = StepExecutor.requireQp(slot, "post_send");
        requireMr(slot, "post_send");
        int size = s.config.workload().size();
        SendBatch b = s.sendBatch.clear();
        int signaled = SendFlag.bits(SendFlag.SIGNALED);
        switch (op) {
            case SEND -> {
                Pattern.fill(slot.memory.buffer(), slot.sendOffset, size, s.role(), slot.index, iter);
                b.add(StepExecutor.sendWrId(iter), WrOpcode.SEND, signaled).sge(slot.mr, slot.sendOffset, size);
                if (s.config.workload().qpType() == Transport.UD) {
                    if (slot.ah == null || slot.peer == null) {
                        throw new StepException("a UD send needs an address handle: put \"create_ah\" after the exchange");
                    }
                    b.ud(slot.ah, slot.peer.qpNum(), Transport.UD_QKEY);
                }
            }
            case WRITE -> {
                requirePeer(slot, "an RDMA WRITE");
                Pattern.fill(slot.memory.buffer(), slot.sendOffset, size, s.role(), slot.index, iter);
                // into the start of the peer's advertised buffer: its receive slot 0
                b.add(StepExecutor.sendWrId(iter), WrOpcode.RDMA_WRITE, signaled).sge(slot.mr, slot.sendOffset, size)
                        .rdma(slot.peer.mrAddr(), slot.peer.rkey());
            }
            case READ -> {
                requirePeer(slot, "an RDMA READ");
                // from the end of the peer's buffer (its send area) into our receive slot 0
                b.add(StepExecutor.sendWrId(iter), WrOpcode.RDMA_READ, signaled).sge(slot.mr, slot.recvOffset(0), size)
                        .rdma(slot.peer.mrAddr() + slot.peer.mrLength() - size, slot.peer.rkey());
            }
        }
        qp.postSend(b);
        CallStatus st = b.status();
        if (st.ok()) {
            slot.sendsPosted++;
        }
        return StepExecutor.verdict(Expectations.outcome(e, st, StepExecutor.qpTag(slot) + "ibv_post_send(" + op.label() + ")"), "");
    }

    /**
     * Polls the QP's CQ until {@code sends} send and {@code recvs} receive completions arrived, one
     * arrived with an error status, or --cq-timeout ran out. An error completion passes only when the
     * step expects exactly that status.
     */
    StepOutcome poll(int sends, int recvs, Expect e, QpSlot slot) {
        StepExecutor.requireQp(slot, "poll");
        CompletionBatch batch = s.completions;
        long deadline = System.nanoTime() + s.config.cqWait().toNanos();
        int empty = 0;
        int expectedStatus = e.wcStatus() != null ? e.wcStatus() : WcStatus.SUCCESS.value();
        try {
            while (slot.sendsCompleted - slot.sendsClaimed < sends || slot.recvsCompleted - slot.recvsClaimed < recvs) {
                int n = slot.cq.poll(batch);
                if (n < 0) {
                    return StepOutcome.fail(StepExecutor.qpTag(slot) + "ibv_poll_cq failed: " + batch.status().describe());
                }
                if (n == 0) {
                    if (System.nanoTime() - deadline >= 0) {
                        return StepOutcome.fail(timeoutText(slot, sends, recvs));
                    }
                    if (++empty > SPIN_POLLS) {
                        LockSupport.parkNanos(BACKOFF_NANOS);
                    }
                    continue;
                }
                empty = 0;
                for (int i = 0; i < n; i++) {
                    boolean send = StepExecutor.isSendWrId(batch.wrId(i));
                    int status = batch.statusValue(i);
                    if (send) {
                        slot.sendsCompleted++;
                    } else {
                        slot.recvsCompleted++;
                        slot.recvBytes[slot.recvOffset(batch.wrId(i)) / slot.recvLength] = batch.byteLen(i);
                    }
                    if (status != expectedStatus) {
                        return StepOutcome.fail(StepExecutor.qpTag(slot) + (send ? "send" : "receive") + " completion "
                                + Expectations.wcStatusName(status) + " (" + WcStatus.of(status).text() + ")"
                                + (batch.vendorErr(i) != 0 ? String.format(", vendor_err 0x%x", batch.vendorErr(i)) : "")
                                + (expectedStatus != WcStatus.SUCCESS.value() ? ", expected " + Expectations.wcStatusName(expectedStatus) : ""));
                    }
                    if (status != WcStatus.SUCCESS.value()) {
                        return StepOutcome.ok(StepExecutor.qpTag(slot) + "got the expected " + Expectations.wcStatusName(status));
                    }
                }
            }
            slot.sendsClaimed += sends;
            slot.recvsClaimed += recvs;
            return StepOutcome.OK;
        } finally {
            s.recorder.flushEmptyPolls();
        }
    }

    private String timeoutText(QpSlot slot, int sends, int recvs) {
        int gotSends = Math.min(sends, slot.sendsCompleted - slot.sendsClaimed);
        int gotRecvs = Math.min(recvs, slot.recvsCompleted - slot.recvsClaimed);
        StringBuilder sb = new StringBuilder(StepExecutor.qpTag(slot)).append("no completion within ")
                .append(s.config.cqWait().toMillis()).append(" ms: waited for ");
        if (sends > 0) {
            sb.append(gotSends).append('/').append(sends).append(" send");
        }
        if (recvs > 0) {
            sb.append(sends > 0 ? ", " : "").append(gotRecvs).append('/').append(recvs).append(" receive");
        }
        sb.append(" completion(s)");
        if (recvs > gotRecvs) {
            sb.append(slot.recvsPosted <= slot.recvsCompleted ? " (no receive was posted for it)" : " (did the peer send?)");
        }
        return sb.toString();
    }

    /** Compares the receive half with the peer's pattern, then clears it for the next iteration. */
    StepOutcome checkPattern(Op op, QpSlot slot, int iter) {
        requireMr(slot, "check_pattern");
        int size = s.config.workload().size();
        boolean ud = s.config.workload().qpType() == Transport.UD;
        int base = slot.recvOffset(op == Op.SEND ? iter : 0);
        int offset = base + (op == Op.SEND && ud ? QpSlot.UD_GRH_BYTES : 0);
        OobRole sender = s.role().peer();
        int iteration = op == Op.READ ? 0 : iter;
        ByteBuffer buf = slot.memory.buffer();
        if (op == Op.SEND) {
            int expectBytes = size + (ud ? QpSlot.UD_GRH_BYTES : 0);
            int got = slot.recvBytes[base / slot.recvLength];
            if (got != expectBytes) {
                return StepOutcome.fail(StepExecutor.qpTag(slot) + "receive completion byte_len " + got
                        + ", expected " + expectBytes + (got > 0 && got < expectBytes ? " (truncated?)" : ""));
            }
        }
        int bad = Pattern.firstMismatch(buf, offset, size, sender, slot.index, iteration);
        if (bad >= 0 && op == Op.WRITE) {
            // UC acknowledges nothing: the peer's WRITE may still be on the wire when its "written" arrives
            long deadline = System.nanoTime() + s.config.cqWait().toNanos();
            while (bad >= 0 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                bad = Pattern.firstMismatch(buf, offset, size, sender, slot.index, iteration);
            }
        }
        int actual = bad >= 0 ? buf.get(offset + bad) & 0xff : 0;
        Pattern.clear(buf, base, slot.recvLength);
        if (bad >= 0) {
            return StepOutcome.fail(String.format("%sdata differs from the peer's pattern at byte %d of %d (got 0x%02x, expected 0x%02x)",
                    StepExecutor.qpTag(slot), bad, size, actual, Pattern.at(sender, slot.index, iteration, bad) & 0xff));
        }
        return StepOutcome.OK;
    }

    private static void requireMr(QpSlot slot, String what) {
        if (slot.mr == null) {
            throw new StepException(what + " needs the QP's memory region: put a \"reg_mr\" step before it");
        }
    }

    private static void requirePeer(QpSlot slot, String what) {
        if (slot.peer == null) {
            throw new StepException(what + " needs the peer's address and rkey: put an \"exchange\" step before it");
        }
    }
}
