package io.rdmatrace.capture.oob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Payload layouts: every message survives a round trip, edge values included, and bad payloads are MALFORMED. */
class OobCodecTest {

    @Test
    void roundTrip_everyMessageType() throws OobException {
        byte[] gid = new byte[16];
        for (int i = 0; i < 16; i++) {
            gid[i] = (byte) (0xF0 + i);
        }
        List<OobMessage> all = List.of(
                new OobMessage.Hello("höst-ä", OobRole.CONNECT, 1000, new byte[16], true),
                new OobMessage.Auth(),
                // edge values: max QPN and PSN, address >= 2^63, rkey with the top bit set, u16 maxima
                new OobMessage.Params(new QpParams(999, 0xFFFFFF, 0xFFFF, gid, 0xFFFF, 0xFFFFFF, 5, 0xFFFF_FFFF_FFFF_F000L,
                        0x8000_0001, Long.MAX_VALUE, 0xFFFF, 4)),
                new OobMessage.Barrier("rts"),
                new OobMessage.BarrierAck("rts"),
                new OobMessage.Done(false, "TC04 FAIL"),
                new OobMessage.Error(""));
        for (OobMessage m : all) {
            assertThat(OobCodec.decode(m.typeCode(), OobCodec.encode(m))).isEqualTo(m);
        }
    }

    @Test
    void decode_shortParams_isMalformed() {
        byte[] full = OobCodec.encode(new OobMessage.Params(OobTestPeers.params(0, 17, 1)));
        byte[] shortened = java.util.Arrays.copyOf(full, full.length - 1);
        OobException e = catchThrowableOfType(OobException.class, () -> OobCodec.decode(OobMessage.Params.TYPE, shortened));
        assertThat(e.kind()).isEqualTo(OobException.Kind.MALFORMED);
        assertThat(e.getMessage()).contains("ends early");
    }

    @Test
    void decode_outOfRangeMtu_isMalformed() {
        byte[] full = OobCodec.encode(new OobMessage.Params(OobTestPeers.params(0, 17, 1)));
        full[4 + 4 + 2 + 16 + 2 + 4] = 9; // path_mtu byte
        OobException e = catchThrowableOfType(OobException.class, () -> OobCodec.decode(OobMessage.Params.TYPE, full));
        assertThat(e.kind()).isEqualTo(OobException.Kind.MALFORMED);
        assertThat(e.getMessage()).contains("path_mtu");
    }

    @Test
    void decode_invalidUtf8_isMalformed() {
        byte[] bad = {0, 2, (byte) 0xC3, (byte) 0x28};
        OobException e = catchThrowableOfType(OobException.class, () -> OobCodec.decode(OobMessage.Error.TYPE, bad));
        assertThat(e.kind()).isEqualTo(OobException.Kind.MALFORMED);
    }

    @Test
    void decode_stringLongerThanPayload_isMalformed() {
        byte[] bad = {0x7F, 0x7F, 'a'};
        OobException e = catchThrowableOfType(OobException.class, () -> OobCodec.decode(OobMessage.Barrier.TYPE, bad));
        assertThat(e.kind()).isEqualTo(OobException.Kind.MALFORMED);
    }
}
