package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.CmNames;

import java.util.Objects;

/**
 * One event {@code rdma_get_cm_event} returned to the program (recorded by the tracing librdmacm).
 * Its attributes: {@link Attr#LISTEN_ID}, {@link Attr#QP_NUM} (the id's QP, absent without one),
 * {@link Attr#PORT_SPACE}, {@link Attr#SRC_ADDR}/{@link Attr#DST_ADDR} (the id's local and peer
 * address), {@link Attr#REJECT_REASON} (REJECTED only: the status), the connection parameters
 * the peer sent ({@link Attr#RESPONDER_RESOURCES}, {@link Attr#INITIATOR_DEPTH},
 * {@link Attr#FLOW_CONTROL}, {@link Attr#RETRY_COUNT}, {@link Attr#RNR_RETRY_COUNT},
 * {@link Attr#CM_SRQ}, {@link Attr#PEER_QP_NUM}, UD: {@link Attr#QKEY}) and the private data
 * ({@link Attr#PRIVATE_DATA_LEN}, {@link Attr#PRIVATE_DATA}).
 *
 * @param eventType {@link CmNames#EVENT_TYPE}
 * @param status    the event's status: 0, a negative errno, or (REJECTED) the IB CM reject reason
 * @param id        the {@code rdma_cm_id} the event is about (for CONNECT_REQUEST: the new id)
 */
public record CmEvent(EventHeader header, int eventType, int status, long id, Attrs attrs) implements TraceEvent {
    public CmEvent {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(attrs, "attrs");
    }

    @Override
    public EventKind kind() {
        return EventKind.CM_EVENT;
    }

    public String eventTypeName() {
        return CmNames.EVENT_TYPE.render(eventType);
    }
}
