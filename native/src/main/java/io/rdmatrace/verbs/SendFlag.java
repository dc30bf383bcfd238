package io.rdmatrace.verbs;

/** {@code enum ibv_send_flags} of a send work request, combined as an int bit mask. */
public enum SendFlag implements VerbsEnum {
    FENCE(1), SIGNALED(2), SOLICITED(4), INLINE(8), IP_CSUM(16);

    private final int value;

    SendFlag(int value) {
        this.value = value;
    }

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
