package io.rdmatrace.analyzer.load;

import io.rdmatrace.trace.model.TraceEvent;

/** One host's events, in sequence order, as the loader consumes them. */
interface EventCursor {
    /** The next event, or null at the end of what is readable. */
    TraceEvent next();

    /**
     * Called before each batch: DuckDB pulls Arrow batches from changing threads, and a
     * Chronicle tailer refuses to be used from a thread other than its first unless reset.
     */
    default void threadChanged() {
    }
}
