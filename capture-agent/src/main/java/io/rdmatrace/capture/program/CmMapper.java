package io.rdmatrace.capture.program;

import io.rdmatrace.capture.record.CallMapper;
import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.CmNames;
import io.rdmatrace.trace.Verb;
import java.util.HexFormat;

/**
 * The tracing librdmacm's records as trace events: an RDMA_CALL becomes a CALL of its {@code rdma_*}
 * verb (arguments as attributes, per function as {@code tracer/cm/tc_loc.h} lists them), an
 * RDMA_CM_EVENT a {@link ProgramEvent.Cm}.
 */
final class CmMapper {
    private static final int CALL_TEXT = RingLayout.CmCall.values().length;
    private static final int EVENT_TEXT = RingLayout.CmEventSlot.values().length;
    private static final int TEXT = RingLayout.Text.values().length;
    private static final int PDATA_MAX = RingLayout.CmPdata.values().length * 8;
    /** Events whose param.conn / param.ud the peer filled. */
    private static final int CONNECT_REQUEST = 4;
    private static final int CONNECT_RESPONSE = 5;
    private static final int ESTABLISHED = 9;
    private static final int PS_UDP = 0x0111;
    private static final int PS_IPOIB = 0x0002;

    private CmMapper() {
    }

    /** The CALL of an RDMA_CALL record, or null for a function this build does not know. */
    static CallMapper.Mapped call(RingRecord r) {
        RingLayout.CmFunc f = RingLayout.CmFunc.of(r.p(RingLayout.CmCall.FUNC.ordinal()));
        if (f == null) {
            return null;
        }
        Verb verb = Verb.byFunction(f.name());
        long id = r.p(RingLayout.CmCall.ID.ordinal());
        boolean ok = r.ret() == 0;
        Attrs.Builder in = Attrs.builder();
        Attrs.Builder out = Attrs.builder();
        String src = r.text(CALL_TEXT);
        String dst = r.text(CALL_TEXT + TEXT);
        switch (f) {
            case rdma_create_event_channel -> {
                if (ok) {
                    out.put(Attr.CM_CHANNEL, a(r, 0));
                }
            }
            case rdma_destroy_event_channel, rdma_get_cm_event -> in.put(Attr.CM_CHANNEL, a(r, 0));
            case rdma_create_id -> {
                in.put(Attr.CM_CHANNEL, a(r, 0)).put(Attr.PORT_SPACE, a(r, 1));
                if (ok) {
                    out.put(Attr.CM_ID, id).put(Attr.QP_TYPE, a(r, 2));
                }
            }
            case rdma_create_ep -> {
                in.put(Attr.PORT_SPACE, a(r, 0)).put(Attr.QP_TYPE, a(r, 1)).put(Attr.PD, a(r, 2));
                if (ok) {
                    out.put(Attr.CM_ID, id);
                    if (a(r, 4) >= 0) {
                        out.put(Attr.QP_NUM, a(r, 4));
                    }
                }
                addrs(ok ? out : in, src, dst);
            }
            case rdma_bind_addr, rdma_resolve_addr -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                if (f == RingLayout.CmFunc.rdma_resolve_addr) {
                    in.put(Attr.TIMEOUT_MS, a(r, 0));
                }
            }
            case rdma_resolve_route -> {
                in.put(Attr.CM_ID, id).put(Attr.TIMEOUT_MS, a(r, 0));
                addrs(in, src, dst);
            }
            case rdma_listen -> {
                in.put(Attr.CM_ID, id).put(Attr.BACKLOG, a(r, 0));
                addrs(in, src, dst);
            }
            case rdma_get_request -> {
                in.put(Attr.LISTEN_ID, a(r, 0));
                if (ok) {
                    out.put(Attr.CM_ID, id);
                    addrs(out, src, dst);
                }
            }
            case rdma_connect, rdma_accept -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                if (a(r, 7) == 1) {
                    in.put(Attr.RESPONDER_RESOURCES, a(r, 0)).put(Attr.INITIATOR_DEPTH, a(r, 1))
                            .put(Attr.FLOW_CONTROL, a(r, 2)).put(Attr.RETRY_COUNT, a(r, 3))
                            .put(Attr.RNR_RETRY_COUNT, a(r, 4)).put(Attr.CM_SRQ, a(r, 5) != 0)
                            .put(Attr.QP_NUM, a(r, 6));
                }
                privateData(in, r, r.p(RingLayout.CmCall.PDATA_LEN.ordinal()), CALL_TEXT + 2 * TEXT);
            }
            case rdma_reject, rdma_reject_ece -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
                privateData(in, r, r.p(RingLayout.CmCall.PDATA_LEN.ordinal()), CALL_TEXT + 2 * TEXT);
            }
            case rdma_establish, rdma_disconnect, rdma_destroy_id, rdma_destroy_ep -> {
                in.put(Attr.CM_ID, id);
                addrs(in, src, dst);
            }
            case rdma_notify -> in.put(Attr.CM_ID, id).put(Attr.EVENT_TYPE, a(r, 0));
            case rdma_create_qp, rdma_create_qp_ex -> {
                in.put(Attr.CM_ID, id).put(Attr.PD, a(r, 0)).put(Attr.QP_TYPE, a(r, 1))
                        .put(Attr.MAX_SEND_WR, a(r, 4)).put(Attr.MAX_RECV_WR, a(r, 5));
                if (ok) {
                    out.put(Attr.QP, a(r, 2)).put(Attr.QP_NUM, a(r, 3)).put(Attr.SEND_CQ, a(r, 6))
                            .put(Attr.RECV_CQ, a(r, 7));
                }
            }
            case rdma_destroy_qp -> {
                in.put(Attr.CM_ID, id);
                if (a(r, 0) >= 0) {
                    in.put(Attr.QP_NUM, a(r, 0));
                }
            }
            case rdma_ack_cm_event -> in.put(Attr.CM_ID, id).put(Attr.CM_EVENT_TYPE, a(r, 0))
                    .put(Attr.CM_STATUS, a(r, 1));
            case rdma_set_option -> in.put(Attr.CM_ID, id).put(Attr.OPTION_LEVEL, a(r, 0))
                    .put(Attr.OPTION_NAME, a(r, 1)).put(Attr.LENGTH, a(r, 2)).put(Attr.OPTION_VALUE, a(r, 3));
            case rdma_migrate_id -> in.put(Attr.CM_ID, id).put(Attr.CM_CHANNEL, a(r, 0));
            case rdma_init_qp_attr -> {
                in.put(Attr.CM_ID, id).put(Attr.QP_STATE, a(r, 0));
                if (ok) {
                    out.put(Attr.ATTR_MASK, a(r, 1));
                }
            }
            case rdma_getaddrinfo -> {
                in.put(Attr.CM_NODE, src).put(Attr.CM_SERVICE, dst).put(Attr.AI_FLAGS, a(r, 0));
                if (a(r, 1) != 0) {
                    in.put(Attr.PORT_SPACE, a(r, 1));
                }
                if (ok) {
                    out.put(Attr.PORT_SPACE, a(r, 2)).put(Attr.QP_TYPE, a(r, 3));
                }
            }
            case rdma_create_srq, rdma_create_srq_ex -> {
                in.put(Attr.CM_ID, id).put(Attr.PD, a(r, 0)).put(Attr.MAX_RECV_WR, a(r, 2));
                if (ok) {
                    out.put(Attr.SRQ, a(r, 1));
                }
            }
            case rdma_destroy_srq -> in.put(Attr.CM_ID, id).put(Attr.SRQ, a(r, 1));
            default -> {
            }
        }
        return new CallMapper.Mapped(verb, r.handle(), (int) r.ret(), r.errno(), r.durationNanos(), in.build(),
                out.build());
    }

    /** The CM event of an RDMA_CM_EVENT record. */
    static ProgramEvent.Cm event(RingRecord r, long tid) {
        int type = (int) e(r, RingLayout.CmEventSlot.EVENT);
        int status = (int) e(r, RingLayout.CmEventSlot.STATUS);
        long ps = e(r, RingLayout.CmEventSlot.PORT_SPACE);
        Attrs.Builder b = Attrs.builder();
        long listen = e(r, RingLayout.CmEventSlot.LISTEN_ID);
        if (listen != 0) {
            b.put(Attr.LISTEN_ID, listen);
        }
        long qpn = e(r, RingLayout.CmEventSlot.QP_NUM);
        if (qpn >= 0) {
            b.put(Attr.QP_NUM, qpn);
        }
        if (ps != 0) {
            b.put(Attr.PORT_SPACE, ps);
        }
        addrs(b, r.text(EVENT_TEXT), r.text(EVENT_TEXT + TEXT));
        if (type == CmNames.EVENT_REJECTED) {
            b.put(Attr.REJECT_REASON, status);
        }
        if (type == CONNECT_REQUEST || type == CONNECT_RESPONSE || type == ESTABLISHED) {
            if (ps == PS_UDP || ps == PS_IPOIB) {
                if (type == ESTABLISHED) {
                    b.put(Attr.PEER_QP_NUM, e(r, RingLayout.CmEventSlot.PEER_QP_NUM))
                            .put(Attr.QKEY, e(r, RingLayout.CmEventSlot.QKEY));
                }
            } else {
                b.put(Attr.RESPONDER_RESOURCES, e(r, RingLayout.CmEventSlot.RESPONDER_RESOURCES))
                        .put(Attr.INITIATOR_DEPTH, e(r, RingLayout.CmEventSlot.INITIATOR_DEPTH))
                        .put(Attr.FLOW_CONTROL, e(r, RingLayout.CmEventSlot.FLOW_CONTROL))
                        .put(Attr.RETRY_COUNT, e(r, RingLayout.CmEventSlot.RETRY_COUNT))
                        .put(Attr.RNR_RETRY_COUNT, e(r, RingLayout.CmEventSlot.RNR_RETRY_COUNT))
                        .put(Attr.CM_SRQ, e(r, RingLayout.CmEventSlot.SRQ) != 0);
                long peer = e(r, RingLayout.CmEventSlot.PEER_QP_NUM);
                if (peer != 0) {
                    b.put(Attr.PEER_QP_NUM, peer);
                }
            }
        }
        privateData(b, r, e(r, RingLayout.CmEventSlot.PDATA_LEN), EVENT_TEXT + 2 * TEXT);
        // how long rdma_get_cm_event took: the verbs calls librdmacm made inside it fall in this span
        b.put(Attr.DURATION, r.durationNanos());
        return new ProgramEvent.Cm(r.monoNanos(), tid, type, status, e(r, RingLayout.CmEventSlot.ID), b.build());
    }

    private static long a(RingRecord r, int i) {
        return r.p(RingLayout.CmCall.A0.ordinal() + i);
    }

    private static long e(RingRecord r, RingLayout.CmEventSlot s) {
        return r.p(s.ordinal());
    }

    private static void addrs(Attrs.Builder b, String src, String dst) {
        if (!src.isEmpty()) {
            b.put(Attr.SRC_ADDR, src);
        }
        if (!dst.isEmpty()) {
            b.put(Attr.DST_ADDR, dst);
        }
    }

    /** PRIVATE_DATA_LEN and, when there is any, PRIVATE_DATA in hex (the bytes the ring kept). */
    private static void privateData(Attrs.Builder b, RingRecord r, long len, int payloadSlot) {
        if (len <= 0) {
            return;
        }
        b.put(Attr.PRIVATE_DATA_LEN, len);
        int n = (int) Math.min(len, PDATA_MAX);
        byte[] bytes = new byte[n];
        r.slots().get(r.at(payloadSlot) * 8, bytes);
        b.put(Attr.PRIVATE_DATA, HexFormat.of().formatHex(bytes));
    }
}
