package io.rdmatrace.capture.run;

import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.verbs.AddressHandle;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.QueuePair;

/**
 * One connection's resources and values. Its buffer is {@code [receive slot 0][receive slot 1][send area]}:
 * receive slots of --size bytes (plus 40 bytes of GRH room on UD), then the send area (--size bytes: the
 * pattern to send, or to be read by the peer). The whole buffer is one MR and is advertised: the peer
 * RDMA-writes into our receive slot 0 (the start) and RDMA-reads our send area (the last --size bytes).
 * Receive WR k lands in slot k % slots: two slots are enough for SENDs, since the peer sends message
 * i+1 only after it received our message i, which we send only after checking its message i-1.
 */
final class QpSlot {
    /** UD receives carry a 40-byte GRH (or IPv4 header padding) before the payload. */
    static final int UD_GRH_BYTES = 40;

    final int index;
    final int recvSlots;
    final int recvLength;
    final int sendOffset;
    final int sendLength;
    NativeMemory memory;
    MemoryRegion mr;
    CompletionQueue cq;
    QueuePair qp;
    AddressHandle ah;
    /** The sq_psn this QP really starts with. */
    int sqPsn;
    /** What we told the peer (may lie: --advertise-psn). */
    int advertisedPsn;
    QpParams peer;
    /** The path MTU this end programs (enum ibv_mtu), once the exchange negotiated it. */
    int pathMtu;
    int recvsPosted;
    int sendsPosted;
    int sendsCompleted;
    int recvsCompleted;
    /** Completions already accounted for by earlier poll steps (a poll may return the next iteration's too). */
    int sendsClaimed;
    int recvsClaimed;
    /** byte_len of the last receive completion per receive slot. */
    final int[] recvBytes;

    QpSlot(int index, int size, boolean ud, int recvSlots) {
        this.index = index;
        this.recvSlots = recvSlots;
        this.recvLength = size + (ud ? UD_GRH_BYTES : 0);
        this.sendOffset = recvSlots * recvLength;
        this.sendLength = size;
        this.recvBytes = new int[recvSlots];
    }

    /** Where receive WR number {@code k} (and iteration k's SEND) lands. */
    int recvOffset(long k) {
        return (int) (k % recvSlots) * recvLength;
    }

    int bufferBytes() {
        return sendOffset + sendLength;
    }
}
