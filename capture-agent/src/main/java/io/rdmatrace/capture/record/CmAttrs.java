package io.rdmatrace.capture.record;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.CmNames;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.verbs.CmFunction;
import io.rdmatrace.verbs.CmSlots;
import io.rdmatrace.verbs.RdmaCmCall;
import io.rdmatrace.verbs.RdmaCmEvent;
import java.util.HexFormat;

/**
 * librdmacm calls and CM events as trace events, wherever C recorded them: an {@code rdma_*} call
 * becomes a CALL of its verb (arguments as attributes, per function as {@code tracer/cm/tc_loc.h}
 * lists them), an event the attributes of its CM_EVENT. Shared by the recorder of unmodified programs
 * (the tracing librdmacm's ring, capture.program) and the capture agent's own rdma_cm ({@code --cm}),
 * so the cm views and rules see both alike.
 */
public final class CmAttrs {
    /** Events whose param.conn / param.ud the peer filled. */
    private static final int CONNECT_REQUEST = 4;
    private static final int CONNECT_RESPONSE = 5;
    private static final int ESTABLISHED = 9;
    private static final int PS_UDP = 0x0111;
    private static final int PS_IPOIB = 0x0002;

    private CmAttrs() {
    }

    /** The CALL of one librdmacm call ({@code handle}: the record's handle), or null for an unknown function. */
    public static CallMapper.Mapped call(RdmaCmCall c, long handle) {
        CmFunction f = c.function();
        if (f == null) {
            return null;
        }
        Verb verb = Verb.byFunction(f.name());
        long id = c.id();
        boolean ok = c.ret() == 0;
        Attrs.Builder in = Attrs.builder();
        Attrs.Builder out = Attrs.builder();
        String src = c.src();
        String dst = c.dst();
        switch (f) {
            case rdma_create_event_channel -> {
                if (ok) {
                    out.put(Attr.CM_CHANNEL, a(c, 0));
                }
            }
            case rdma_destroy_event_channel, rdma_get_cm_event -> in.put(Attr.CM_CHANNEL, a(c, 0));
            case rdma_create_id -> {
                in.put(Attr.CM_CHANNEL, a(c, 0)).put(Attr.PORT_SPACE, a(c, 1));
                if (ok) {
                    out.put(Attr.CM_ID, id).put(Attr.QP_TYPE, a(c, 2));
                }
            }
            case rdma_create_ep -> {
                in.put(Attr.PORT_SPACE, a(c, 0)).put(Attr.QP_TYPE, a(c, 1)).put(Attr.PD, a(c, 2));
                if (ok) {
                    out.put(Attr.CM_ID, id);
                    if (a(c, 4) >= 0) {
                        out.put(Attr.QP_NUM, a(c, 4));
                    }
                }
                addrs(ok ? out : in, src, dst);
            }
            case rdma_bind_addr, rdma_resolve_addr -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                if (f == CmFunction.rdma_resolve_addr) {
                    in.put(Attr.TIMEOUT_MS, a(c, 0));
                }
            }
            case rdma_resolve_route -> {
                in.put(Attr.CM_ID, id).put(Attr.TIMEOUT_MS, a(c, 0));
                addrs(in, src, dst);
            }
            case rdma_listen -> {
                in.put(Attr.CM_ID, id).put(Attr.BACKLOG, a(c, 0));
                addrs(in, src, dst);
            }
            case rdma_get_request -> {
                in.put(Attr.LISTEN_ID, a(c, 0));
                if (ok) {
                    out.put(Attr.CM_ID, id);
                    addrs(out, src, dst);
                }
            }
            case rdma_connect, rdma_accept -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                if (a(c, 7) == 1) {
                    in.put(Attr.RESPONDER_RESOURCES, a(c, 0)).put(Attr.INITIATOR_DEPTH, a(c, 1))
                            .put(Attr.FLOW_CONTROL, a(c, 2)).put(Attr.RETRY_COUNT, a(c, 3))
                            .put(Attr.RNR_RETRY_COUNT, a(c, 4)).put(Attr.CM_SRQ, a(c, 5) != 0)
                            .put(Attr.QP_NUM, a(c, 6));
                }
                privateData(in, c.privateData(), c.privateDataLen());
            }
            case rdma_reject, rdma_reject_ece -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                privateData(in, c.privateData(), c.privateDataLen());
            }
            case rdma_establish, rdma_disconnect, rdma_destroy_id, rdma_destroy_ep -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
            }
            case rdma_notify -> in.put(Attr.CM_ID, id).put(Attr.EVENT_TYPE, a(c, 0));
            case rdma_create_qp, rdma_create_qp_ex -> {
                in.put(Attr.CM_ID, id).put(Attr.PD, a(c, 0)).put(Attr.QP_TYPE, a(c, 1))
                        .put(Attr.MAX_SEND_WR, a(c, 4)).put(Attr.MAX_RECV_WR, a(c, 5));
                if (ok) {
                    out.put(Attr.QP, a(c, 2)).put(Attr.QP_NUM, a(c, 3)).put(Attr.SEND_CQ, a(c, 6))
                            .put(Attr.RECV_CQ, a(c, 7));
                }
            }
            case rdma_destroy_qp -> {
                in.put(Attr.CM_ID, id);
                if (a(c, 0) >= 0) {
                    in.put(Attr.QP_NUM, a(c, 0));
                }
            }
            case rdma_ack_cm_event -> in.put(Attr.CM_ID, id).put(Attr.CM_EVENT_TYPE, a(c, 0))
                    .put(Attr.CM_STATUS, a(c, 1));
            case rdma_set_option -> in.put(Attr.CM_ID, id).put(Attr.OPTION_LEVEL, a(c, 0))
                    .put(Attr.OPTION_NAME, a(c, 1)).put(Attr.LENGTH, a(c, 2)).put(Attr.OPTION_VALUE, a(c, 3));
            case rdma_migrate_id -> in.put(Attr.CM_ID, id).put(Attr.CM_CHANNEL, a(c, 0));
            case rdma_init_qp_attr -> {
                in.put(Attr.CM_ID, id).put(Attr.QP_STATE, a(c, 0));
                if (ok) {
                    out.put(Attr.ATTR_MASK, a(c, 1));
                }
            }
            case rdma_getaddrinfo -> {
                in.put(Attr.CM_NODE, src).put(Attr.CM_SERVICE, dst).put(Attr.AI_FLAGS, a(c, 0));
                if (a(c, 1) != 0) {
                    in.put(Attr.PORT_SPACE, a(c, 1));
                }
                if (ok) {
                    out.put(Attr.PORT_SPACE, a(c, 2)).put(Attr.QP_TYPE, a(c, 3));
                }
            }
            case rdma_create_srq, rdma_create_srq_ex -> {
                in.put(Attr.CM_ID, id).put(Attr.PD, a(c, 0)).put(Attr.MAX_RECV_WR, a(c, 2));
                if (ok) {
                    out.put(Attr.SRQ, a(c, 1));
                }
            }
            case rdma_destroy_srq -> in.put(Attr.CM_ID, id).put(Attr.SRQ, a(c, 1));
            default -> {
            }
        }
        return new CallMapper.Mapped(verb, handle, (int) c.ret(), c.errno(), c.durationNanos(), in.build(),
                out.build());
    }

    /** The attributes of one CM event's CM_EVENT. */
    public static Attrs event(RdmaCmEvent e) {
        int type = e.event();
        int status = e.status();
        long ps = e.get(CmSlots.Event.PORT_SPACE);
        Attrs.Builder b = Attrs.builder();
        long listen = e.get(CmSlots.Event.LISTEN_ID);
        if (listen != 0) {
            b.put(Attr.LISTEN_ID, listen);
        }
        long qpn = e.get(CmSlots.Event.QP_NUM);
        if (qpn >= 0) {
            b.put(Attr.QP_NUM, qpn);
        }
        if (ps != 0) {
            b.put(Attr.PORT_SPACE, ps);
        }
        addrs(b, e.src(), e.dst());
        if (type == CmNames.EVENT_REJECTED) {
            b.put(Attr.REJECT_REASON, status);
        }
        if (type == CONNECT_REQUEST || type == CONNECT_RESPONSE || type == ESTABLISHED) {
            if (ps == PS_UDP || ps == PS_IPOIB) {
                if (type == ESTABLISHED) {
                    b.put(Attr.PEER_QP_NUM, e.get(CmSlots.Event.PEER_QP_NUM))
                            .put(Attr.QKEY, e.get(CmSlots.Event.QKEY));
                }
            } else {
                b.put(Attr.RESPONDER_RESOURCES, e.get(CmSlots.Event.RESPONDER_RESOURCES))
                        .put(Attr.INITIATOR_DEPTH, e.get(CmSlots.Event.INITIATOR_DEPTH))
                        .put(Attr.FLOW_CONTROL, e.get(CmSlots.Event.FLOW_CONTROL))
                        .put(Attr.RETRY_COUNT, e.get(CmSlots.Event.RETRY_COUNT))
                        .put(Attr.RNR_RETRY_COUNT, e.get(CmSlots.Event.RNR_RETRY_COUNT))
                        .put(Attr.CM_SRQ, e.get(CmSlots.Event.SRQ) != 0);
                long peer = e.get(CmSlots.Event.PEER_QP_NUM);
                if (peer != 0) {
                    b.put(Attr.PEER_QP_NUM, peer);
                }
            }
        }
        privateData(b, e.privateData(), e.get(CmSlots.Event.PDATA_LEN));
        // how long rdma_get_cm_event took: the verbs calls librdmacm made inside it fall in this span
        b.put(Attr.DURATION, e.durationNanos());
        return b.build();
    }

    private static long a(RdmaCmCall c, int i) {
        return c.arg(i);
    }

    private static void addrs(Attrs.Builder b, String src, String dst) {
        if (!src.isEmpty()) {
            b.put(Attr.SRC_ADDR, src);
        }
        if (!dst.isEmpty()) {
            b.put(Attr.DST_ADDR, dst);
        }
    }

    /** PRIVATE_DATA_LEN and, when there is any, PRIVATE_DATA in hex (the bytes C kept). */
    private static void privateData(Attrs.Builder b, byte[] kept, long len) {
        if (len <= 0) {
            return;
        }
        b.put(Attr.PRIVATE_DATA_LEN, len);
        b.put(Attr.PRIVATE_DATA, HexFormat.of().formatHex(kept));
    }
}
