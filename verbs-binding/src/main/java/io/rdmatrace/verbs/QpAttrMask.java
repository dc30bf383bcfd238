package io.rdmatrace.verbs;

import java.util.EnumSet;
import java.util.Set;
import java.util.StringJoiner;

/**
 * An {@code ibv_qp_attr_mask}: a typed set of {@link QpAttrField}s over the real bit values.
 * Bits with no field (e.g. the kernel-internal 21..24) are kept, so a fault can be injected
 * with any raw mask ({@link #ofBits}).
 */
public record QpAttrMask(int bits) {

    public static final QpAttrMask NONE = new QpAttrMask(0);

    public static QpAttrMask of(QpAttrField... fields) {
        int bits = 0;
        for (QpAttrField f : fields) {
            bits |= f.value();
        }
        return new QpAttrMask(bits);
    }

    public static QpAttrMask ofBits(int bits) {
        return new QpAttrMask(bits);
    }

    public boolean contains(QpAttrField field) {
        return (bits & field.value()) != 0;
    }

    public QpAttrMask with(QpAttrField... fields) {
        return new QpAttrMask(bits | of(fields).bits);
    }

    public QpAttrMask without(QpAttrField field) {
        return new QpAttrMask(bits & ~field.value());
    }

    /** The named fields in this mask. */
    public Set<QpAttrField> fields() {
        EnumSet<QpAttrField> set = EnumSet.noneOf(QpAttrField.class);
        for (QpAttrField f : QpAttrField.values()) {
            if (contains(f)) {
                set.add(f);
            }
        }
        return set;
    }

    /** Bits that belong to no {@link QpAttrField}. */
    public int unknownBits() {
        return bits & ~of(QpAttrField.values()).bits;
    }

    /** {@code 0x39 (STATE|ACCESS_FLAGS|PKEY_INDEX|PORT)}. */
    @Override
    public String toString() {
        StringJoiner names = new StringJoiner("|", "(", ")");
        fields().forEach(f -> names.add(f.name()));
        if (unknownBits() != 0) {
            names.add(String.format("0x%x", unknownBits()));
        }
        return String.format("0x%x %s", bits, names);
    }
}
