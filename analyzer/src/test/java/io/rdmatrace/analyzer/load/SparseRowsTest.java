package io.rdmatrace.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** Cold rows are kept column by column in pages; every value set must come back in its row, every other as NULL. */
class SparseRowsTest {
    private static final Table TABLE = new Table("_t", List.of(new Column("a", SqlType.BIGINT),
            new Column("b", SqlType.VARCHAR), new Column("never", SqlType.BIGINT), new Column("flag", SqlType.BOOLEAN),
            new Column("late", SqlType.INTEGER)));

    @Test
    void rowsOverSeveralPagesAndBatches_readBackValueForValue() throws Exception {
        SparseRows rows = new SparseRows(TABLE);
        int n = 5000; // several 1,024-row pages and two Arrow batches
        for (int r = 0; r < n; r++) {
            SparseRows.Row row = rows.add();
            if (r % 3 == 0) {
                row.put("a", r * 10L);
            }
            if (r % 7 == 0) {
                row.put("b", "t" + r);
            }
            row.put("b", (String) null); // leaves the column as it was
            if (r % 2 == 0) {
                row.put("flag", r % 4 == 0);
            }
            if (r == 4321) {
                row.put("late", 99); // the only value of its column, in a late page
            }
            if (r == 10) {
                row.put("a", 1).put("a", 2); // the last value set wins
            }
        }
        assertThat(rows.size()).isEqualTo(n);
        assertThat(rows.presentColumns()).extracting(Column::name).containsExactly("a", "b", "flag", "late");

        int r = 0;
        try (BufferAllocator allocator = new RootAllocator();
                SparseRowsReader reader = new SparseRowsReader(allocator, List.of(new SparseRowsReader.Part("h", rows)))) {
            assertThat(reader.columns()).extracting(Column::name).containsExactly("host", "a", "b", "flag", "late");
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                VarCharVector host = (VarCharVector) root.getVector("host");
                BigIntVector a = (BigIntVector) root.getVector("a");
                VarCharVector b = (VarCharVector) root.getVector("b");
                BitVector flag = (BitVector) root.getVector("flag");
                IntVector late = (IntVector) root.getVector("late");
                for (int i = 0; i < root.getRowCount(); i++, r++) {
                    assertThat(new String(host.get(i), StandardCharsets.UTF_8)).isEqualTo("h");
                    if (r == 10) {
                        assertThat(a.get(i)).isEqualTo(2);
                    } else if (r % 3 == 0) {
                        assertThat(a.get(i)).as("a of row %d", r).isEqualTo(r * 10L);
                    } else {
                        assertThat(a.isNull(i)).as("a of row %d", r).isTrue();
                    }
                    if (r % 7 == 0) {
                        assertThat(new String(b.get(i), StandardCharsets.UTF_8)).isEqualTo("t" + r);
                    } else {
                        assertThat(b.isNull(i)).as("b of row %d", r).isTrue();
                    }
                    if (r % 2 == 0) {
                        assertThat(flag.get(i)).as("flag of row %d", r).isEqualTo(r % 4 == 0 ? 1 : 0);
                    } else {
                        assertThat(flag.isNull(i)).isTrue();
                    }
                    if (r == 4321) {
                        assertThat(late.get(i)).isEqualTo(99);
                    } else {
                        assertThat(late.isNull(i)).as("late of row %d", r).isTrue();
                    }
                }
            }
        }
        assertThat(r).isEqualTo(n);
    }

    @Test
    void severalHostsRows_readBackInHostOrder_withEachHostsName_andTheColumnsAnyHostSet() throws Exception {
        SparseRows a = new SparseRows(TABLE);
        for (int r = 0; r < 3; r++) {
            a.add().put("a", r);
        }
        SparseRows b = new SparseRows(TABLE);
        b.add().put("b", "x").put("late", 7);
        b.add().put("a", 40);
        SparseRows other = new SparseRows(new Table("_u", TABLE.columns()));
        try (BufferAllocator allocator = new RootAllocator()) {
            assertThatThrownBy(() -> new SparseRowsReader(allocator, List.of(new SparseRowsReader.Part("a", a),
                    new SparseRowsReader.Part("o", other)))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("_u");
            try (SparseRowsReader reader = new SparseRowsReader(allocator, List.of(new SparseRowsReader.Part("host-a", a),
                    new SparseRowsReader.Part("host-b", b)))) {
                assertThat(reader.columns()).extracting(Column::name).containsExactly("host", "a", "b", "late");
                StringBuilder seen = new StringBuilder();
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        seen.append(root.getVector("host").getObject(i)).append(' ')
                                .append(root.getVector("a").getObject(i)).append(' ')
                                .append(root.getVector("b").getObject(i)).append(' ')
                                .append(root.getVector("late").getObject(i)).append('\n');
                    }
                }
                assertThat(seen.toString()).isEqualTo("""
                        host-a 0 null null
                        host-a 1 null null
                        host-a 2 null null
                        host-b null x 7
                        host-b 40 null null
                        """);
            }
        }
    }

    @Test
    void aValueOfTheWrongKindOrColumn_isRefused() {
        SparseRows rows = new SparseRows(TABLE);
        SparseRows.Row row = rows.add();
        assertThatThrownBy(() -> row.put("b", 5L)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("_t.b");
        assertThatThrownBy(() -> row.put("a", "x")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("_t.a");
        assertThatThrownBy(() -> row.put("nope", 1L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("_t has no column nope");
        assertThat(rows.presentColumns()).isEmpty();
    }
}
