package io.rdmatrace.analyzer.load;

import org.apache.arrow.vector.types.pojo.ArrowType;

import io.rdmatrace.trace.model.Attr;

/** The DuckDB column types the base tables use, each with the Arrow type that feeds it. */
enum SqlType {
    BIGINT(new ArrowType.Int(64, true)),
    INTEGER(new ArrowType.Int(32, true)),
    SMALLINT(new ArrowType.Int(16, true)),
    BOOLEAN(ArrowType.Bool.INSTANCE),
    VARCHAR(ArrowType.Utf8.INSTANCE);

    private final ArrowType arrow;

    SqlType(ArrowType arrow) {
        this.arrow = arrow;
    }

    ArrowType arrow() {
        return arrow;
    }

    /**
     * The column type of an attribute. Enums and 24-bit PSNs/QPNs fit INTEGER (so differences
     * of two PSNs never overflow); every other number is BIGINT: unsigned 32-bit values need
     * 33 bits, and 64-bit handles/addresses ≥ 2^63 read negative (compare them, don't order them).
     */
    static SqlType of(Attr attr) {
        switch (attr.kind()) {
            case TEXT:
                return VARCHAR;
            case BOOL:
                return BOOLEAN;
            case ENUM:
            case PSN24:
            case QPN24:
                return INTEGER;
            default:
                return BIGINT;
        }
    }
}
