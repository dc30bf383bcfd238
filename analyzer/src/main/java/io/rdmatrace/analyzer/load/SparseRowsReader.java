package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams the rows of one base table from several hosts' {@link SparseRows} as Arrow batches:
 * the host column first, then every column some host's rows set, in table order (a host that
 * never set one leaves it NULL). A batch holds up to {@link #BATCH_ROWS} rows of as many hosts as
 * fit, hosts in the order given. One insert for all hosts, because DuckDB's cost of an insert into
 * a wide table is per column, not per row (~30 ms for {@code _call}'s present columns, whether 17
 * rows or 34); and a batch per host made a job's 1,000 hosts 1,000 batches of ~100 present columns,
 * each exported, scanned and appended column by column.
 */
final class SparseRowsReader extends ArrowReader {
    private static final int BATCH_ROWS = 4096;
    static final Column HOST = new Column("host", SqlType.VARCHAR);

    /** One host's rows of the table. */
    record Part(String host, SparseRows rows) {
    }

    private final List<Part> parts;
    private final List<Column> columns;
    /** Per table column, its column in the batches (the host column is 0). */
    private final int[] slots;
    private BatchBuilder batch;
    private int part;
    private int next;

    SparseRowsReader(BufferAllocator allocator, List<Part> parts) {
        super(allocator);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no rows to read");
        }
        Table table = parts.get(0).rows().table();
        for (Part p : parts) {
            if (p.rows().table() != table) {
                throw new IllegalArgumentException("rows of " + p.rows().table().name() + " among rows of " + table.name());
            }
        }
        this.parts = List.copyOf(parts);
        this.slots = new int[table.columns().size()];
        Arrays.fill(slots, -1);
        List<Column> columns = new ArrayList<>();
        columns.add(HOST);
        for (int c = 0; c < slots.length; c++) {
            for (Part p : parts) {
                if (p.rows().present(c)) {
                    slots[c] = columns.size();
                    columns.add(table.columns().get(c));
                    break;
                }
            }
        }
        this.columns = List.copyOf(columns);
    }

    /** The batches' columns: host, then the present ones in table order. */
    List<Column> columns() {
        return columns;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        int left = 0;
        for (int p = part; p < parts.size() && left < BATCH_ROWS; p++) {
            left += parts.get(p).rows().size() - (p == part ? next : 0);
        }
        if (left <= 0) {
            return false;
        }
        if (batch == null) {
            batch = new BatchBuilder(getVectorSchemaRoot(), columns);
        }
        int room = Math.min(left, BATCH_ROWS);
        batch.reset(room);
        while (room > 0 && part < parts.size()) {
            SparseRows rows = parts.get(part).rows();
            if (next >= rows.size()) {
                part++;
                next = 0;
                continue;
            }
            int to = Math.min(rows.size(), next + room);
            rows.fill(batch, next, to, slots, 0, parts.get(part).host());
            room -= to - next;
            next = to;
        }
        batch.seal();
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
