package io.rdmatrace.softverbs;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Datagrams no RoCE device should accept, made from a fixed seed: empty, shorter than a BTH,
 * random garbage, wrong transport version, unknown opcodes, headers longer than the datagram,
 * impossible pad counts, lengths that are not a multiple of 4, a bad ICRC, and sizes above any
 * link MTU up to the largest UDP datagram. Each is aimed at a plausible QP number.
 */
final class HostileDatagrams {
    /** What a datagram is, so a failure can say which kind broke the device. */
    enum Kind {
        EMPTY, SHORTER_THAN_BTH, BTH_ONLY, GARBAGE, BAD_TVER, UNKNOWN_OPCODE, HEADER_LONGER_THAN_DATAGRAM,
        PAD_LARGER_THAN_PAYLOAD, NOT_MULTIPLE_OF_4, BAD_ICRC, OVERSIZED, HUGE
    }

    record Datagram(Kind kind, byte[] bytes) {
    }

    private static final int BTH_LEN = 12;
    private static final int RC_SEND_ONLY = 0x04;
    private static final int RC_RDMA_WRITE_ONLY = 0x0A;
    private static final int[] UNKNOWN_OPCODES = {0x15, 0x18, 0x1F, 0x2C, 0x40, 0x45, 0x63, 0x66, 0x80, 0xFF};
    /** softverbs hands out QP numbers from 17 as rxe does; hit those and some random ones. */
    private static final int FIRST_QPN = 17;

    private final SplittableRandom random;

    HostileDatagrams(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** `count` datagrams cycling through every kind. */
    List<Datagram> make(int count) {
        List<Datagram> out = new ArrayList<>(count);
        Kind[] kinds = Kind.values();
        for (int i = 0; i < count; i++) {
            out.add(make(kinds[i % kinds.length]));
        }
        return out;
    }

    Datagram make(Kind kind) {
        switch (kind) {
            case EMPTY:
                return new Datagram(kind, new byte[0]);
            case SHORTER_THAN_BTH:
                return new Datagram(kind, randomBytes(1 + random.nextInt(BTH_LEN - 1)));
            case BTH_ONLY:
                return new Datagram(kind, bth(RC_SEND_ONLY, 0, 0));
            case GARBAGE:
                return new Datagram(kind, randomBytes(BTH_LEN + random.nextInt(1500)));
            case BAD_TVER:
                return new Datagram(kind, packet(RC_SEND_ONLY, 1 + random.nextInt(15), 0, 16));
            case UNKNOWN_OPCODE:
                return new Datagram(kind, packet(UNKNOWN_OPCODES[random.nextInt(UNKNOWN_OPCODES.length)], 0, 0, 16));
            case HEADER_LONGER_THAN_DATAGRAM:
                // RDMA WRITE ONLY needs BTH + 16-byte RETH + ICRC = 32 bytes; give it 20
                return new Datagram(kind, packet(RC_RDMA_WRITE_ONLY, 0, 0, 4));
            case PAD_LARGER_THAN_PAYLOAD:
                return new Datagram(kind, packet(RC_SEND_ONLY, 0, 3, 0));
            case NOT_MULTIPLE_OF_4:
                return new Datagram(kind, packet(RC_SEND_ONLY, 0, 0, 5 + 4 * random.nextInt(8)));
            case BAD_ICRC:
                return new Datagram(kind, packet(RC_SEND_ONLY, 0, 0, 64));
            case OVERSIZED:
                // above a 1500- and a 9000-byte link MTU
                return new Datagram(kind, packet(RC_SEND_ONLY, 0, 0, 9000 + 4 * random.nextInt(100)));
            case HUGE:
                return new Datagram(kind, packet(RC_SEND_ONLY, 0, 0, 65507 - BTH_LEN));
            default:
                throw new IllegalArgumentException(kind.toString());
        }
    }

    /** BTH with the given opcode, TVer and pad count, then `rest` random bytes (payload + "ICRC"). */
    private byte[] packet(int opcode, int tver, int pad, int rest) {
        byte[] b = new byte[BTH_LEN + rest];
        System.arraycopy(bth(opcode, tver, pad), 0, b, 0, BTH_LEN);
        for (int i = BTH_LEN; i < b.length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    private byte[] bth(int opcode, int tver, int pad) {
        byte[] b = new byte[BTH_LEN];
        int qpn = random.nextInt(4) == 0 ? random.nextInt(1 << 24) : FIRST_QPN + random.nextInt(4);
        int psn = random.nextInt(1 << 24);
        b[0] = (byte) opcode;
        b[1] = (byte) ((pad & 3) << 4 | (tver & 0xF));
        b[2] = (byte) 0xFF;
        b[3] = (byte) 0xFF;
        b[5] = (byte) (qpn >> 16);
        b[6] = (byte) (qpn >> 8);
        b[7] = (byte) qpn;
        b[8] = (byte) 0x80;
        b[9] = (byte) (psn >> 16);
        b[10] = (byte) (psn >> 8);
        b[11] = (byte) psn;
        return b;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }
}
