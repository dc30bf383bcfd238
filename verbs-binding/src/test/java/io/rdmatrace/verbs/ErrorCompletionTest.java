package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The classic bring-up mistakes, seen through the Java binding as the completion status a real
 * device reports: no receive posted, PSNs that do not line up, a write to an MR without remote
 * write. (CQ overflow and link-MTU drop are covered in softverbs' C tests, test_sv_errors.c.)
 */
class ErrorCompletionTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int SIGNALED = SendFlag.bits(SendFlag.SIGNALED);

    private static SoftDevices soft;

    private final SendBatch send = new SendBatch(4, 4);
    private final CompletionBatch wcs = new CompletionBatch(8);

    @BeforeAll
    static void devices() {
        soft = SoftDevices.open("ec");
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
        wcs.close();
    }

    /** A and B up to RTS against each other; {@code aRts} and {@code bRtr} may inject a fault. */
    private static void bringUp(Loopback.Side a, Loopback.Side b, QpAttr.Builder aRts, QpAttr.Builder bRtr) {
        a.qp.modify(Loopback.init(QpType.RC));
        b.qp.modify(Loopback.init(QpType.RC));
        a.qp.modify(Loopback.rtr(QpType.RC, a, b));
        b.qp.modify(bRtr);
        a.qp.modify(aRts);
        b.qp.modify(Loopback.rts(QpType.RC, b));
    }

    private WorkCompletion sendOne(Loopback.Side from, WrOpcode opcode, long remoteAddr, int rkey) {
        send.clear().add(7, opcode, SIGNALED).sge(from.mr, 0, 64);
        if (opcode == WrOpcode.RDMA_WRITE) {
            send.rdma(remoteAddr, rkey);
        }
        assertThat(from.qp.postSend(send)).isZero();
        return Loopback.pollAll(from.cq, wcs, 1, WAIT)[0];
    }

    @Test
    void sendWithoutPostedReceive_andRnrRetryZero_isRnrRetryExceeded() {
        try (Loopback.Side a = new Loopback.Side(soft.a(), soft.ipA, QpType.RC);
             Loopback.Side b = new Loopback.Side(soft.b(), soft.ipB, QpType.RC)) {
            bringUp(a, b, Loopback.rts(QpType.RC, a).rnrRetry(0), Loopback.rtr(QpType.RC, b, a));

            WorkCompletion wc = sendOne(a, WrOpcode.SEND, 0, 0);

            assertThat(wc.status()).isEqualTo(WcStatus.RNR_RETRY_EXC_ERR);
            assertThat(wc.wrId()).isEqualTo(7);
            assertThat(a.qp.query().attr().qpState()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void senderAheadOfTheResponderPsn_isTransportRetryExceeded() {
        try (Loopback.Side a = new Loopback.Side(soft.a(), soft.ipA, QpType.RC);
             Loopback.Side b = new Loopback.Side(soft.b(), soft.ipB, QpType.RC)) {
            QpAttr.Builder aRts = Loopback.rts(QpType.RC, a).timeout(8).retryCnt(1);
            // B expects A's PSN minus one: every packet A sends is "ahead" and NAKed as out of sequence
            QpAttr.Builder bRtr = Loopback.rtr(QpType.RC, b, a).rqPsn(0x1000 + a.qp.qpNum() - 1);
            bringUp(a, b, aRts, bRtr);

            WorkCompletion wc = sendOne(a, WrOpcode.SEND, 0, 0);

            assertThat(wc.status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
            assertThat(a.qp.query().attr().qpState()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void rdmaWriteToAnMrWithoutRemoteWrite_isRemoteAccessError() {
        try (Loopback.Side a = new Loopback.Side(soft.a(), soft.ipA, QpType.RC);
             Loopback.Side b = new Loopback.Side(soft.b(), soft.ipB, QpType.RC);
             NativeMemory target = NativeMemory.allocate(4096);
             MemoryRegion readOnly = b.pd.regMr(target, AccessFlag.bits(AccessFlag.LOCAL_WRITE))) {
            bringUp(a, b, Loopback.rts(QpType.RC, a), Loopback.rtr(QpType.RC, b, a));

            WorkCompletion wc = sendOne(a, WrOpcode.RDMA_WRITE, readOnly.address(), readOnly.rkey());

            assertThat(wc.status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(wc.status().text()).isEqualTo("remote access error");
        }
    }
}
