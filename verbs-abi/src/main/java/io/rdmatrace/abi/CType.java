package io.rdmatrace.abi;

/** The C type of a struct field, with its width (what a value is truncated to when it reaches C). */
public enum CType {
    U8(1), U16(2), U32(4),
    /** A C enum: int-sized. */
    ENUM(4),
    /** {@code union ibv_gid}: 16 raw bytes in network order (two JNI slots). */
    GID(16);

    private final int bytes;

    CType(int bytes) {
        this.bytes = bytes;
    }

    public int bytes() {
        return bytes;
    }
}
