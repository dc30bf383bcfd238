package io.rdmatrace.analyzer.load;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Streams the rows of one {@link SparseRows} as Arrow batches of its present columns. */
final class SparseRowsReader extends ArrowReader {
    private static final int BATCH_ROWS = 4096;

    private final SparseRows rows;
    private final List<Column> columns;
    private BatchBuilder batch;
    private int next;

    SparseRowsReader(BufferAllocator allocator, SparseRows rows) {
        super(allocator);
        this.rows = rows;
        this.columns = rows.presentColumns();
    }

    List<Column> columns() {
        return columns;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (next >= rows.size()) {
            return false;
        }
        if (batch == null) {
            batch = new BatchBuilder(getVectorSchemaRoot(), columns);
        }
        int to = Math.min(rows.size(), next + BATCH_ROWS);
        batch.reset(to - next);
        rows.fill(batch, next, to);
        batch.seal();
        next = to;
        return true;
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
        // the rows live on the heap; nothing to close
    }

    @Override
    protected Schema readSchema() {
        return BatchBuilder.schemaOf(columns);
    }
}
