package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.rdmatrace.abi.QpField;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

/**
 * post_recv, post_send and poll_cq allocate nothing on the Java heap once warm: the recorder
 * and the capture run them in loops; nor does a query_qp into a reused {@link QpQueryBuffer}.
 * Measured with the thread's allocation counter.
 */
class DataPathAllocationTest {
    private static final int ROUNDS = 200;

    @Test
    void postAndPoll_allocateNothingPerCall() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeThat(mx).as("needs com.sun.management.ThreadMXBean for allocation counts")
                .isInstanceOf(com.sun.management.ThreadMXBean.class);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        try (SoftDevices soft = SoftDevices.open("al");
             Loopback lb = Loopback.connected(soft, QpType.RC);
             SendBatch send = new SendBatch(1, 1);
             RecvBatch recv = new RecvBatch(1, 1);
             CompletionBatch wcs = new CompletionBatch(4)) {
            rounds(lb, send, recv, wcs, ROUNDS); // warm-up: class init, JIT
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            long polls = rounds(lb, send, recv, wcs, ROUNDS);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            long calls = 2L * ROUNDS + polls;
            // 0 when warm; the slack covers a stray deoptimization, not a per-call allocation
            assertThat(allocated).as("bytes allocated by %d post/poll calls", calls).isLessThan(1024);
        }
    }

    @Test
    void queryIntoBuffer_allocatesNothingPerCall() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeThat(mx).as("needs com.sun.management.ThreadMXBean for allocation counts")
                .isInstanceOf(com.sun.management.ThreadMXBean.class);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        try (SoftDevices soft = SoftDevices.open("aq");
             Loopback lb = Loopback.connected(soft, QpType.RC)) {
            QpQueryBuffer answer = new QpQueryBuffer();
            long states = queries(lb.a.qp, answer, ROUNDS); // warm-up: class init, JIT
            long tid = Thread.currentThread().getId();
            long before = threads.getThreadAllocatedBytes(tid);
            states += queries(lb.a.qp, answer, ROUNDS);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            assertThat(states).as("every answer said RTS").isEqualTo(2L * ROUNDS * QpState.RTS.value());
            assertThat(allocated).as("bytes allocated by %d queries", ROUNDS).isLessThan(1024);
        }
    }

    /** The sum of the answers' qp_state values, so each answer is read. */
    private static long queries(QueuePair qp, QpQueryBuffer answer, int n) {
        long states = 0;
        for (int i = 0; i < n; i++) {
            if (qp.query(QueuePair.ALL_ATTRIBUTES, answer) != 0) {
                throw new AssertionError("query_qp failed: errno " + answer.errno());
            }
            states += answer.get(QpField.QP_STATE);
        }
        return states;
    }

    /** Returns how many polls it took; every wait is bounded. */
    private static long rounds(Loopback lb, SendBatch send, RecvBatch recv, CompletionBatch wcs, int n) {
        long polls = 0;
        for (int i = 0; i < n; i++) {
            recv.clear().add(i).sge(lb.b.mr, 0, 64);
            if (lb.b.qp.postRecv(recv) != 0) {
                throw new AssertionError("post_recv failed: errno " + recv.errno());
            }
            send.clear().add(i, WrOpcode.SEND, 2).sge(lb.a.mr, 0, 16);
            if (lb.a.qp.postSend(send) != 0) {
                throw new AssertionError("post_send failed: errno " + send.errno());
            }
            polls += drain(lb.a.cq, wcs, 1);
            polls += drain(lb.b.cq, wcs, 1);
        }
        return polls;
    }

    private static long drain(CompletionQueue cq, CompletionBatch wcs, int want) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long polls = 0;
        int got = 0;
        while (got < want) {
            int n = cq.poll(wcs);
            polls++;
            if (n < 0 || (n > 0 && wcs.statusValue(0) != 0)) {
                throw new AssertionError("poll failed: " + n);
            }
            got += n;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no completion within 10 s");
            }
        }
        return polls;
    }
}
