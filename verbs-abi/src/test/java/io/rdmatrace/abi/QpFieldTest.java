package io.rdmatrace.abi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QpFieldTest {

    @Test
    void everyFieldHasOneSlotAndScenarioKeysAndTraceNamesAreUnique() {
        Set<String> slots = new HashSet<>();
        Set<String> keys = new HashSet<>();
        Set<String> attrs = new HashSet<>();
        for (QpField f : QpField.all()) {
            assertThat(slots.add(f.block() + "." + f.slot())).as("slot of %s", f).isTrue();
            if (f.scenarioKey() != null) {
                assertThat(keys.add(f.scenarioKey())).as("scenario key of %s", f).isTrue();
            }
            if (f.traceAttr() != null) {
                assertThat(attrs.add(f.traceAttr())).as("trace attribute of %s", f).isTrue();
            }
            assertThat(f.kind() == ValueKind.PEER_GID).as("%s: GIDs and only GIDs are 16 bytes", f)
                    .isEqualTo(f.cType() == CType.GID);
        }
    }

    @Test
    void byScenarioKey_acceptsKeysEnumNamesAndSingleFieldMaskNames() {
        assertThat(QpField.byScenarioKey("min_rnr_timer")).isEqualTo(QpField.MIN_RNR_TIMER);
        assertThat(QpField.byScenarioKey("ah.dgid")).isEqualTo(QpField.AH_DGID);
        assertThat(QpField.byScenarioKey("AH_DGID")).isEqualTo(QpField.AH_DGID);
        assertThat(QpField.byScenarioKey("IBV_QP_STATE")).isEqualTo(QpField.QP_STATE);
        assertThat(QpField.byScenarioKey("access-flags")).isEqualTo(QpField.QP_ACCESS_FLAGS);
        assertThat(QpField.byScenarioKey("port")).isEqualTo(QpField.PORT_NUM);
        assertThat(QpField.byScenarioKey("max_qp_rd_atomic")).isEqualTo(QpField.MAX_RD_ATOMIC);
        assertThat(QpField.byScenarioKey("dest_qpn")).isEqualTo(QpField.DEST_QP_NUM);
    }

    @Test
    void byScenarioKey_refusesFieldsWithoutKeyAndGroupMasks() {
        assertThatThrownBy(() -> QpField.byScenarioKey("sq_draining")).hasMessageContaining("unknown QP attribute")
                .hasMessageContaining("min_rnr_timer");
        assertThatThrownBy(() -> QpField.byScenarioKey("av")).hasMessageContaining("unknown QP attribute 'av'");
    }
}
