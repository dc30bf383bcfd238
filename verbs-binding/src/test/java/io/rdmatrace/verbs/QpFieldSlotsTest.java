package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.QpMask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The verbs ABI model's ibv_qp_attr descriptors against the JNI slot lists (which NativeLayout checks
 * against layout.h at load): every slot of the QP_ATTR block and of both AH blocks belongs to exactly one
 * field, so the codec's loop over the descriptors carries the whole struct.
 */
class QpFieldSlotsTest {

    @Test
    void descriptorsCoverEveryQpAttrSlotOnce() {
        assertThat(slotsOf(QpField.Block.QP_ATTR)).containsExactlyInAnyOrderElementsOf(Slots.QP_ATTR);
    }

    @Test
    void descriptorsCoverEveryAhSlotOnceInBothAddressVectors() {
        List<String> ah = new ArrayList<>(names(Slots.AhAttr.values()));
        ah.remove("DGID_1"); // the second half of the GID that starts at DGID_0
        assertThat(slotsOf(QpField.Block.AH_ATTR)).containsExactlyInAnyOrderElementsOf(ah);
        assertThat(slotsOf(QpField.Block.ALT_AH_ATTR)).containsExactlyInAnyOrderElementsOf(ah);
    }

    @Test
    void maskBitsAreTheBindingsAndLibibverbs() {
        for (QpAttrField f : QpAttrField.values()) {
            assertThat(f.value()).isEqualTo(QpMask.valueOf(f.name()).bit());
        }
        assertThat(QpAttrField.values()).hasSameSizeAs(QpMask.values());
    }

    @Test
    void everyFieldRoundTripsThroughTheSlots() {
        QpAttr.Builder b = QpAttr.builder();
        int n = 1;
        for (QpField f : QpField.all()) {
            if (f.cType() == CType.GID) {
                byte[] raw = new byte[16];
                raw[15] = (byte) n;
                raw[0] = (byte) 0xfe;
                b.set(f, Gid.of(raw));
            } else {
                b.set(f, f.cType() == CType.U32 ? 0x8000_0000L + n : n);
            }
            n++;
        }
        QpAttr a = b.build();
        CallBuffer io = CallBuffer.acquire(Slots.QA_BLOCK);
        Codec.writeQpAttr(io, a);
        assertThat(Codec.readQpAttr(io)).isEqualTo(a);
        assertThat(a.get(QpField.RATE_LIMIT)).isEqualTo(0x8000_0000L + QpField.RATE_LIMIT.ordinal() + 1);
        assertThat(a.rateLimit()).isNegative(); // the typed accessor is C's int
    }

    private static List<String> slotsOf(QpField.Block block) {
        return QpField.all().stream().filter(f -> f.block() == block).map(QpField::slot).toList();
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }
}
