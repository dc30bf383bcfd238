package io.rdmatrace.analyzer.timeline;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

import io.rdmatrace.analyzer.Finding;
import io.rdmatrace.analyzer.load.Schema;
import io.rdmatrace.analyzer.load.TraceLoader;
import io.rdmatrace.trace.store.TraceException;

/** A trace folder loaded into an analysis database (base tables, load, views), as analyze does it. */
final class AnalyzedFixture implements AutoCloseable {
    final DuckDBConnection db;
    private final BufferAllocator allocator;

    private AnalyzedFixture(DuckDBConnection db, BufferAllocator allocator) {
        this.db = db;
        this.allocator = allocator;
    }

    static AnalyzedFixture load(Path traces) throws SQLException {
        DuckDBConnection db = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        BufferAllocator allocator = new RootAllocator();
        try {
            Schema.createBaseTables(db);
            new TraceLoader(db, allocator).load(List.of(traces));
            Schema.createViews(db);
            return new AnalyzedFixture(db, allocator);
        } catch (SQLException | RuntimeException e) {
            db.close();
            allocator.close();
            throw e;
        }
    }

    TimelineInput input(String title, List<Finding> findings) throws SQLException, TraceException {
        return TimelineSource.read(db, title, findings);
    }

    @Override
    public void close() throws SQLException {
        db.close();
        allocator.close();
    }
}
