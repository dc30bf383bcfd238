package io.rdmatrace.analyzer.load;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

import io.rdmatrace.trace.TraceEvent;

/**
 * The single pass over one host's events: data-path events become Arrow batches of
 * {@code _datapath} as DuckDB pulls them; every other event is handed to {@link ColdRows}.
 */
final class DatapathReader extends ArrowReader {
    /** Rows per batch: each batch costs a fixed hand-off through the C stream; 64k rows measured fastest (4k: +70%). */
    static final int BATCH_ROWS = 64 * 1024;
    /**
     * Rows of the first batch; each next one is four times larger up to {@link #BATCH_ROWS}. A
     * bring-up has a few hundred data-path events: a first batch sized for millions would
     * allocate (and DuckDB scan) megabytes of empty vectors.
     */
    static final int FIRST_BATCH_ROWS = 1024;

    private final EventCursor cursor;
    private final ColdRows cold;
    private final DatapathWriter writer = new DatapathWriter();
    private BatchBuilder batch;
    private int batchRows = FIRST_BATCH_ROWS;
    private long events;
    private boolean exhausted;

    DatapathReader(BufferAllocator allocator, EventCursor cursor, ColdRows cold) {
        super(allocator);
        this.cursor = cursor;
        this.cold = cold;
    }

    /** Events read so far (data-path and cold). */
    long events() {
        return events;
    }

    /** Reads to the end without DuckDB, for a cursor whose data-path rows are not wanted (none remain then). */
    void drain() {
        TraceEvent event;
        while ((event = cursor.next()) != null) {
            events++;
            cold.add(event);
        }
        exhausted = true;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (exhausted) {
            return false;
        }
        if (batch == null) {
            batch = new BatchBuilder(getVectorSchemaRoot(), DatapathWriter.COLUMNS);
        }
        cursor.threadChanged();
        batch.reset(batchRows);
        batchRows = Math.min(BATCH_ROWS, batchRows * 4);
        while (!batch.full()) {
            TraceEvent event = cursor.next();
            if (event == null) {
                exhausted = true;
                break;
            }
            events++;
            if (writer.write(event, batch)) {
                cold.thread(event.header());
                if (event instanceof io.rdmatrace.trace.CallEvent call && !call.wrs().isEmpty()) {
                    cold.chain(call);
                }
            } else {
                cold.add(event);
            }
        }
        batch.seal();
        return batch.rows() > 0;
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
        // the cursor belongs to the caller
    }

    @Override
    protected Schema readSchema() {
        return BatchBuilder.schemaOf(DatapathWriter.COLUMNS);
    }
}
