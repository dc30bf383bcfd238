package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;

/** {@code enum ibv_send_flags} of a send work request, combined as an int bit mask. */
public enum SendFlag implements VerbsEnum {
    FENCE, SIGNALED, SOLICITED, INLINE, IP_CSUM;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.SEND_FLAGS.value(ibvName(), -1);

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_SEND_" + name();
    }

    /** The bit mask of these flags; compute it once, outside a hot loop. */
    public static int bits(SendFlag... flags) {
        int bits = 0;
        for (SendFlag f : flags) {
            bits |= f.value;
        }
        return bits;
    }
}
