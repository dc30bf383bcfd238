package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GidTest {

    @Test
    void ipv4MappedGid_printsAndParsesBack() {
        Gid gid = Gid.ofIpv4(new byte[] {127, 0, 0, 1});
        assertThat(gid.toString()).isEqualTo("0000:0000:0000:0000:0000:ffff:7f00:0001");
        assertThat(gid.ipv4()).contains("127.0.0.1");
        assertThat(Gid.parse(gid.toString())).isEqualTo(gid);
        assertThat(gid.isZero()).isFalse();
    }

    @Test
    void linkLocalGid_hasNoIpv4() {
        Gid gid = Gid.parse("fe80:0000:0000:0000:0202:c9ff:fe03:0001");
        assertThat(gid.ipv4()).isEmpty();
        assertThat(gid.raw()[0]).isEqualTo((byte) 0xfe);
    }

    @Test
    void rawIsCopiedBothWays() {
        byte[] raw = new byte[16];
        Gid gid = Gid.of(raw);
        raw[0] = 1;
        assertThat(gid.isZero()).isTrue();
        gid.raw()[0] = 1;
        assertThat(gid).isEqualTo(Gid.ZERO);
    }

    @Test
    void badInput_isRejectedWithTheReason() {
        assertThatThrownBy(() -> Gid.of(new byte[4])).hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> Gid.parse("fe80::1")).hasMessageContaining("8 colon-separated groups");
    }
}
