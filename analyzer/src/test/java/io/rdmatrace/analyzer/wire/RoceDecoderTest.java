package io.rdmatrace.analyzer.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pcap and pcapng files built byte by byte: the frame layer, the IP/UDP layers and the BTH/AETH fields. */
class RoceDecoderTest {

    /** An Ethernet/IPv4/UDP 4791 frame with a BTH (and an AETH when syndrome >= 0). */
    static byte[] frame(int opcode, int destQp, int psn, boolean ackReq, int syndrome) {
        ByteBuffer b = ByteBuffer.allocate(14 + 20 + 8 + 12 + (syndrome >= 0 ? 4 : 0) + 4).order(ByteOrder.BIG_ENDIAN);
        b.put(new byte[12]).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (b.capacity() - 14)).putInt(0).put((byte) 64).put((byte) 17)
                .putShort((short) 0).put(new byte[] {127, 9, 8, 1}).put(new byte[] {127, 9, 8, 2});
        b.putShort((short) 49152).putShort((short) 4791).putShort((short) (b.capacity() - 34)).putShort((short) 0);
        b.put((byte) opcode).put((byte) 0).putShort((short) 0xffff).putInt(destQp & 0xffffff)
                .putInt((ackReq ? 0x80000000 : 0) | (psn & 0xffffff));
        if (syndrome >= 0) {
            b.putInt((syndrome << 24) | 5);
        }
        return b.array();
    }

    static byte[] pcap(boolean nanos, byte[]... frames) {
        ByteBuffer b = ByteBuffer.allocate(24 + java.util.Arrays.stream(frames).mapToInt(f -> 16 + f.length).sum())
                .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(65535).putInt(1);
        int i = 0;
        for (byte[] f : frames) {
            b.putInt(1000 + i).putInt(nanos ? 5 : 7).putInt(f.length).putInt(f.length).put(f);
            i++;
        }
        return b.array();
    }

    static byte[] pcapng(byte[] frame) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer shb = ByteBuffer.allocate(28).order(ByteOrder.BIG_ENDIAN);
        shb.putInt(0x0a0d0d0a).putInt(28).putInt(0x1a2b3c4d).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        out.writeBytes(shb.array());
        // interface: Ethernet, if_tsresol 9 (ns)
        ByteBuffer idb = ByteBuffer.allocate(32).order(ByteOrder.BIG_ENDIAN);
        idb.putInt(1).putInt(32).putShort((short) 1).putShort((short) 0).putInt(65535)
                .putShort((short) 9).putShort((short) 1).put((byte) 9).put(new byte[3]).putInt(0).putInt(32);
        out.writeBytes(idb.array());
        int padded = (frame.length + 3) & ~3;
        int length = 32 + padded;
        ByteBuffer epb = ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
        long ts = 1_700_000_000_123_456_789L;
        epb.putInt(6).putInt(length).putInt(0).putInt((int) (ts >>> 32)).putInt((int) ts).putInt(frame.length)
                .putInt(frame.length).put(frame).put(new byte[padded - frame.length]).putInt(length);
        out.writeBytes(epb.array());
        return out.toByteArray();
    }

    @Test
    void pcap_sendAndNak_decodeBthAndAeth(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("a.pcap");
        Files.write(file, pcap(false, frame(0x04, 0x11, 0xbed0c3, true, -1), frame(0x11, 0x12, 0xbed0c2, false, 0x60)));
        List<RocePacket> packets = PcapReader.read(file).stream().map(RoceDecoder::decode).flatMap(java.util.Optional::stream).toList();
        assertThat(packets).hasSize(2);
        RocePacket send = packets.get(0);
        assertThat(send.frame()).isEqualTo(1);
        assertThat(send.tsNs()).isEqualTo(1000L * 1_000_000_000L + 7000);
        assertThat(send.srcIp()).isEqualTo("127.9.8.1");
        assertThat(send.dstIp()).isEqualTo("127.9.8.2");
        assertThat(RocePacket.opcodeName(send.opcode())).isEqualTo("RC_SEND_ONLY");
        assertThat(send.destQp()).isEqualTo(0x11);
        assertThat(send.psn()).isEqualTo(0xbed0c3);
        assertThat(send.ackReq()).isTrue();
        assertThat(send.aeth()).isNull();
        RocePacket nak = packets.get(1);
        assertThat(RocePacket.opcodeName(nak.opcode())).isEqualTo("RC_ACKNOWLEDGE");
        assertThat(nak.aeth()).isEqualTo("NAK PSN sequence error");
        assertThat(RocePacket.aethText(0x61)).isEqualTo("NAK invalid request");
        assertThat(RocePacket.aethText(0x2e)).isEqualTo("RNR NAK");
        assertThat(RocePacket.aethText(0x1f)).isEqualTo("ACK");
    }

    @Test
    void pcapNanosAndPcapng_timestamps(@TempDir Path dir) throws Exception {
        Path ns = dir.resolve("n.pcap");
        Files.write(ns, pcap(true, frame(0x04, 1, 2, false, -1)));
        assertThat(PcapReader.read(ns).get(0).tsNs()).isEqualTo(1000L * 1_000_000_000L + 5);
        Path ng = dir.resolve("a.pcapng");
        Files.write(ng, pcapng(frame(0x11, 0x000999, 0xfffffe, false, 0x00)));
        List<PcapReader.Frame> frames = PcapReader.read(ng);
        assertThat(frames).hasSize(1);
        assertThat(frames.get(0).tsNs()).isEqualTo(1_700_000_000_123_456_789L);
        RocePacket ack = RoceDecoder.decode(frames.get(0)).orElseThrow();
        assertThat(ack.destQp()).isEqualTo(0x999);
        assertThat(ack.psn()).isEqualTo(0xfffffe);
        assertThat(ack.aeth()).isEqualTo("ACK");
    }

    @Test
    void notRoce_isSkipped_andNotACapture_isRefused(@TempDir Path dir) throws Exception {
        byte[] other = frame(0x04, 1, 2, false, -1);
        other[36] = 0x00;
        other[37] = 53; // UDP destination port 53
        Path file = dir.resolve("dns.pcap");
        Files.write(file, pcap(false, other));
        assertThat(RoceDecoder.decode(PcapReader.read(file).get(0))).isEmpty();
        Path junk = dir.resolve("junk.pcap");
        Files.write(junk, new byte[64]);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PcapReader.read(junk))
                .hasMessageContaining("not a pcap or pcapng file");
    }
}
