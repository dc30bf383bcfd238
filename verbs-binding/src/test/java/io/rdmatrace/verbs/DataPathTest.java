package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two softverbs devices on loopback: every opcode, UD with an address handle, events. */
class DataPathTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int SIGNALED = SendFlag.bits(SendFlag.SIGNALED);

    private static SoftDevices soft;

    private final SendBatch send = new SendBatch(8, 8);
    private final RecvBatch recv = new RecvBatch(8, 4);
    private final CompletionBatch wcs = new CompletionBatch(16);

    @BeforeAll
    static void devices() {
        soft = SoftDevices.open("dp");
    }

    @AfterAll
    static void release() {
        if (soft != null) {
            soft.close();
        }
    }

    @AfterEach
    void freeBatches() {
        send.close();
        recv.close();
        wcs.close();
    }

    private static void put(ByteBuffer buf, int offset, String text) {
        buf.put(offset, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String get(ByteBuffer buf, int offset, int length) {
        byte[] bytes = new byte[length];
        buf.get(offset, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private void postRecv(Loopback.Side side, long wrId, int offset, int length) {
        recv.clear().add(wrId).sge(side.mr, offset, length);
        assertThat(side.qp.postRecv(recv)).isZero();
        assertThat(recv.errno()).isZero();
        assertThat(recv.badIndex()).isEqualTo(-1);
        assertThat(recv.durationNanos()).isPositive();
    }

    @Test
    void send_withTwoSges_landsInThePostedReceive() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            put(lb.a.mr.buffer(), 0, "hello ");
            put(lb.a.mr.buffer(), 100, "world");
            postRecv(lb.b, 77, 1000, 64);

            send.clear().add(42, WrOpcode.SEND, SIGNALED).sge(lb.a.mr, 0, 6).sge(lb.a.mr, 100, 5);
            assertThat(lb.a.qp.postSend(send)).isZero();
            assertThat(send.status().ok()).isTrue();
            assertThat(send.durationNanos()).isPositive();

            WorkCompletion sent = Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0];
            assertThat(sent.wrId()).isEqualTo(42);
            assertThat(sent.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(sent.opcode()).isEqualTo(WcOpcode.SEND);
            assertThat(sent.qpNum()).isEqualTo(lb.a.qp.qpNum());
            assertThat(wcs.durationNanos()).isPositive();

            WorkCompletion got = Loopback.pollAll(lb.b.cq, wcs, 1, WAIT)[0];
            assertThat(got.wrId()).isEqualTo(77);
            assertThat(got.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(got.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(got.byteLen()).isEqualTo(11);
            assertThat(got.qpNum()).isEqualTo(lb.b.qp.qpNum());
            assertThat(got.hasFlag(WcFlag.WITH_IMM)).isFalse();
            assertThat(get(lb.b.mr.buffer(), 1000, 11)).isEqualTo("hello world");
        }
    }

    @Test
    void sendWithImm_deliversTheImmediateInHostOrder() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            postRecv(lb.b, 5, 0, 64);
            send.clear().add(6, WrOpcode.SEND_WITH_IMM, SIGNALED).sge(lb.a.mr, 0, 8).imm(0x12345678);
            assertThat(lb.a.qp.postSend(send)).isZero();
            WorkCompletion got = Loopback.pollAll(lb.b.cq, wcs, 1, WAIT)[0];
            assertThat(got.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(got.hasFlag(WcFlag.WITH_IMM)).isTrue();
            assertThat(got.immData()).isEqualTo(0x12345678);
            assertThat(Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0].status()).isEqualTo(WcStatus.SUCCESS);
        }
    }

    @Test
    void rdmaWrite_andWriteWithImm() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            put(lb.a.mr.buffer(), 0, "written remotely");
            send.clear().add(1, WrOpcode.RDMA_WRITE, SIGNALED).sge(lb.a.mr, 0, 16)
                    .rdma(lb.b.mr.address() + 2048, lb.b.mr.rkey());
            assertThat(lb.a.qp.postSend(send)).isZero();
            WorkCompletion w = Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0];
            assertThat(w.opcode()).isEqualTo(WcOpcode.RDMA_WRITE);
            assertThat(w.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(w.byteLen()).isEqualTo(16);
            assertThat(get(lb.b.mr.buffer(), 2048, 16)).isEqualTo("written remotely");
            assertThat(lb.b.cq.poll(wcs)).as("a plain RDMA WRITE consumes no receive").isZero();

            postRecv(lb.b, 9, 0, 16);
            send.clear().add(2, WrOpcode.RDMA_WRITE_WITH_IMM, SIGNALED).sge(lb.a.mr, 0, 7)
                    .rdma(lb.b.mr.address() + 4096, lb.b.mr.rkey()).imm(0xABCD);
            assertThat(lb.a.qp.postSend(send)).isZero();
            WorkCompletion got = Loopback.pollAll(lb.b.cq, wcs, 1, WAIT)[0];
            assertThat(got.wrId()).isEqualTo(9);
            assertThat(got.opcode()).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
            assertThat(got.immData()).isEqualTo(0xABCD);
            assertThat(got.byteLen()).isEqualTo(7);
            assertThat(get(lb.b.mr.buffer(), 4096, 7)).isEqualTo("written");
            assertThat(Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0].opcode()).isEqualTo(WcOpcode.RDMA_WRITE);
        }
    }

    @Test
    void rdmaRead_fetchesTheRemoteBytes() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            put(lb.b.mr.buffer(), 512, "remote data");
            send.clear().add(3, WrOpcode.RDMA_READ, SIGNALED).sge(lb.a.mr, 8192, 11)
                    .rdma(lb.b.mr.address() + 512, lb.b.mr.rkey());
            assertThat(lb.a.qp.postSend(send)).isZero();
            WorkCompletion r = Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0];
            assertThat(r.opcode()).isEqualTo(WcOpcode.RDMA_READ);
            assertThat(r.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.byteLen()).isEqualTo(11);
            assertThat(get(lb.a.mr.buffer(), 8192, 11)).isEqualTo("remote data");
        }
    }

    @Test
    void inlineAndUnsignaledSends_completeOnlyWhenSignaled() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            assertThat(lb.a.qp.cap().maxInlineData()).isGreaterThanOrEqualTo(16);
            postRecv(lb.b, 1, 0, 64);
            postRecv(lb.b, 2, 64, 64);
            put(lb.a.mr.buffer(), 0, "inline!");
            send.clear().add(10, WrOpcode.SEND, SendFlag.bits(SendFlag.INLINE)).sge(lb.a.mr, 0, 7)
                    .add(11, WrOpcode.SEND, SIGNALED).sge(lb.a.mr, 0, 3);
            assertThat(lb.a.qp.postSend(send)).isZero();
            WorkCompletion[] received = Loopback.pollAll(lb.b.cq, wcs, 2, WAIT);
            assertThat(received).extracting(WorkCompletion::byteLen).containsExactly(7, 3);
            assertThat(get(lb.b.mr.buffer(), 0, 7)).isEqualTo("inline!");
            WorkCompletion[] sent = Loopback.pollAll(lb.a.cq, wcs, 1, WAIT);
            assertThat(sent[0].wrId()).as("only the signaled send completes").isEqualTo(11);
        }
    }

    @Test
    void postSend_withMoreSgesThanTheQpAllows_isEinvalNamingTheBadRequest() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            int allowed = lb.a.qp.cap().maxSendSge();
            send.clear().add(1, WrOpcode.SEND, SIGNALED).sge(lb.a.mr, 0, 1);
            send.add(2, WrOpcode.SEND, SIGNALED);
            for (int i = 0; i <= allowed && i < send.maxSge(); i++) {
                send.sge(lb.a.mr, i, 1);
            }
            assumeThat(send.numSge(1)).as("the QP granted %d SGEs, as many as the batch holds", allowed)
                    .isGreaterThan(allowed);
            int ret = lb.a.qp.postSend(send);
            assertThat(ret).isEqualTo(22);
            assertThat(send.errno()).isEqualTo(22);
            assertThat(send.status().errnoName()).isEqualTo("EINVAL");
            assertThat(send.badIndex()).isEqualTo(1);
            assertThat(send.durationNanos()).isPositive();
        }
    }

    @Test
    void errState_flushesPostedReceives() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            postRecv(lb.b, 31, 0, 64);
            lb.b.qp.modify(QpAttr.builder().qpState(QpState.ERR));
            WorkCompletion flushed = Loopback.pollAll(lb.b.cq, wcs, 1, WAIT)[0];
            assertThat(flushed.wrId()).isEqualTo(31);
            assertThat(flushed.status()).isEqualTo(WcStatus.WR_FLUSH_ERR);
            assertThat(flushed.status().text()).isEqualTo("Work Request Flushed Error");
        }
    }

    @Test
    void udSend_throughAnAddressHandle() {
        try (Loopback lb = Loopback.connected(soft, QpType.UD)) {
            postRecv(lb.b, 50, 0, 40 + 64); // UD receives start with 40 bytes of GRH
            AddressHandle ah = lb.a.pd.createAh(AhAttr.roce(lb.b.gid, lb.a.gidIndex, Loopback.PORT));
            put(lb.a.mr.buffer(), 0, "datagram");
            send.clear().add(51, WrOpcode.SEND, SIGNALED).sge(lb.a.mr, 0, 8)
                    .ud(ah, lb.b.qp.qpNum(), Loopback.QKEY);
            assertThat(send.ahHandle(0)).isEqualTo(ah.handle());
            assertThat(lb.a.qp.postSend(send)).isZero();
            assertThat(Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0].status()).isEqualTo(WcStatus.SUCCESS);

            WorkCompletion got = Loopback.pollAll(lb.b.cq, wcs, 1, WAIT)[0];
            assertThat(got.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(got.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(got.byteLen()).isEqualTo(40 + 8);
            assertThat(got.srcQp()).isEqualTo(lb.a.qp.qpNum());
            assertThat(got.hasFlag(WcFlag.GRH)).isTrue();
            assertThat(get(lb.b.mr.buffer(), 40, 8)).isEqualTo("datagram");
            ah.destroy();
        }
    }

    @Test
    void completionChannel_signalsTheArmedCq() {
        Context ctxA = soft.a().open();
        CompletionChannel channel = ctxA.createCompChannel();
        try (Loopback lb = Loopback.connectedWithChannel(soft, ctxA, channel)) {
            assertThat(channel.getCqEvent(Duration.ofMillis(50))).as("nothing armed, nothing completed").isEmpty();
            lb.a.cq.reqNotify(false);
            postRecv(lb.a, 60, 0, 64);
            send.clear().add(61, WrOpcode.SEND, SIGNALED).sge(lb.b.mr, 0, 4);
            assertThat(lb.b.qp.postSend(send)).isZero();

            Optional<CqEvent> event = channel.getCqEvent(WAIT);
            assertThat(event).isPresent();
            assertThat(event.get().cq()).isSameAs(lb.a.cq);
            assertThat(lb.a.cq.unackedEvents()).isEqualTo(1);
            assertThat(lb.a.cq.ackEvents(1).durationNanos()).isPositive();
            assertThat(lb.a.cq.unackedEvents()).isZero();
            assertThat(Loopback.pollAll(lb.a.cq, wcs, 1, WAIT)[0].wrId()).isEqualTo(60);
            lb.a.cq.reqNotify(false);
        }
        channel.destroy();
    }

    @Test
    void asyncEventWait_endsAtOnceWhenWoken() throws Exception {
        try (Loopback lb = Loopback.connected(soft, QpType.RC); AsyncWakeup wakeup = AsyncWakeup.open()) {
            assertThat(lb.a.ctx.tryGetAsyncEvent(Duration.ofMillis(20), wakeup).orThrow()).isEmpty();   // not woken: times out
            Thread waker = new Thread(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                wakeup.wake();
            });
            long start = System.nanoTime();
            waker.start();
            Optional<IbvAsyncEvent> woken = lb.a.ctx.tryGetAsyncEvent(Duration.ofSeconds(120), wakeup).orThrow();
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            waker.join();
            assertThat(woken).isEmpty();
            assertThat(waitedMs).as("the wake-up ended the 120 s wait").isLessThan(60_000);
            start = System.nanoTime();
            assertThat(lb.a.ctx.tryGetAsyncEvent(Duration.ofSeconds(120), wakeup).orThrow()).isEmpty();   // stays woken
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(60_000);
            // an event that is there is read, woken or not
            lb.a.qp.modify(QpAttr.builder().qpState(QpState.SQD).enSqdAsyncNotify(1));
            IbvAsyncEvent drained = lb.a.ctx.getAsyncEvent(WAIT).orElseThrow();
            assertThat(drained.eventType()).isEqualTo(EventType.SQ_DRAINED);
        }
    }

    @Test
    void asyncWakeup_closedWakesNothingAndWakeAfterCloseIsHarmless() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            AsyncWakeup wakeup = AsyncWakeup.open();
            wakeup.close();
            wakeup.wake();
            wakeup.close();
            assertThat(lb.a.ctx.tryGetAsyncEvent(Duration.ofMillis(20), wakeup).orThrow()).isEmpty();
        }
    }

    @Test
    void asyncEvent_sqDrainedAfterRtsToSqd() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            assertThat(lb.a.ctx.getAsyncEvent(Duration.ofMillis(20))).isEmpty();
            lb.a.qp.modify(QpAttr.builder().qpState(QpState.SQD).enSqdAsyncNotify(1));
            IbvAsyncEvent event = lb.a.ctx.getAsyncEvent(WAIT).orElseThrow();
            assertThat(event.eventType()).isEqualTo(EventType.SQ_DRAINED);
            assertThat(event.elementHandle()).isEqualTo(lb.a.qp.handle());
            assertThat(event.qpNum()).isEqualTo(lb.a.qp.qpNum());
            assertThat(lb.a.qp.query().attr().qpState()).isEqualTo(QpState.SQD);
        }
    }

    @Test
    void listener_seesThePostsAndPolls() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            RecordingListener rec = new RecordingListener();
            lb.a.ctx.setListener(rec);
            lb.b.ctx.setListener(rec);
            postRecv(lb.b, 70, 0, 64);
            send.clear().add(71, WrOpcode.SEND, SIGNALED).sge(lb.a.mr, 0, 4);
            lb.a.qp.postSend(send);
            Loopback.pollAll(lb.a.cq, wcs, 1, WAIT);
            assertThat(rec.dataPath).contains(
                    "post_recv qp=" + lb.b.qp.qpNum() + " n=1 ret=0",
                    "post_send qp=" + lb.a.qp.qpNum() + " n=1 ret=0 wr_id=71 dur>0=true",
                    "poll_cq n=1 wr_id=71");
            lb.a.ctx.setListener(null);
            lb.b.ctx.setListener(null);
        }
    }
}
