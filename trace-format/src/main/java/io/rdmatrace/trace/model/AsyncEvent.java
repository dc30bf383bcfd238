package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.VerbsNames;

import java.util.Objects;

/**
 * One asynchronous event from {@code ibv_get_async_event}.
 *
 * @param eventType {@link VerbsNames#EVENT_TYPE}
 * @param element   the QP/CQ/SRQ/WQ handle, or the port number for port events
 *                  (see {@link #elementKind()})
 * @param qpNum     the QPN for QP events, else -1
 */
public record AsyncEvent(EventHeader header, int eventType, long element, int qpNum) implements TraceEvent {
    public AsyncEvent {
        Objects.requireNonNull(header, "header");
    }

    /** What {@link #element()} is, per man ibv_get_async_event(3). */
    public enum ElementKind { QP, CQ, SRQ, WQ, PORT, DEVICE }

    @Override
    public EventKind kind() {
        return EventKind.ASYNC_EVENT;
    }

    public String eventTypeName() {
        return VerbsNames.EVENT_TYPE.render(eventType);
    }

    public ElementKind elementKind() {
        switch (eventType) {
            case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 16:
                return ElementKind.QP;
            case 0:
                return ElementKind.CQ;
            case 14: case 15:
                return ElementKind.SRQ;
            case 19:
                return ElementKind.WQ;
            case 9: case 10: case 11: case 12: case 13: case 17: case 18:
                return ElementKind.PORT;
            default:
                return ElementKind.DEVICE;
        }
    }
}
