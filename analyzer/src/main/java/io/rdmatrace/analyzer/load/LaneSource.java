package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The data-path rows of a lane's hosts ({@link DatapathStore}), one host after the other, as one
 * source of batches whose last column is the host: a job's thousand hosts of a few thousand rows
 * each go to DuckDB in a few inserts, not one each (an insert's planning and its stream's
 * registration cost ~3 ms). A batch holds one host's rows. A host is {@linkplain Host#finished()
 * finished} as soon as its last event is read.
 */
final class LaneSource implements DatapathReader.Source {
    /** The batches' columns: the data-path columns, then the host. */
    static final List<Column> COLUMNS;

    static {
        List<Column> columns = new ArrayList<>(DatapathWriter.COLUMNS);
        columns.add(SparseRowsReader.HOST);
        COLUMNS = List.copyOf(columns);
    }

    private static final int HOST_COLUMN = DatapathWriter.COLUMNS.size();

    /** One host of the lane being read. */
    interface Host {
        String name();

        DatapathPass pass();

        /** Called once, when the pass is exhausted. */
        void finished();
    }

    private final Iterator<? extends Host> hosts;
    private Host current;

    LaneSource(List<? extends Host> hosts) {
        this.hosts = hosts.iterator();
        this.current = this.hosts.hasNext() ? this.hosts.next() : null;
    }

    /** Moves past the hosts whose events are all read, finishing each. */
    private void advance() {
        while (current != null && current.pass().exhausted()) {
            current.finished();
            current = hosts.hasNext() ? hosts.next() : null;
        }
    }

    @Override
    public boolean exhausted() {
        advance();
        return current == null;
    }

    @Override
    public void fill(BatchBuilder batch, int maxRows) {
        while (true) {
            advance();
            if (current == null) {
                batch.reset(1);
                batch.seal();
                return;
            }
            current.pass().fill(batch, maxRows, HOST_COLUMN, current.name());
            if (batch.rows() > 0) {
                return;
            }
            // a host without data-path rows: the next one fills the batch
        }
    }
}
