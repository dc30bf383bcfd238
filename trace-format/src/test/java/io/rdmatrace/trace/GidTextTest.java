package io.rdmatrace.trace;

import io.rdmatrace.trace.names.GidText;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GidTextTest {
    private static byte[] mapped(int a, int b, int c, int d) {
        byte[] raw = new byte[16];
        raw[10] = (byte) 0xff;
        raw[11] = (byte) 0xff;
        raw[12] = (byte) a;
        raw[13] = (byte) b;
        raw[14] = (byte) c;
        raw[15] = (byte) d;
        return raw;
    }

    @Test
    void formatsCanonically() {
        assertThat(GidText.format(mapped(127, 0, 0, 1))).isEqualTo("::ffff:127.0.0.1");
        assertThat(GidText.format(new byte[16])).isEqualTo("::");
        byte[] linkLocal = GidText.parse("fe80:0:0:0:0202:c9ff:fe03:0001");
        assertThat(GidText.format(linkLocal)).isEqualTo("fe80::202:c9ff:fe03:1");
        // RFC 5952 4.2.2: a single zero group stays
        assertThat(GidText.format(GidText.parse("1:0:2:3:4:5:6:7"))).isEqualTo("1:0:2:3:4:5:6:7");
        // the longest run wins, the first of equal runs
        assertThat(GidText.format(GidText.parse("1:0:0:2:0:0:0:3"))).isEqualTo("1:0:0:2::3");
        assertThat(GidText.format(GidText.parse("1:0:0:2:3:0:0:4"))).isEqualTo("1::2:3:0:0:4");
    }

    @Test
    void parsesEveryFormAndRejectsNonGids() {
        assertThat(GidText.parse("::ffff:127.0.0.1")).isEqualTo(mapped(127, 0, 0, 1));
        assertThat(GidText.parse("0:0:0:0:0:ffff:7f00:1")).isEqualTo(mapped(127, 0, 0, 1));
        for (String bad : new String[] {"", "1.2.3.4", "1::2::3", "1:2:3:4:5:6:7", "::ffff:1.2.3.256", "g::1", "12345::"}) {
            assertThat(GidText.parse(bad)).as(bad).isNull();
        }
        assertThat(GidText.bytes(" ::ffff:10.0.0.2 ")).isEqualTo(mapped(10, 0, 0, 2));
        assertThatThrownBy(() -> GidText.bytes("nope")).hasMessageContaining("not a GID: 'nope'");
        assertThatThrownBy(() -> GidText.format(new byte[4])).hasMessageContaining("16 bytes");
    }

    @Test
    void halvesAndClasses() {
        byte[] b = GidText.parse("fe80::202:c9ff:fe03:1");
        assertThat(GidText.isLinkLocal(b)).isTrue();
        assertThat(GidText.isIpv4Mapped(b)).isFalse();
        assertThat(GidText.half(b, 0)).isEqualTo(0xfe80_0000_0000_0000L);
        assertThat(GidText.half(b, 8)).isEqualTo(0x0202_c9ff_fe03_0001L);
        GidText.putHalf(b, 8, 7);
        assertThat(GidText.format(b)).isEqualTo("fe80::7");
        assertThat(GidText.isZero(new byte[16])).isTrue();
    }
}
