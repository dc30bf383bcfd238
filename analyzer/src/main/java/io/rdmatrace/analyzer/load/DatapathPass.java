package io.rdmatrace.analyzer.load;

import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.TraceEvent;

/**
 * The single pass over one host's events: data-path events become rows of {@code _datapath}
 * batches; every other event is handed to {@link ColdRows}. The pass outlives the Arrow streams
 * that carry its batches to DuckDB ({@link DatapathReader}, one per part between checkpoints).
 */
final class DatapathPass implements DatapathReader.Source {
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
    private int batchRows = FIRST_BATCH_ROWS;
    private long events;
    private boolean exhausted;

    DatapathPass(EventCursor cursor, ColdRows cold) {
        this.cursor = cursor;
        this.cold = cold;
    }

    /** Events read so far (data-path and cold). */
    long events() {
        return events;
    }

    /** True once the cursor returned its last event. */
    @Override
    public boolean exhausted() {
        return exhausted;
    }

    /** Fills {@code batch} with the next data-path rows, at most {@code maxRows}; seals it. */
    @Override
    public void fill(BatchBuilder batch, int maxRows) {
        fill(batch, maxRows, -1, null);
    }

    /** As {@link #fill(BatchBuilder, int)}, every row also given {@code host} in column {@code hostColumn} (unless -1). */
    void fill(BatchBuilder batch, int maxRows, int hostColumn, String host) {
        cursor.threadChanged();
        batch.reset(Math.min(batchRows, maxRows));
        if (hostColumn >= 0) {
            batch.setTextOfEveryRow(hostColumn, host);
        }
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
                if (event instanceof CallEvent call && !call.wrs().isEmpty()) {
                    cold.chain(call);
                }
            } else {
                cold.add(event);
            }
        }
        batch.seal();
    }
}
