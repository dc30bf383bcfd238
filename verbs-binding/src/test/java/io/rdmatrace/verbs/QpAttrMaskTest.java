package io.rdmatrace.verbs;

import static io.rdmatrace.verbs.QpAttrField.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QpAttrMaskTest {

    @Test
    void rcPingpongMasks_haveTheirKnownValues() {
        assertThat(QpAttrMask.of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS).bits()).isEqualTo(0x39);
        assertThat(QpAttrMask.of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER).bits())
                .isEqualTo(0x129181);
        assertThat(QpAttrMask.of(STATE, TIMEOUT, RETRY_CNT, RNR_RETRY, SQ_PSN, MAX_QP_RD_ATOMIC).bits())
                .isEqualTo(0x12E01);
    }

    @Test
    void rawBits_keepUnknownBitsAndPrintThem() {
        QpAttrMask mask = QpAttrMask.ofBits(0x39 | (1 << 22));
        assertThat(mask.fields()).containsExactlyInAnyOrder(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS);
        assertThat(mask.unknownBits()).isEqualTo(1 << 22);
        assertThat(mask.toString()).isEqualTo("0x400039 (STATE|ACCESS_FLAGS|PKEY_INDEX|PORT|0x400000)");
    }

    @Test
    void withAndWithout() {
        QpAttrMask mask = QpAttrMask.of(STATE).with(PORT, QKEY);
        assertThat(mask.contains(QKEY)).isTrue();
        assertThat(mask.without(QKEY).contains(QKEY)).isFalse();
        assertThat(mask.without(QKEY).bits()).isEqualTo(0x21);
    }

    @Test
    void builder_tracksTheMaskOfSetFields() {
        QpAttr.Builder b = QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(0);
        assertThat(b.mask().bits()).isEqualTo(0x39);
        QpAttr attr = b.build();
        assertThat(attr.qpState()).isEqualTo(QpState.INIT);
        assertThat(attr.portNum()).isEqualTo(1);
        assertThat(attr.pathMtu()).isEqualTo(Mtu.INVALID);

        QpAttr.Builder alt = QpAttr.builder().altPortNum(1).altTimeout(14).altPkeyIndex(0).sqDraining(1);
        assertThat(alt.mask().fields()).containsExactly(ALT_PATH);
        assertThat(attr.toBuilder().mask()).isEqualTo(QpAttrMask.NONE);
        assertThat(attr.toBuilder().build()).isEqualTo(attr);
    }
}
