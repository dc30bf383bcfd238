package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.QpFieldAttrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.abi.QpField;
import org.junit.jupiter.api.Test;

class QpFieldAttrsTest {

    @Test
    void everyRecordedFieldResolvesToAnAttributeOfItsKind() {
        assertThat(QpFieldAttrs.attr(QpField.MAX_DEST_RD_ATOMIC)).isEqualTo(Attr.MAX_DEST_RD_ATOMIC);
        assertThat(QpFieldAttrs.attr(QpField.AH_PORT_NUM)).isEqualTo(Attr.AH_PORT_NUM);
        assertThat(QpFieldAttrs.attr(QpField.AH_DGID)).isEqualTo(Attr.DGID);
        assertThat(QpFieldAttrs.attr(QpField.CAP_MAX_SEND_WR)).isEqualTo(Attr.MAX_SEND_WR);
        for (QpField f : QpField.all()) {
            assertThat(QpFieldAttrs.attr(f) == null).as("%s", f).isEqualTo(f.traceAttr() == null);
        }
    }

    @Test
    void recordedIsInAscendingCodeOrder() {
        int last = 0;
        for (QpField f : QpFieldAttrs.recorded()) {
            assertThat(QpFieldAttrs.attr(f).code()).isGreaterThan(last);
            last = QpFieldAttrs.attr(f).code();
        }
        assertThat(QpFieldAttrs.columns()).contains("qp_state", "min_rnr_timer", "dgid", "max_inline_data");
    }
}
