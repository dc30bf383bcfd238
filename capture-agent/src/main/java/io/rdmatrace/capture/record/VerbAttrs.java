package io.rdmatrace.capture.record;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.PortAttr;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpQuery;

/** How the verbs binding's structs become trace attributes (one place, so every event spells them alike). */
public final class VerbAttrs {
    private VerbAttrs() {
    }

    /**
     * Every ibv_qp_attr field of a query answer plus its init attributes, as an ibv_query_qp event
     * records them ({@link QueryOutputs}).
     */
    public static Attrs queryOutputs(QpQuery q) {
        return new QueryOutputs().fill(q, new GidCache()).toAttrs();
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

}
