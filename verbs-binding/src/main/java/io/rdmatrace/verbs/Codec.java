package io.rdmatrace.verbs;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import java.time.Duration;

/** Reads result records out of, and writes argument records into, a {@link CallBuffer}'s payload. */
final class Codec {
    private Codec() {
    }

    static <T> Outcome<T> outcome(String verb, T value, CallStatus status) {
        if (status.ok() && value != null) {
            return new Outcome.Ok<>(verb, value, status);
        }
        return new Outcome.Failed<>(verb, status);
    }

    static int timeoutMillis(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or positive, not " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }

    static DeviceAttr deviceAttr(SlotSource io, String fwVer) {
        return new DeviceAttr(fwVer,
                io.get(Slots.DeviceAttr.NODE_GUID.ordinal()),
                io.get(Slots.DeviceAttr.SYS_IMAGE_GUID.ordinal()),
                io.get(Slots.DeviceAttr.MAX_MR_SIZE.ordinal()),
                io.get(Slots.DeviceAttr.PAGE_SIZE_CAP.ordinal()),
                io.getInt(Slots.DeviceAttr.VENDOR_ID.ordinal()),
                io.getInt(Slots.DeviceAttr.VENDOR_PART_ID.ordinal()),
                io.getInt(Slots.DeviceAttr.HW_VER.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_QP.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_QP_WR.ordinal()),
                io.getInt(Slots.DeviceAttr.DEVICE_CAP_FLAGS.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_SGE.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_SGE_RD.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_CQ.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_CQE.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_MR.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_PD.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_QP_RD_ATOM.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_EE_RD_ATOM.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_RES_RD_ATOM.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_QP_INIT_RD_ATOM.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_EE_INIT_RD_ATOM.ordinal()),
                AtomicCap.of(io.getInt(Slots.DeviceAttr.ATOMIC_CAP.ordinal())),
                io.getInt(Slots.DeviceAttr.MAX_EE.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_RDD.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_MW.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_RAW_IPV6_QP.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_RAW_ETHY_QP.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_MCAST_GRP.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_MCAST_QP_ATTACH.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_TOTAL_MCAST_QP_ATTACH.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_AH.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_FMR.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_MAP_PER_FMR.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_SRQ.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_SRQ_WR.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_SRQ_SGE.ordinal()),
                io.getInt(Slots.DeviceAttr.MAX_PKEYS.ordinal()),
                io.getInt(Slots.DeviceAttr.LOCAL_CA_ACK_DELAY.ordinal()),
                io.getInt(Slots.DeviceAttr.PHYS_PORT_CNT.ordinal()));
    }

    static PortAttr portAttr(SlotSource io) {
        return new PortAttr(
                PortState.of(io.getInt(Slots.PortAttr.STATE.ordinal())),
                Mtu.of(io.getInt(Slots.PortAttr.MAX_MTU.ordinal())),
                Mtu.of(io.getInt(Slots.PortAttr.ACTIVE_MTU.ordinal())),
                io.getInt(Slots.PortAttr.GID_TBL_LEN.ordinal()),
                io.getInt(Slots.PortAttr.PORT_CAP_FLAGS.ordinal()),
                io.get(Slots.PortAttr.MAX_MSG_SZ.ordinal()),
                io.get(Slots.PortAttr.BAD_PKEY_CNTR.ordinal()),
                io.get(Slots.PortAttr.QKEY_VIOL_CNTR.ordinal()),
                io.getInt(Slots.PortAttr.PKEY_TBL_LEN.ordinal()),
                io.getInt(Slots.PortAttr.LID.ordinal()),
                io.getInt(Slots.PortAttr.SM_LID.ordinal()),
                io.getInt(Slots.PortAttr.LMC.ordinal()),
                io.getInt(Slots.PortAttr.MAX_VL_NUM.ordinal()),
                io.getInt(Slots.PortAttr.SM_SL.ordinal()),
                io.getInt(Slots.PortAttr.SUBNET_TIMEOUT.ordinal()),
                io.getInt(Slots.PortAttr.INIT_TYPE_REPLY.ordinal()),
                io.getInt(Slots.PortAttr.ACTIVE_WIDTH.ordinal()),
                io.getInt(Slots.PortAttr.ACTIVE_SPEED.ordinal()),
                io.getInt(Slots.PortAttr.PHYS_STATE.ordinal()),
                LinkLayer.of(io.getInt(Slots.PortAttr.LINK_LAYER.ordinal())),
                io.getInt(Slots.PortAttr.FLAGS.ordinal()),
                io.getInt(Slots.PortAttr.PORT_CAP_FLAGS2.ordinal()));
    }

    static IbvGidEntry gidEntry(SlotSource io) {
        return new IbvGidEntry(Gid.of(io.getBytes16(Slots.GidEntry.GID_0.ordinal())),
                io.getInt(Slots.GidEntry.GID_INDEX.ordinal()),
                io.getInt(Slots.GidEntry.PORT_NUM.ordinal()),
                GidType.of(io.getInt(Slots.GidEntry.GID_TYPE.ordinal())),
                io.getInt(Slots.GidEntry.NDEV_IFINDEX.ordinal()));
    }

    static IbvAsyncEvent asyncEvent(SlotSource io) {
        return new IbvAsyncEvent(EventType.of(io.getInt(Slots.AsyncEvent.EVENT_TYPE.ordinal())),
                io.get(Slots.AsyncEvent.ELEMENT.ordinal()),
                io.getInt(Slots.AsyncEvent.QP_NUM.ordinal()),
                io.getInt(Slots.AsyncEvent.PORT_NUM.ordinal()));
    }

    static void writeAhAttr(CallBuffer io, int base, AhAttr ah) {
        io.setBytes16(base + Slots.AhAttr.DGID_0.ordinal(), ah.grh().dgid().raw());
        io.set(base + Slots.AhAttr.FLOW_LABEL.ordinal(), ah.grh().flowLabel());
        io.set(base + Slots.AhAttr.SGID_INDEX.ordinal(), ah.grh().sgidIndex());
        io.set(base + Slots.AhAttr.HOP_LIMIT.ordinal(), ah.grh().hopLimit());
        io.set(base + Slots.AhAttr.TRAFFIC_CLASS.ordinal(), ah.grh().trafficClass());
        io.set(base + Slots.AhAttr.DLID.ordinal(), ah.dlid());
        io.set(base + Slots.AhAttr.SL.ordinal(), ah.sl());
        io.set(base + Slots.AhAttr.SRC_PATH_BITS.ordinal(), ah.srcPathBits());
        io.set(base + Slots.AhAttr.STATIC_RATE.ordinal(), ah.staticRate());
        io.set(base + Slots.AhAttr.IS_GLOBAL.ordinal(), ah.isGlobal() ? 1 : 0);
        io.set(base + Slots.AhAttr.PORT_NUM.ordinal(), ah.portNum());
    }

    static AhAttr readAhAttr(SlotSource io, int base) {
        GlobalRoute grh = new GlobalRoute(Gid.of(io.getBytes16(base + Slots.AhAttr.DGID_0.ordinal())),
                io.getInt(base + Slots.AhAttr.FLOW_LABEL.ordinal()),
                io.getInt(base + Slots.AhAttr.SGID_INDEX.ordinal()),
                io.getInt(base + Slots.AhAttr.HOP_LIMIT.ordinal()),
                io.getInt(base + Slots.AhAttr.TRAFFIC_CLASS.ordinal()));
        return new AhAttr(grh,
                io.getInt(base + Slots.AhAttr.DLID.ordinal()),
                io.getInt(base + Slots.AhAttr.SL.ordinal()),
                io.getInt(base + Slots.AhAttr.SRC_PATH_BITS.ordinal()),
                io.getInt(base + Slots.AhAttr.STATIC_RATE.ordinal()),
                io.getInt(base + Slots.AhAttr.IS_GLOBAL.ordinal()) != 0,
                io.getInt(base + Slots.AhAttr.PORT_NUM.ordinal()));
    }

    /** Each {@link QpField}'s payload slot in a QP_ATTR block and the two AH blocks after it. */
    private static final int[] QP_SLOT = qpSlots();

    private static int[] qpSlots() {
        int[] slots = new int[QpField.all().size()];
        for (QpField f : QpField.all()) {
            try {
                slots[f.ordinal()] = switch (f.block()) {
                    case QP_ATTR -> qpAttrSlot(f.slot());
                    case AH_ATTR -> Slots.QA_AH_BASE + Slots.AhAttr.valueOf(f.slot()).ordinal();
                    case ALT_AH_ATTR -> Slots.QA_ALT_AH_BASE + Slots.AhAttr.valueOf(f.slot()).ordinal();
                };
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("verbs ABI model: " + f + " names slot " + f.block() + "." + f.slot()
                        + ", which the JNI layout (Slots, record/layout.h) does not have", e);
            }
        }
        return slots;
    }

    private static int qpAttrSlot(String slot) {
        int i = Slots.QP_ATTR.indexOf(slot);
        if (i < 0) {
            throw new IllegalArgumentException("no QP_ATTR slot " + slot);
        }
        return i;
    }

    /** {@code f}'s payload slot in a QP_ATTR block (and its AH blocks) at payload slot 0. */
    static int qpSlot(QpField f) {
        return QP_SLOT[f.ordinal()];
    }

    /** A QP_ATTR block and its two AH blocks at payload slot 0: every field, by its descriptor. */
    static void writeQpAttr(CallBuffer io, QpAttr a) {
        for (QpField f : QpField.all()) {
            if (f.cType() == CType.GID) {
                io.setBytes16(QP_SLOT[f.ordinal()], a.gid(f).raw());
            } else {
                io.set(QP_SLOT[f.ordinal()], a.get(f));
            }
        }
    }

    /** The number fields' ordinals and slots, then the GID fields': the decoder's loops test no kinds. */
    private static final int[] NUM_FIELD = fields(false);
    private static final int[] NUM_SLOT = slotsOf(NUM_FIELD);
    private static final int[] GID_FIELD = fields(true);
    private static final int[] GID_SLOT = slotsOf(GID_FIELD);

    private static int[] fields(boolean gid) {
        return QpField.all().stream().filter(f -> (f.cType() == CType.GID) == gid).mapToInt(QpField::ordinal).toArray();
    }

    private static int[] slotsOf(int[] ordinals) {
        int[] slots = new int[ordinals.length];
        for (int i = 0; i < ordinals.length; i++) {
            slots[i] = QP_SLOT[ordinals[i]];
        }
        return slots;
    }

    /**
     * As {@code QpAttr.builder()} set with every field would read it (a zero GID is absent), without
     * the builder's per-field checks and copies: ibv_query_qp answers in the JNI benchmark spent most
     * of their Java time here.
     */
    static QpAttr readQpAttr(SlotSource io) {
        int[] values = new int[QpField.all().size()];
        for (int i = 0; i < NUM_FIELD.length; i++) {
            values[NUM_FIELD[i]] = io.getInt(NUM_SLOT[i]);
        }
        Gid[] gids = new Gid[values.length];
        for (int i = 0; i < GID_FIELD.length; i++) {
            int slot = GID_SLOT[i];
            if (io.get(slot) != 0 || io.get(slot + 1) != 0) {
                gids[GID_FIELD[i]] = Gid.wrap(io.getBytes16(slot));
            }
        }
        return QpAttr.wrap(values, gids);
    }

    static void writeQpInit(CallBuffer io, int base, QpInitAttr init, long sendCq, long recvCq) {
        io.set(base + Slots.QpInit.SEND_CQ.ordinal(), sendCq);
        io.set(base + Slots.QpInit.RECV_CQ.ordinal(), recvCq);
        io.set(base + Slots.QpInit.SRQ.ordinal(), 0);
        io.set(base + Slots.QpInit.QP_TYPE.ordinal(), init.qpType().value());
        io.set(base + Slots.QpInit.SQ_SIG_ALL.ordinal(), init.sqSigAll() ? 1 : 0);
        io.set(base + Slots.QpInit.MAX_SEND_WR.ordinal(), init.cap().maxSendWr());
        io.set(base + Slots.QpInit.MAX_RECV_WR.ordinal(), init.cap().maxRecvWr());
        io.set(base + Slots.QpInit.MAX_SEND_SGE.ordinal(), init.cap().maxSendSge());
        io.set(base + Slots.QpInit.MAX_RECV_SGE.ordinal(), init.cap().maxRecvSge());
        io.set(base + Slots.QpInit.MAX_INLINE_DATA.ordinal(), init.cap().maxInlineData());
    }

    static QpCap readQpInitCap(SlotSource io, int base) {
        return new QpCap(io.getInt(base + Slots.QpInit.MAX_SEND_WR.ordinal()),
                io.getInt(base + Slots.QpInit.MAX_RECV_WR.ordinal()),
                io.getInt(base + Slots.QpInit.MAX_SEND_SGE.ordinal()),
                io.getInt(base + Slots.QpInit.MAX_RECV_SGE.ordinal()),
                io.getInt(base + Slots.QpInit.MAX_INLINE_DATA.ordinal()));
    }
}
