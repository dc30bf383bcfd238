package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.CmSettings;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.oob.OobEndpoint;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.oob.QpParams;
import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.CmConnParam;
import io.rdmatrace.verbs.CmId;
import io.rdmatrace.verbs.CmQpAttr;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RdmaCm;
import io.rdmatrace.verbs.RdmaCmEvent;
import io.rdmatrace.trace.names.CmNames;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The "cm_connect" step ({@code capture --cm}): this QP connected through rdma_cm, the QP being the
 * agent's own (ibv_create_qp, already in INIT) and every transition an ibv_modify_qp with the
 * attributes rdma_init_qp_attr gives, so the trace shows the CM's values as ordinary modifies.
 * <ul>
 *   <li>connector: rdma_create_id, rdma_resolve_addr and _route, rdma_connect (private data: the
 *       buffer's address, rkey, length), CONNECT_RESPONSE, RTR, RTS, rdma_establish (the RTU);</li>
 *   <li>listener: this QP's CONNECT_REQUEST (or, with --cm-reject, rdma_reject), RTR, rdma_accept
 *       (its own private data), ESTABLISHED, RTS.</li>
 * </ul>
 * The TCP link is opened first (HELLO only): once the listener accepted it, its rdma_listen is up.
 * Every wait is bounded by the message timeout and ends early when the peer gives up on the link.
 */
final class CmConnectStep {
    /** rdma_resolve_addr / rdma_resolve_route timeouts (perftest and rping use 2000 ms). */
    static final int RESOLVE_MS = 2000;
    /** How often a CM wait looks at the TCP link for the peer's ERROR. */
    private static final Duration SLICE = Duration.ofMillis(200);
    /** The private data of --cm-reject's REJ (the IB CM's consumer-defined reject, reason 28). */
    static final String REJECT_TEXT = "rdmatrace capture --cm-reject: connection refused on purpose";

    private final AgentState s;
    private final PeerExchange peer;

    CmConnectStep(AgentState s, PeerExchange peer) {
        this.s = s;
        this.peer = peer;
    }

    StepOutcome run(QpSlot slot) {
        if (s.cm == null) {
            throw new StepException("cm_connect needs --cm (the agent's rdma_cm)");
        }
        QueuePair qp = StepExecutor.requireQp(slot, "cm_connect");
        if (slot.mr == null) {
            throw new StepException("cm_connect needs the QP's MR: put a \"reg_mr\" step before it");
        }
        StepOutcome link = peer.link();
        if (!link.ok()) {
            return link;
        }
        return s.role() == OobRole.LISTEN ? accept(slot, qp) : connect(slot, qp);
    }

    private StepOutcome connect(QpSlot slot, QueuePair qp) {
        String tag = StepExecutor.qpTag(slot);
        CmLink cm = s.cm;
        CmSettings set = s.config.cm();
        InetSocketAddress to = OobEndpoint.parseConnect(s.config.link().endpoint());
        String ip = ipv4(to.getHostString());
        int port = set.connectPort() != null ? set.connectPort() : to.getPort();
        Outcome<CmId> made = cm.channel.tryCreateId(RdmaCm.PS_TCP);
        if (!(made instanceof Outcome.Ok<CmId> ok)) {
            throw new StepException(tag + "rdma_create_id failed: " + made.status().describe());
        }
        CmId id = ok.value();
        cm.ids.put(slot.index, id);
        check(id.resolveAddr(localIp(), ip, port, RESOLVE_MS), tag + "rdma_resolve_addr to " + ip + ":" + port);
        expect(next(id), CmLink.ADDR_RESOLVED, tag + "resolving " + ip);
        check(id.resolveRoute(RESOLVE_MS), tag + "rdma_resolve_route");
        expect(next(id), CmLink.ROUTE_RESOLVED, tag + "resolving the route to " + ip);
        byte[] pdata = ownData(slot).encode(set.privateDataBytes() != null ? set.privateDataBytes() : 0);
        check(id.connect(param(qp, pdata)), tag + "rdma_connect with " + pdata.length + " bytes of private data");
        RdmaCmEvent rep = expect(next(id), CmLink.CONNECT_RESPONSE, tag + "rdma_connect to " + ip + ":" + port);
        CmPrivateData theirs = CmPrivateData.decode(rep.privateData(), tag + "the peer's REP");
        QpAttr rtr = modify(id, slot, QpState.RTR);
        QpAttr rts = modify(id, slot, QpState.RTS);
        check(id.establish(), tag + "rdma_establish");
        cm.connected.add(id);
        settle(slot, rep, theirs, rtr, rts);
        return StepOutcome.ok(note(slot, rep));
    }

    private StepOutcome accept(QpSlot slot, QueuePair qp) {
        String tag = StepExecutor.qpTag(slot);
        CmLink cm = s.cm;
        boolean reject = s.config.cm().reject();
        Predicate<RdmaCmEvent> mine = e -> e.event() == CmLink.CONNECT_REQUEST
                && (reject || CmPrivateData.indexOf(e.privateData()) == slot.index);
        RdmaCmEvent req = waitFor(mine);
        if (req == null) {
            return StepOutcome.fail(tag + "no rdma_cm connect request for this QP within "
                    + s.config.link().messageWait().toMillis() + " ms");
        }
        CmId id = cm.channel.idOf(req);
        cm.ids.put(slot.index, id);
        if (reject) {
            check(id.reject(REJECT_TEXT.getBytes(StandardCharsets.US_ASCII)), tag + "rdma_reject");
            return StepOutcome.fail(tag + "rejected the connect request from " + req.dst()
                    + " as --cm-reject asks (REJ reason 28, private data \"" + REJECT_TEXT + "\")");
        }
        CmPrivateData theirs = CmPrivateData.decode(req.privateData(), tag + "the peer's connect request");
        QpAttr rtr = modify(id, slot, QpState.RTR);
        check(id.accept(param(qp, ownData(slot).encode(0))), tag + "rdma_accept");
        expect(next(id), CmLink.ESTABLISHED, tag + "rdma_accept of " + req.dst());
        cm.connected.add(id);
        QpAttr rts = modify(id, slot, QpState.RTS);
        settle(slot, req, theirs, rtr, rts);
        return StepOutcome.ok(note(slot, req));
    }

    /** ibv_modify_qp to {@code state} with what rdma_init_qp_attr says, then ibv_query_qp (recorded as usual). */
    private QpAttr modify(CmId id, QpSlot slot, QpState state) {
        String tag = StepExecutor.qpTag(slot);
        Outcome<CmQpAttr> a = id.tryInitQpAttr(state);
        if (!(a instanceof Outcome.Ok<CmQpAttr> ok)) {
            throw new StepException(tag + "rdma_init_qp_attr(" + state + ") failed: " + a.status().describe());
        }
        QpAttr attr = ok.value().attr();
        if (state == QpState.RTR && ok.value().mask().contains(io.rdmatrace.verbs.QpAttrField.MIN_RNR_TIMER)) {
            // ib_cm's RTR leaves min_rnr_timer 0 (655 ms per RNR NAK); programs that own their QP set
            // their own, as perftest does after rdma_accept: the agent's --min-rnr-timer
            attr = attr.toBuilder().minRnrTimer(s.config.knobs().minRnrTimer()).build();
        }
        CallStatus st = slot.qp.tryModify(attr, ok.value().mask());
        QpState now = s.queryState(slot.qp);
        if (!st.ok()) {
            throw new StepException(tag + "ibv_modify_qp to " + state + " with rdma_cm's attributes (mask "
                    + ok.value().mask() + ") failed: " + st.describe());
        }
        if (now != null && now != state) {
            throw new StepException(tag + "ibv_modify_qp to " + state + " succeeded but ibv_query_qp says " + now);
        }
        return attr;
    }

    /** What later steps need of the connection: the peer as the TCP exchange would have told it. */
    private void settle(QpSlot slot, RdmaCmEvent ev, CmPrivateData theirs, QpAttr rtr, QpAttr rts) {
        slot.sqPsn = rts.sqPsn();
        slot.advertisedPsn = rts.sqPsn();
        slot.pathMtu = rtr.pathMtu().value();
        var grh = rtr.ahAttr().grh();
        slot.peer = new QpParams(slot.index, (int) ev.get(io.rdmatrace.verbs.CmSlots.Event.PEER_QP_NUM) & 0xFFFFFF,
                rtr.ahAttr().dlid(), grh.dgid().raw(), grh.sgidIndex(), rtr.rqPsn() & 0xFFFFFF, slot.pathMtu,
                theirs.mrAddr(), theirs.rkey(), theirs.mrLength(), 0, theirs.qpType());
    }

    private CmConnParam param(QueuePair qp, byte[] pdata) {
        // one RDMA READ in flight each way, as the TCP bring-up's max_rd_atomic / max_dest_rd_atomic
        return new CmConnParam(1, 1, s.config.knobs().retryCnt(), s.config.knobs().rnrRetry(), qp.qpNum(), pdata);
    }

    private CmPrivateData ownData(QpSlot slot) {
        return new CmPrivateData(slot.index, Transport.RC.ibvValue(), slot.mr.address(), slot.mr.rkey(), slot.mr.length());
    }

    /** The --connect host as an IPv4 address (the CM here speaks IPv4 only). */
    private static String ipv4(String host) {
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(host)) {
                if (a instanceof java.net.Inet4Address) {
                    return a.getHostAddress();
                }
            }
        } catch (java.net.UnknownHostException e) {
            throw new StepException("--cm: cannot resolve " + host + ": " + e.getMessage());
        }
        throw new StepException("--cm connects to IPv4 addresses; " + host + " has none");
    }

    /** This device's IPv4 address (its IPv4-mapped GID), so the CM resolves from it; null lets the CM choose. */
    private String localIp() {
        return s.localGid.ipv4().orElse(null);
    }

    private RdmaCmEvent next(CmId id) {
        long h = id.handle();
        return waitFor(e -> e.id() == h);
    }

    /** The first event {@code wanted} accepts within the message timeout; stops when the peer gives up. */
    private RdmaCmEvent waitFor(Predicate<RdmaCmEvent> wanted) {
        long deadline = System.nanoTime() + s.config.link().messageWait().toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            RdmaCmEvent e = s.cm.await(wanted, left < SLICE.toNanos() ? Duration.ofNanos(left) : SLICE);
            if (e != null) {
                return e;
            }
            StepOutcome gone = peer.peerGaveUpMeanwhile();
            if (gone != null) {
                throw new StepException(gone.text());
            }
        }
    }

    private RdmaCmEvent expect(RdmaCmEvent e, int type, String what) {
        if (e == null) {
            throw new StepException(what + ": no rdma_cm event within " + s.config.link().messageWait().toMillis() + " ms");
        }
        if (e.event() != type) {
            throw new StepException(what + ": " + describe(e) + ", expected " + CmNames.EVENT_TYPE.render(type));
        }
        return e;
    }

    /** "RDMA_CM_EVENT_REJECTED, reason 8 (...)" with the private data when it is text. */
    static String describe(RdmaCmEvent e) {
        String name = CmNames.EVENT_TYPE.render(e.event());
        if (e.event() == CmNames.EVENT_REJECTED) {
            return name + ", reason " + e.status() + " (" + CmNames.REJECT_REASON.render(e.status()) + ")"
                    + CmPrivateData.text(e.privateData());
        }
        return name + (e.status() != 0 ? ", status " + e.status() : "");
    }

    private static void check(CallStatus st, String what) {
        if (!st.ok()) {
            throw new StepException(what + " failed: " + st.describe());
        }
    }

    private static String note(QpSlot slot, RdmaCmEvent ev) {
        return slot.index == 0 ? String.format("rdma_cm: peer QPN 0x%06x", slot.peer.qpNum()) : "";
    }
}
