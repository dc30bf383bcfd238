package io.rdmatrace.trace.model;

/**
 * One event of a trace. Every consumer (analyzer, printer, diff, replay, export) reads this
 * model; nobody decodes the queue bytes a second way.
 */
public sealed interface TraceEvent
        permits SessionEvent, CallEvent, CompletionEvent, AsyncEvent, OobEvent, MarkEvent, CountersEvent, EndEvent,
        CmEvent, PacketEvent {

    EventHeader header();

    EventKind kind();

    /** Shorthand for {@code header().seq()}. */
    default long seq() {
        return header().seq();
    }
}
