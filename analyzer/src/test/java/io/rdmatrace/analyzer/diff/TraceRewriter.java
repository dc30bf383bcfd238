package io.rdmatrace.analyzer.diff;

import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import io.rdmatrace.trace.model.EndEvent;
import io.rdmatrace.trace.model.SessionEvent;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceException;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.store.TraceSet;
import io.rdmatrace.trace.store.TraceWriter;

/**
 * Copies a capture through the real reader and writer, changing what a test plants: a firmware
 * version, granted caps, a vendor error, call durations. Sequence numbers stay as they were
 * unless events are dropped.
 */
public final class TraceRewriter {
    private TraceRewriter() {
    }

    /**
     * @param session maps each host's SESSION info
     * @param events  maps each other event (SESSION and END are written by the writer); null drops it
     */
    public static TraceSet rewrite(Path from, Path to, UnaryOperator<SessionInfo> session, UnaryOperator<TraceEvent> events)
            throws TraceException {
        return rewrite(from, to, session, (host, e) -> events.apply(e));
    }

    /** Same, with the host id (as recorded in the source) passed to the event map. */
    public static TraceSet rewrite(Path from, Path to, UnaryOperator<SessionInfo> session,
                                   BiFunction<String, TraceEvent, TraceEvent> events) throws TraceException {
        for (Path host : TraceSet.discover(from).hosts()) {
            TraceReader.Result trace = TraceReader.readAll(host);
            try (TraceWriter writer = TraceWriter.create(to, session.apply(trace.session().info()))) {
                for (TraceEvent e : trace.events()) {
                    if (e instanceof SessionEvent || e instanceof EndEvent) {
                        continue;
                    }
                    TraceEvent mapped = events.apply(trace.session().hostId(), e);
                    if (mapped != null) {
                        writer.append(mapped);
                    }
                }
            }
        }
        return TraceSet.discover(to);
    }
}
