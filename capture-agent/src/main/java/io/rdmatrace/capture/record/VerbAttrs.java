package io.rdmatrace.capture.record;

import io.rdmatrace.trace.Attr;
import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.GidText;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.PortAttr;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpAttrField;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpQuery;

/** How the verbs binding's structs become trace attributes (one place, so every event spells them alike). */
public final class VerbAttrs {
    private VerbAttrs() {
    }

    /**
     * Exactly the ibv_qp_attr fields {@code mask} selects, plus the QP number and the mask itself (what
     * ibv_modify_qp was given). Attributes go in ascending code order: the builder then sorts nothing.
     */
    public static void modifyInputs(Attrs.Builder b, int qpNum, QpAttr a, int mask, GidCache gids) {
        if (has(mask, QpAttrField.PORT)) {
            b.put(Attr.PORT_NUM, a.portNum());
        }
        if (has(mask, QpAttrField.PKEY_INDEX)) {
            b.put(Attr.PKEY_INDEX, a.pkeyIndex());
        }
        if (has(mask, QpAttrField.CAP)) {
            cap(b, a.cap());
        }
        b.put(Attr.QP_NUM, Integer.toUnsignedLong(qpNum));
        b.put(Attr.ATTR_MASK, Integer.toUnsignedLong(mask));
        if (has(mask, QpAttrField.STATE)) {
            b.put(Attr.QP_STATE, a.qpState().value());
        }
        if (has(mask, QpAttrField.CUR_STATE)) {
            b.put(Attr.CUR_QP_STATE, a.curQpState().value());
        }
        if (has(mask, QpAttrField.PATH_MTU)) {
            b.put(Attr.PATH_MTU, a.pathMtu().value());
        }
        if (has(mask, QpAttrField.PATH_MIG_STATE)) {
            b.put(Attr.PATH_MIG_STATE, a.pathMigState().value());
        }
        if (has(mask, QpAttrField.QKEY)) {
            b.put(Attr.QKEY, Integer.toUnsignedLong(a.qkey()));
        }
        if (has(mask, QpAttrField.RQ_PSN)) {
            b.put(Attr.RQ_PSN, Integer.toUnsignedLong(a.rqPsn()));
        }
        if (has(mask, QpAttrField.SQ_PSN)) {
            b.put(Attr.SQ_PSN, Integer.toUnsignedLong(a.sqPsn()));
        }
        if (has(mask, QpAttrField.DEST_QPN)) {
            b.put(Attr.DEST_QP_NUM, Integer.toUnsignedLong(a.destQpNum()));
        }
        if (has(mask, QpAttrField.ACCESS_FLAGS)) {
            b.put(Attr.QP_ACCESS_FLAGS, Integer.toUnsignedLong(a.qpAccessFlags()));
        }
        if (has(mask, QpAttrField.ALT_PATH)) {
            b.put(Attr.ALT_PKEY_INDEX, a.altPkeyIndex());
        }
        if (has(mask, QpAttrField.EN_SQD_ASYNC_NOTIFY)) {
            b.put(Attr.EN_SQD_ASYNC_NOTIFY, a.enSqdAsyncNotify() != 0);
        }
        if (has(mask, QpAttrField.MAX_QP_RD_ATOMIC)) {
            b.put(Attr.MAX_RD_ATOMIC, a.maxRdAtomic());
        }
        if (has(mask, QpAttrField.MAX_DEST_RD_ATOMIC)) {
            b.put(Attr.MAX_DEST_RD_ATOMIC, a.maxDestRdAtomic());
        }
        if (has(mask, QpAttrField.MIN_RNR_TIMER)) {
            b.put(Attr.MIN_RNR_TIMER, a.minRnrTimer());
        }
        if (has(mask, QpAttrField.TIMEOUT)) {
            b.put(Attr.TIMEOUT, a.timeout());
        }
        if (has(mask, QpAttrField.RETRY_CNT)) {
            b.put(Attr.RETRY_CNT, a.retryCnt());
        }
        if (has(mask, QpAttrField.RNR_RETRY)) {
            b.put(Attr.RNR_RETRY, a.rnrRetry());
        }
        if (has(mask, QpAttrField.ALT_PATH)) {
            b.put(Attr.ALT_PORT_NUM, a.altPortNum());
            b.put(Attr.ALT_TIMEOUT, a.altTimeout());
        }
        if (has(mask, QpAttrField.RATE_LIMIT)) {
            b.put(Attr.RATE_LIMIT, Integer.toUnsignedLong(a.rateLimit()));
        }
        if (has(mask, QpAttrField.AV)) {
            ah(b, a.ahAttr(), gids);
        }
    }

    /** Every ibv_qp_attr field of a query answer, plus its init attributes (type, granted caps, CQs). */
    public static void queryOutputs(Attrs.Builder b, QpQuery q) {
        queryOutputs(b, q, null);
    }

    /** Same, formatting the GID through {@code gids} (null: no cache); ascending code order. */
    public static void queryOutputs(Attrs.Builder b, QpQuery q, GidCache gids) {
        QpAttr a = q.attr();
        b.put(Attr.SEND_CQ, q.sendCqHandle());
        b.put(Attr.RECV_CQ, q.recvCqHandle());
        b.put(Attr.PORT_NUM, a.portNum());
        b.put(Attr.PKEY_INDEX, a.pkeyIndex());
        b.put(Attr.QP_TYPE, q.qpType().value());
        b.put(Attr.SQ_SIG_ALL, q.sqSigAll());
        cap(b, q.initCap());
        b.put(Attr.QP_NUM, Integer.toUnsignedLong(q.qpNum()));
        b.put(Attr.QP_STATE, a.qpState().value());
        b.put(Attr.CUR_QP_STATE, a.curQpState().value());
        b.put(Attr.PATH_MTU, a.pathMtu().value());
        b.put(Attr.PATH_MIG_STATE, a.pathMigState().value());
        b.put(Attr.QKEY, Integer.toUnsignedLong(a.qkey()));
        b.put(Attr.RQ_PSN, Integer.toUnsignedLong(a.rqPsn()));
        b.put(Attr.SQ_PSN, Integer.toUnsignedLong(a.sqPsn()));
        b.put(Attr.DEST_QP_NUM, Integer.toUnsignedLong(a.destQpNum()));
        b.put(Attr.QP_ACCESS_FLAGS, Integer.toUnsignedLong(a.qpAccessFlags()));
        b.put(Attr.ALT_PKEY_INDEX, a.altPkeyIndex());
        b.put(Attr.EN_SQD_ASYNC_NOTIFY, a.enSqdAsyncNotify() != 0);
        b.put(Attr.SQ_DRAINING, a.sqDraining() != 0);
        b.put(Attr.MAX_RD_ATOMIC, a.maxRdAtomic());
        b.put(Attr.MAX_DEST_RD_ATOMIC, a.maxDestRdAtomic());
        b.put(Attr.MIN_RNR_TIMER, a.minRnrTimer());
        b.put(Attr.TIMEOUT, a.timeout());
        b.put(Attr.RETRY_CNT, a.retryCnt());
        b.put(Attr.RNR_RETRY, a.rnrRetry());
        b.put(Attr.ALT_PORT_NUM, a.altPortNum());
        b.put(Attr.ALT_TIMEOUT, a.altTimeout());
        b.put(Attr.RATE_LIMIT, Integer.toUnsignedLong(a.rateLimit()));
        ah(b, a.ahAttr(), gids);
    }

    public static void ah(Attrs.Builder b, AhAttr ah) {
        ah(b, ah, null);
    }

    /** The address vector's fields (ascending codes); the GID text comes from {@code gids} when given. */
    public static void ah(Attrs.Builder b, AhAttr ah, GidCache gids) {
        b.put(Attr.DLID, ah.dlid());
        b.put(Attr.SL, ah.sl());
        b.put(Attr.SRC_PATH_BITS, ah.srcPathBits());
        b.put(Attr.STATIC_RATE, ah.staticRate());
        b.put(Attr.IS_GLOBAL, ah.isGlobal());
        b.put(Attr.AH_PORT_NUM, ah.portNum());
        b.put(Attr.DGID, gids != null ? gids.text(ah.grh().dgid()) : GidText.format(ah.grh().dgid().raw()));
        b.put(Attr.FLOW_LABEL, Integer.toUnsignedLong(ah.grh().flowLabel()));
        b.put(Attr.SGID_INDEX, ah.grh().sgidIndex());
        b.put(Attr.HOP_LIMIT, ah.grh().hopLimit());
        b.put(Attr.TRAFFIC_CLASS, ah.grh().trafficClass());
    }

    public static void cap(Attrs.Builder b, QpCap c) {
        b.put(Attr.MAX_SEND_WR, Integer.toUnsignedLong(c.maxSendWr()));
        b.put(Attr.MAX_RECV_WR, Integer.toUnsignedLong(c.maxRecvWr()));
        b.put(Attr.MAX_SEND_SGE, Integer.toUnsignedLong(c.maxSendSge()));
        b.put(Attr.MAX_RECV_SGE, Integer.toUnsignedLong(c.maxRecvSge()));
        b.put(Attr.MAX_INLINE_DATA, Integer.toUnsignedLong(c.maxInlineData()));
    }

    /** Device identity and limits for the SESSION and the ibv_query_device event. */
    public static Attrs device(String name, DeviceAttr d) {
        Attrs.Builder b = Attrs.builder();
        device(b, name, d);
        return b.build();
    }

    /** Same, into {@code b}. */
    public static void device(Attrs.Builder b, String name, DeviceAttr d) {
        if (name != null) {
            b.put(Attr.DEV_NAME, name);
        }
        b.put(Attr.FW_VER, d.fwVer());
        b.put(Attr.NODE_GUID, d.nodeGuid());
        b.put(Attr.SYS_IMAGE_GUID, d.sysImageGuid());
        b.put(Attr.VENDOR_ID, Integer.toUnsignedLong(d.vendorId()));
        b.put(Attr.VENDOR_PART_ID, Integer.toUnsignedLong(d.vendorPartId()));
        b.put(Attr.HW_VER, Integer.toUnsignedLong(d.hwVer()));
        b.put(Attr.MAX_MR_SIZE, d.maxMrSize());
        b.put(Attr.PAGE_SIZE_CAP, d.pageSizeCap());
        b.put(Attr.MAX_QP, Integer.toUnsignedLong(d.maxQp()));
        b.put(Attr.MAX_QP_WR, Integer.toUnsignedLong(d.maxQpWr()));
        b.put(Attr.DEVICE_CAP_FLAGS, Integer.toUnsignedLong(d.deviceCapFlags()));
        b.put(Attr.MAX_SGE, Integer.toUnsignedLong(d.maxSge()));
        b.put(Attr.MAX_SGE_RD, Integer.toUnsignedLong(d.maxSgeRd()));
        b.put(Attr.MAX_CQ, Integer.toUnsignedLong(d.maxCq()));
        b.put(Attr.MAX_CQE, Integer.toUnsignedLong(d.maxCqe()));
        b.put(Attr.MAX_MR, Integer.toUnsignedLong(d.maxMr()));
        b.put(Attr.MAX_PD, Integer.toUnsignedLong(d.maxPd()));
        b.put(Attr.MAX_QP_RD_ATOM, Integer.toUnsignedLong(d.maxQpRdAtom()));
        b.put(Attr.MAX_RES_RD_ATOM, Integer.toUnsignedLong(d.maxResRdAtom()));
        b.put(Attr.MAX_QP_INIT_RD_ATOM, Integer.toUnsignedLong(d.maxQpInitRdAtom()));
        b.put(Attr.ATOMIC_CAP, d.atomicCap().value());
        b.put(Attr.MAX_AH, Integer.toUnsignedLong(d.maxAh()));
        b.put(Attr.MAX_SRQ, Integer.toUnsignedLong(d.maxSrq()));
        b.put(Attr.MAX_SRQ_WR, Integer.toUnsignedLong(d.maxSrqWr()));
        b.put(Attr.MAX_PKEYS, Integer.toUnsignedLong(d.maxPkeys()));
        b.put(Attr.LOCAL_CA_ACK_DELAY, Integer.toUnsignedLong(d.localCaAckDelay()));
        b.put(Attr.PHYS_PORT_CNT, Integer.toUnsignedLong(d.physPortCnt()));
    }

    /** Port attributes for the SESSION and the ibv_query_port event. */
    public static void port(Attrs.Builder b, int portNum, PortAttr p) {
        b.put(Attr.PORT_NUM, portNum);
        b.put(Attr.PORT_STATE, p.state().value());
        b.put(Attr.MAX_MTU, p.maxMtu().value());
        b.put(Attr.ACTIVE_MTU, p.activeMtu().value());
        b.put(Attr.GID_TBL_LEN, Integer.toUnsignedLong(p.gidTblLen()));
        b.put(Attr.PKEY_TBL_LEN, Integer.toUnsignedLong(p.pkeyTblLen()));
        b.put(Attr.LID, p.lid());
        b.put(Attr.SM_LID, p.smLid());
        b.put(Attr.LMC, p.lmc());
        b.put(Attr.PORT_CAP_FLAGS, Integer.toUnsignedLong(p.portCapFlags()));
        b.put(Attr.MAX_MSG_SZ, p.maxMsgSz());
        b.put(Attr.LINK_LAYER, p.linkLayer().value());
        b.put(Attr.ACTIVE_WIDTH, p.activeWidth());
        b.put(Attr.ACTIVE_SPEED, p.activeSpeed());
        b.put(Attr.PHYS_STATE, p.physState());
        b.put(Attr.MAX_VL_NUM, p.maxVlNum());
    }

    private static boolean has(int mask, QpAttrField f) {
        return (mask & f.value()) != 0;
    }
}
