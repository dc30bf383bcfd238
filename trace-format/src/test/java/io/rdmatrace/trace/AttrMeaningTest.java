package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrKind;
import io.rdmatrace.trace.model.AttrMeaning;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class AttrMeaningTest {
    @Test
    void identifiersSecretsAndMeasurementsAreNamed() {
        assertThat(Attr.QP.meaning()).isEqualTo(AttrMeaning.HANDLE);
        assertThat(Attr.ELEMENT.meaning()).isEqualTo(AttrMeaning.HANDLE);
        assertThat(Attr.REMOTE_ADDR.meaning()).isEqualTo(AttrMeaning.ADDRESS);
        assertThat(Attr.RKEY.meaning()).isEqualTo(AttrMeaning.KEY);
        assertThat(Attr.DEST_QP_NUM.meaning()).isEqualTo(AttrMeaning.QPN);
        assertThat(Attr.SQ_PSN.meaning()).isEqualTo(AttrMeaning.PSN);
        assertThat(Attr.DGID.meaning()).isEqualTo(AttrMeaning.GID);
        assertThat(Attr.NODE_GUID.meaning()).isEqualTo(AttrMeaning.GUID);
        assertThat(Attr.MESSAGE.meaning()).isEqualTo(AttrMeaning.TEXT);
        assertThat(Attr.DURATION.meaning()).isEqualTo(AttrMeaning.MEASUREMENT);
        assertThat(Attr.PATH_MTU.meaning()).isEqualTo(AttrMeaning.BEHAVIOUR);
        assertThat(Attr.PATH_MTU.meaning().differsPerRun()).isFalse();
        assertThat(Attr.QP_NUM.meaning().differsPerRun()).isTrue();
    }

    @Test
    void everyQpnAndPsnKindHasThatMeaning() {
        Set<AttrMeaning> numbers = EnumSet.of(AttrMeaning.QPN, AttrMeaning.PSN);
        for (Attr a : Attr.values()) {
            if (a.kind() == AttrKind.QPN24 || a.kind() == AttrKind.PSN24) {
                assertThat(numbers).as(a.name()).contains(a.meaning());
            }
            if (a.kind() == AttrKind.GUID) {
                assertThat(a.meaning()).as(a.name()).isEqualTo(AttrMeaning.GUID);
            }
        }
    }
}
