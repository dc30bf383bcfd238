package io.rdmatrace.analyzer.load;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One Arrow stream of {@code _datapath} batches for DuckDB to pull, taken from a {@link DatapathPass}
 * until it has carried {@code maxRows} rows or the pass is over (then the caller may checkpoint
 * and hand the same pass to a new stream).
 */
final class DatapathReader extends ArrowReader {
    private final DatapathPass pass;
    private final long maxRows;
    private BatchBuilder batch;
    private long rows;

    DatapathReader(BufferAllocator allocator, DatapathPass pass, long maxRows) {
        super(allocator);
        this.pass = pass;
        this.maxRows = maxRows;
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
            batch = new BatchBuilder(getVectorSchemaRoot(), DatapathWriter.COLUMNS);
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
        return BatchBuilder.schemaOf(DatapathWriter.COLUMNS);
    }
}
