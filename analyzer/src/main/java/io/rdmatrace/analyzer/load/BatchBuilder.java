package io.rdmatrace.analyzer.load;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Fills one Arrow batch column by column. A value never set stays null, which is how an
 * attribute that was not recorded reaches SQL. Each {@link #reset(int)} allocates fresh
 * buffers: DuckDB may still hold the previous batch while it pulls the next one.
 */
final class BatchBuilder {
    private final VectorSchemaRoot root;
    private final FieldVector[] vectors;
    private final SqlType[] types;
    private int rows;
    private int capacity;

    /** Wraps a root whose fields are {@code columns}, in order (an ArrowReader owns and closes it). */
    BatchBuilder(VectorSchemaRoot root, List<Column> columns) {
        this.root = root;
        this.vectors = root.getFieldVectors().toArray(new FieldVector[0]);
        this.types = columns.stream().map(Column::type).toArray(SqlType[]::new);
        if (vectors.length != types.length) {
            throw new IllegalArgumentException("root has " + vectors.length + " fields, expected " + types.length);
        }
    }

    static Schema schemaOf(List<Column> columns) {
        List<Field> fields = new ArrayList<>();
        for (Column column : columns) {
            fields.add(new Field(column.name(), FieldType.nullable(column.type().arrow()), null));
        }
        return new Schema(fields);
    }

    VectorSchemaRoot root() {
        return root;
    }

    /** Drops the previous batch's buffers (their last reference may be DuckDB's) and allocates new ones. */
    void reset(int newCapacity) {
        root.clear();
        for (FieldVector vector : vectors) {
            vector.setInitialCapacity(newCapacity);
            vector.allocateNew();
        }
        rows = 0;
        capacity = newCapacity;
    }

    boolean full() {
        return rows >= capacity;
    }

    int rows() {
        return rows;
    }

    /** Starts a row and returns its index. */
    int nextRow() {
        return rows++;
    }

    void setLong(int column, int row, long value) {
        switch (types[column]) {
            case BIGINT:
                ((BigIntVector) vectors[column]).set(row, value);
                break;
            case INTEGER:
                ((IntVector) vectors[column]).set(row, (int) value);
                break;
            case SMALLINT:
                ((SmallIntVector) vectors[column]).set(row, (short) value);
                break;
            case BOOLEAN:
                ((BitVector) vectors[column]).set(row, value != 0 ? 1 : 0);
                break;
            default:
                throw new IllegalArgumentException("column " + vectors[column].getName() + " is " + types[column]);
        }
    }

    void setText(int column, int row, String value) {
        if (value != null) {
            ((VarCharVector) vectors[column]).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Seals the batch: the row count becomes visible to readers of {@link #root()}. */
    void seal() {
        for (FieldVector vector : vectors) {
            vector.setValueCount(rows);
        }
        root.setRowCount(rows);
    }
}
