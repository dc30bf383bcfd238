package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NativeLayoutTest {

    @ParameterizedTest
    @EnumSource(NativeLayout.class)
    void javaSlotNames_matchTheCHeader(NativeLayout layout) {
        JniLibrary.ensureLoaded();
        assertThat(layout.nativeNames()).containsExactlyElementsOf(layout.javaNames());
    }

    @Test
    void callBuffer_holdsTheLargestPayload() {
        int queryQp = Slots.PAYLOAD + Slots.QA_BLOCK + Slots.QpInit.values().length;
        assertThat(queryQp).isLessThan(CallBuffer.SLOTS);
        assertThat(Slots.PAYLOAD + Slots.DeviceAttr.values().length).isLessThan(CallBuffer.SLOTS);
    }
}
