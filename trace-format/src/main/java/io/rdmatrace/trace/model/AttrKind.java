package io.rdmatrace.trace.model;

/**
 * How an attribute value is typed and rendered, like JFR's {@code @Unsigned}/{@code @Timespan}
 * annotations. Every kind except {@link #TEXT} is carried in a {@code long}; the kind says how to
 * read those 64 bits.
 */
public enum AttrKind {
    /** An unsigned integer of at most 32 bits, printed in decimal. */
    U32(false, true),
    /** An unsigned 64-bit integer: values ≥ 2^63 are stored negative and print unsigned. */
    U64(false, true),
    /** A signed 64-bit integer. */
    I64(false, false),
    /** A 32-bit key or id that people read in hex (P_Key, Q_Key, lkey, rkey, imm_data, vendor id). */
    HEX32(false, true),
    /** A 64-bit pointer-sized value printed in hex: object handles and virtual addresses. */
    HEX64(false, true),
    /** A 64-bit GUID printed as {@code xxxx:xxxx:xxxx:xxxx} like ibv_devinfo. */
    GUID(false, true),
    /** A 24-bit packet sequence number (wraps at 0xFFFFFF), printed as {@code 0x%06x}. */
    PSN24(false, true),
    /** A 24-bit queue pair number, printed as {@code 0x%06x}. */
    QPN24(false, true),
    /** A C enum value; the attribute's {@code ValueNames} table gives the names. */
    ENUM(false, false),
    /** A C flag set; the attribute's {@code ValueNames} table names the bits. */
    FLAGS(false, true),
    /** A duration or time in nanoseconds. */
    NANOS(false, false),
    /** 0 or 1. */
    BOOL(false, true),
    /** A string: GIDs as canonical IPv6 text, firmware version, device name, messages. */
    TEXT(true, false);

    private final boolean text;
    private final boolean unsigned;

    AttrKind(boolean text, boolean unsigned) {
        this.text = text;
        this.unsigned = unsigned;
    }

    /** True for {@link #TEXT}: the value is a String, not a long. */
    public boolean isText() {
        return text;
    }

    /** True when the long must be read unsigned (a consumer mapping to SQL should use an unsigned or wider type). */
    public boolean isUnsigned() {
        return unsigned;
    }

    /** Renders a numeric value of this kind without a name table (ENUM/FLAGS fall back to decimal/hex). */
    String renderPlain(long v) {
        switch (this) {
            case U32:
            case U64:
                return Long.toUnsignedString(v);
            case HEX32:
            case HEX64:
            case FLAGS:
                return "0x" + Long.toHexString(v);
            case GUID:
                return guid(v);
            case PSN24:
            case QPN24:
                return String.format("0x%06x", v);
            case BOOL:
                return v != 0 ? "true" : "false";
            case NANOS:
                return v + " ns";
            default:
                return Long.toString(v);
        }
    }

    private static String guid(long v) {
        String hex = String.format("%016x", v);
        return hex.substring(0, 4) + ':' + hex.substring(4, 8) + ':' + hex.substring(8, 12) + ':' + hex.substring(12);
    }
}
