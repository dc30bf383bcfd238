package io.rdmatrace.verbs;

import java.util.EnumSet;
import java.util.Set;

/** {@code enum ibv_access_flags}: MR and QP access rights, combined as an int bit mask. */
public enum AccessFlag implements VerbsEnum {
    LOCAL_WRITE(0x1), REMOTE_WRITE(0x2), REMOTE_READ(0x4), REMOTE_ATOMIC(0x8), MW_BIND(0x10),
    ZERO_BASED(0x20), ON_DEMAND(0x40), HUGETLB(0x80), FLUSH_GLOBAL(0x100), FLUSH_PERSISTENT(0x200),
    RELAXED_ORDERING(1 << 20);

    private final int value;

    AccessFlag(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    @Override
    public String ibvName() {
        return "IBV_ACCESS_" + name();
    }

    /** The bit mask of these flags. */
    public static int bits(AccessFlag... flags) {
        int bits = 0;
        for (AccessFlag f : flags) {
            bits |= f.value;
        }
        return bits;
    }

    /** The known flags in a mask (unknown bits are dropped; keep the int for those). */
    public static Set<AccessFlag> of(int bits) {
        EnumSet<AccessFlag> set = EnumSet.noneOf(AccessFlag.class);
        for (AccessFlag f : values()) {
            if ((bits & f.value) != 0) {
                set.add(f);
            }
        }
        return set;
    }
}
