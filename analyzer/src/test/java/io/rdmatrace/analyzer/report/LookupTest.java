package io.rdmatrace.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The report's QP numbers: what {@code String.format("0x%06x", qp)} printed, without a Formatter. */
class LookupTest {

    @Test
    void qpHex_padsToSixDigits() {
        assertThat(Lookup.qpHex(0x11L)).isEqualTo("0x000011");
        assertThat(Lookup.qpHex(0L)).isEqualTo("0x000000");
        assertThat(Lookup.qpHex(0xffffffL)).isEqualTo("0xffffff");
    }

    @Test
    void qpHex_longerNumbersWhole_nullEmpty() {
        assertThat(Lookup.qpHex(0x1234567L)).isEqualTo("0x1234567");
        assertThat(Lookup.qpHex(-1L)).isEqualTo(String.format("0x%06x", -1L));
        assertThat(Lookup.qpHex(null)).isEmpty();
    }
}
