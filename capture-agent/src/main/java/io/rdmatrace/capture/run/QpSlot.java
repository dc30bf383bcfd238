package io.rdmatrace.capture.run;

import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.verbs.AddressHandle;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.MemoryRegion;
import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.QueuePair;

/**
 * One connection's resources and values. Its buffer holds a send half (--size bytes, the pattern to
 * send or to be read) followed by a receive half (--size bytes, plus 40 bytes of GRH room on UD);
 * the whole buffer is registered as one MR and advertised, so the peer writes into our second half
 * and reads our first.
 */
final class QpSlot {
    /** UD receives carry a 40-byte GRH (or IPv4 header padding) before the payload. */
    static final int UD_GRH_BYTES = 40;

    final int index;
    final int sendOffset = 0;
    final int recvOffset;
    final int recvLength;
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
    /** byte_len of the last receive completion. */
    int lastRecvBytes;

    QpSlot(int index, int size, boolean ud) {
        this.index = index;
        this.recvOffset = size;
        this.recvLength = size + (ud ? UD_GRH_BYTES : 0);
    }

    int bufferBytes() {
        return recvOffset + recvLength;
    }
}
