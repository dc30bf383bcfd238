package io.rdmatrace.trace.names;

import java.util.Map;
import java.util.TreeMap;

/**
 * How an {@code AttrKind.ENUM} or {@code AttrKind.FLAGS} value is rendered: a table of the
 * libibverbs constant names. One table per C enum, so a value prints the way a C programmer
 * would grep for it ({@code IBV_QPS_RTS}, {@code IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE}).
 */
public final class ValueNames {

    private final String title;
    private final boolean flags;
    private final TreeMap<Long, String> names;

    private ValueNames(String title, boolean flags, Map<Long, String> names) {
        this.title = title;
        this.flags = flags;
        this.names = new TreeMap<>(names);
    }

    /** A table for a C enum: each value has one name. */
    public static ValueNames enumeration(String title, Object... valueNamePairs) {
        return new ValueNames(title, false, pairs(valueNamePairs));
    }

    /** A table for a C flag set: each value is one bit. */
    public static ValueNames flags(String title, Object... bitNamePairs) {
        Map<Long, String> m = pairs(bitNamePairs);
        for (long bit : m.keySet()) {
            if (Long.bitCount(bit) != 1) {
                throw new IllegalArgumentException(title + ": flag value is not a single bit: " + bit);
            }
        }
        return new ValueNames(title, true, m);
    }

    private static Map<Long, String> pairs(Object[] valueNamePairs) {
        if (valueNamePairs.length % 2 != 0) {
            throw new IllegalArgumentException("value/name pairs expected");
        }
        Map<Long, String> m = new TreeMap<>();
        for (int i = 0; i < valueNamePairs.length; i += 2) {
            long value = ((Number) valueNamePairs[i]).longValue();
            String name = (String) valueNamePairs[i + 1];
            if (m.put(value, name) != null) {
                throw new IllegalArgumentException("duplicate value " + value + " (" + name + ")");
            }
        }
        return m;
    }

    /** The C type this table names, e.g. {@code enum ibv_qp_state}. */
    public String title() {
        return title;
    }

    public boolean isFlags() {
        return flags;
    }

    /** The name of one enum value or one flag bit, or null when the table does not know it. */
    public String nameOf(long value) {
        return names.get(value);
    }

    /** Every known (value, name) pair in ascending value order. */
    public Map<Long, String> entries() {
        return java.util.Collections.unmodifiableSortedMap(names);
    }

    /**
     * Renders a value: an enum as its name (unknown values as {@code UNKNOWN(n)}), flags as the
     * names of the set bits joined by '|' with unknown leftover bits in hex, 0 as {@code 0}.
     */
    public String render(long value) {
        if (!flags) {
            String n = names.get(value);
            return n != null ? n : "UNKNOWN(" + value + ")";
        }
        if (value == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder();
        long rest = value;
        for (Map.Entry<Long, String> e : names.entrySet()) {
            long bit = e.getKey();
            if ((value & bit) != 0) {
                if (sb.length() > 0) {
                    sb.append('|');
                }
                sb.append(e.getValue());
                rest &= ~bit;
            }
        }
        if (rest != 0) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append("0x").append(Long.toHexString(rest));
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return title;
    }
}
