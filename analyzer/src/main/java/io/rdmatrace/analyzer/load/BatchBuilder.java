package io.rdmatrace.analyzer.load;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Fills one Arrow batch column by column. Rows are staged in small heap arrays (a chunk of
 * {@link #CHUNK} rows per column, small enough to stay in the CPU cache while rows are written
 * across all columns) and copied into the batch's Arrow buffers in bulk, one column at a time,
 * whenever the chunk fills. A value never set is NULL, which is how an attribute that was not
 * recorded reaches SQL; a column no row of a chunk set is not touched at all. Each batch gets
 * fresh Arrow buffers: DuckDB may still hold the previous one while it pulls the next.
 */
final class BatchBuilder {
    /** Rows staged on the heap before they are copied to Arrow (a multiple of 8: whole validity bytes). */
    static final int CHUNK = 2048;

    private final VectorSchemaRoot root;
    private final FieldVector[] vectors;
    private final SqlType[] types;
    private final long[][] values;
    private final String[][] texts;
    private final byte[][] validity;
    private final boolean[] used;
    private int rows;
    private int chunkRows;
    private int limit;
    /** A text column every row of the batch holds the same value in (-1: none), written when sealed. */
    private int constantColumn = -1;
    private byte[] constantValue;

    /** Wraps a root whose fields are {@code columns}, in order (an ArrowReader owns and closes it). */
    BatchBuilder(VectorSchemaRoot root, List<Column> columns) {
        this.root = root;
        this.vectors = root.getFieldVectors().toArray(new FieldVector[0]);
        this.types = columns.stream().map(Column::type).toArray(SqlType[]::new);
        if (vectors.length != types.length) {
            throw new IllegalArgumentException("root has " + vectors.length + " fields, expected " + types.length);
        }
        this.values = new long[types.length][];
        this.texts = new String[types.length][];
        this.validity = new byte[types.length][CHUNK / 8];
        this.used = new boolean[types.length];
        for (int c = 0; c < types.length; c++) {
            if (types[c] == SqlType.VARCHAR) {
                texts[c] = new String[CHUNK];
            } else {
                values[c] = new long[CHUNK];
            }
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

    /** Starts an empty batch of at most {@code maxRows} rows in fresh Arrow buffers. */
    void reset(int maxRows) {
        root.clear();
        for (FieldVector vector : vectors) {
            vector.setInitialCapacity(Math.max(maxRows, 1));
            vector.allocateNew();
        }
        rows = 0;
        chunkRows = 0;
        limit = maxRows;
        constantColumn = -1;
    }

    /** Gives every row of this batch {@code value} in text column {@code column} (set when the batch is sealed). */
    void setTextOfEveryRow(int column, String value) {
        if (types[column] != SqlType.VARCHAR) {
            throw new IllegalArgumentException("column " + vectors[column].getName() + " is " + types[column] + ", not text");
        }
        constantColumn = column;
        constantValue = value.getBytes(StandardCharsets.UTF_8);
    }

    boolean full() {
        return rows + chunkRows >= limit;
    }

    int rows() {
        return rows + chunkRows;
    }

    /** Starts a row and returns its index for {@link #setLong}/{@link #setText} (an index within the chunk). */
    int nextRow() {
        if (chunkRows == CHUNK) {
            flushChunk();
        }
        return chunkRows++;
    }

    void setLong(int column, int row, long value) {
        values[column][row] = value;
        validity[column][row >>> 3] |= (byte) (1 << (row & 7));
        used[column] = true;
    }

    void setText(int column, int row, String value) {
        if (value != null) {
            texts[column][row] = value;
            validity[column][row >>> 3] |= (byte) (1 << (row & 7));
            used[column] = true;
        }
    }

    /** Copies the staged rows and makes the row count visible to readers of {@link #root()}. */
    void seal() {
        flushChunk();
        if (constantColumn >= 0) {
            VarCharVector column = (VarCharVector) vectors[constantColumn];
            for (int r = 0; r < rows; r++) {
                column.setSafe(r, constantValue);
            }
        }
        for (FieldVector vector : vectors) {
            vector.setValueCount(rows);
        }
        root.setRowCount(rows);
    }

    private void flushChunk() {
        for (int c = 0; c < vectors.length; c++) {
            if (used[c]) {
                copy(c, vectors[c]);
                Arrays.fill(validity[c], (byte) 0);
                if (texts[c] != null) {
                    Arrays.fill(texts[c], null);
                }
                used[c] = false;
            }
        }
        rows += chunkRows;
        chunkRows = 0;
    }

    /** Appends the chunk's rows of column {@code c} at row {@link #rows} of the vector. */
    private void copy(int c, FieldVector vector) {
        int n = chunkRows;
        if (vector instanceof VarCharVector varChar) {
            for (int r = 0; r < n; r++) {
                if (texts[c][r] != null) {
                    varChar.setSafe(rows + r, texts[c][r].getBytes(StandardCharsets.UTF_8));
                }
            }
            return;
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        int validityBytes = (n + 7) / 8;
        fixed.getValidityBuffer().setBytes(rows / 8, validity[c], 0, validityBytes);
        ArrowBuf data = fixed.getDataBuffer();
        long[] v = values[c];
        switch (types[c]) {
            case BIGINT:
                data.nioBuffer(rows * 8L, n * 8).order(ByteOrder.nativeOrder()).asLongBuffer().put(v, 0, n);
                break;
            case INTEGER:
                for (int r = 0; r < n; r++) {
                    data.setInt((rows + r) * 4L, (int) v[r]);
                }
                break;
            case SMALLINT:
                for (int r = 0; r < n; r++) {
                    data.setShort((rows + r) * 2L, (short) v[r]);
                }
                break;
            case BOOLEAN: {
                byte[] bits = new byte[validityBytes];
                for (int r = 0; r < n; r++) {
                    if (v[r] != 0) {
                        bits[r >>> 3] |= (byte) (1 << (r & 7));
                    }
                }
                data.setBytes(rows / 8, bits, 0, validityBytes);
                break;
            }
            default:
                throw new IllegalStateException("column " + vector.getName() + " is " + types[c]);
        }
    }
}
