package io.rdmatrace.verbs;

/**
 * One {@code struct ibv_async_event} (already acknowledged). {@code elementHandle} is the native
 * handle of the QP/CQ/SRQ/WQ it concerns (compare with {@code handle()} of your objects), 0 for
 * port and device events; {@code qpNum} is -1 unless it is a QP event; {@code portNum} is 0
 * unless it is a port event.
 */
public record IbvAsyncEvent(EventType eventType, long elementHandle, int qpNum, int portNum) {
}
