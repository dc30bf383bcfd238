package io.rdmatrace.analyzer.load;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One Arrow stream of {@code _datapath} batches for DuckDB to pull, taken from a {@link Source} (one
 * host's {@link DatapathPass}, or the hosts of a lane one after the other) until it has carried
 * {@code maxRows} rows or the source is over (then the caller may checkpoint and hand the same
 * source to a new stream).
 */
final class DatapathReader extends ArrowReader {
    /** Where the batches come from. */
    interface Source {
        /** True once nothing is left to read. */
        boolean exhausted();

        /** Fills {@code batch} (reset by the source) with the next rows, at most {@code maxRows}, and seals it. */
        void fill(BatchBuilder batch, int maxRows);
    }

    private final Source pass;
    private final java.util.List<Column> columns;
    private final long maxRows;
    private BatchBuilder batch;
    private long rows;

    /** Batches of {@code columns} (the data-path columns, maybe with a host column after them). */
    DatapathReader(BufferAllocator allocator, Source pass, long maxRows, java.util.List<Column> columns) {
        super(allocator);
        this.pass = pass;
        this.maxRows = maxRows;
        this.columns = java.util.List.copyOf(columns);
    }

    /** Rows this stream carried. */
    long rows() {
        return rows;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (pass.exhausted() || rows >= maxRows) {
            return false;
        }
        if (batch == null) {
            batch = new BatchBuilder(getVectorSchemaRoot(), columns);
        }
        pass.fill(batch, (int) Math.min(Integer.MAX_VALUE, maxRows - rows));
        rows += batch.rows();
        return batch.rows() > 0;
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
        // the pass and its cursor belong to the caller
    }

    @Override
    protected Schema readSchema() {
        return BatchBuilder.schemaOf(columns);
    }
}
