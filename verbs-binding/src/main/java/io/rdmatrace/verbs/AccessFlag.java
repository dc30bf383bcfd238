package io.rdmatrace.verbs;

import io.rdmatrace.abi.IbvEnum;
import java.util.EnumSet;
import java.util.Set;

/** {@code enum ibv_access_flags}: MR and QP access rights, combined as an int bit mask. */
public enum AccessFlag implements VerbsEnum {
    LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, MW_BIND,
    ZERO_BASED, ON_DEMAND, HUGETLB, FLUSH_GLOBAL, FLUSH_PERSISTENT,
    RELAXED_ORDERING;

    /** From the verbs ABI model, by the C name ({@link #ibvName()}); a constant libibverbs does not define is -1. */
    private final int value = IbvEnum.ACCESS_FLAGS.value(ibvName(), -1);

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
