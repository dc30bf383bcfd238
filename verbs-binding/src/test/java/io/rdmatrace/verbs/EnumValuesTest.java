package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The numeric values and names of libibverbs (rdma-facts §2, verbs.h of rdma-core 44). */
class EnumValuesTest {

    @Test
    void qpState_valuesAndNames() {
        assertThat(QpState.RESET.value()).isZero();
        assertThat(QpState.RTS.value()).isEqualTo(3);
        assertThat(QpState.ERR.value()).isEqualTo(6);
        assertThat(QpState.UNKNOWN.value()).isEqualTo(7);
        assertThat(QpState.RTS.ibvName()).isEqualTo("IBV_QPS_RTS");
        assertThat(QpState.of(2)).isEqualTo(QpState.RTR);
        assertThat(QpState.of(99)).isEqualTo(QpState.UNKNOWN);
    }

    @Test
    void qpType_values() {
        assertThat(QpType.RC.value()).isEqualTo(2);
        assertThat(QpType.UC.value()).isEqualTo(3);
        assertThat(QpType.UD.value()).isEqualTo(4);
        assertThat(QpType.RAW_PACKET.value()).isEqualTo(8);
        assertThat(QpType.XRC_RECV.value()).isEqualTo(10);
        assertThat(QpType.of(4)).isEqualTo(QpType.UD);
        assertThat(QpType.UD.ibvName()).isEqualTo("IBV_QPT_UD");
    }

    @Test
    void mtu_valuesAndBytes() {
        assertThat(Mtu.MTU_256.value()).isEqualTo(1);
        assertThat(Mtu.MTU_4096.value()).isEqualTo(5);
        assertThat(Mtu.MTU_1024.bytes()).isEqualTo(1024);
        assertThat(Mtu.of(4)).isEqualTo(Mtu.MTU_2048);
        assertThat(Mtu.of(0)).isEqualTo(Mtu.INVALID);
        assertThat(Mtu.ofBytes(4096)).isEqualTo(Mtu.MTU_4096);
        assertThat(Mtu.MTU_1024.ibvName()).isEqualTo("IBV_MTU_1024");
    }

    @Test
    void wcStatus_valuesAndLibibverbsStrings() {
        assertThat(WcStatus.SUCCESS.value()).isZero();
        assertThat(WcStatus.WR_FLUSH_ERR.value()).isEqualTo(5);
        assertThat(WcStatus.RETRY_EXC_ERR.value()).isEqualTo(12);
        assertThat(WcStatus.RNR_RETRY_EXC_ERR.value()).isEqualTo(13);
        assertThat(WcStatus.TM_RNDV_INCOMPLETE.value()).isEqualTo(23);
        assertThat(WcStatus.RETRY_EXC_ERR.ibvName()).isEqualTo("IBV_WC_RETRY_EXC_ERR");
        assertThat(WcStatus.RETRY_EXC_ERR.text()).isEqualTo("transport retry counter exceeded");
        assertThat(WcStatus.WR_FLUSH_ERR.text()).isEqualTo("Work Request Flushed Error");
        assertThat(WcStatus.of(24)).isEqualTo(WcStatus.UNKNOWN);
        assertThat(WcStatus.UNKNOWN.text()).isEqualTo("unknown");
        for (WcStatus s : WcStatus.values()) {
            if (s != WcStatus.UNKNOWN) {
                assertThat(WcStatus.of(s.value())).isEqualTo(s);
            }
        }
    }

    @Test
    void opcodes_values() {
        assertThat(WrOpcode.RDMA_WRITE.value()).isZero();
        assertThat(WrOpcode.SEND.value()).isEqualTo(2);
        assertThat(WrOpcode.SEND_WITH_IMM.value()).isEqualTo(3);
        assertThat(WrOpcode.RDMA_READ.value()).isEqualTo(4);
        assertThat(WrOpcode.FLUSH.value()).isEqualTo(14);
        assertThat(WrOpcode.of(12)).isEqualTo(WrOpcode.UNKNOWN);
        assertThat(WrOpcode.SEND_WITH_IMM.text()).isEqualTo("send-with-imm");
        assertThat(WcOpcode.RECV.value()).isEqualTo(128);
        assertThat(WcOpcode.RECV_RDMA_WITH_IMM.value()).isEqualTo(129);
        assertThat(WcOpcode.RECV_RDMA_WITH_IMM.isReceive()).isTrue();
        assertThat(WcOpcode.RDMA_READ.isReceive()).isFalse();
        assertThat(WcOpcode.of(2)).isEqualTo(WcOpcode.RDMA_READ);
    }

    @Test
    void flags_values() {
        assertThat(AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ))
                .isEqualTo(0x7);
        assertThat(AccessFlag.RELAXED_ORDERING.value()).isEqualTo(1 << 20);
        assertThat(AccessFlag.of(0x9)).containsExactly(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_ATOMIC);
        assertThat(SendFlag.bits(SendFlag.SIGNALED, SendFlag.INLINE)).isEqualTo(0xa);
        assertThat(WcFlag.WITH_IMM.value()).isEqualTo(2);
        assertThat(WcFlag.GRH.isSetIn(3)).isTrue();
    }

    @Test
    void eventType_valuesAndStrings() {
        assertThat(EventType.CQ_ERR.value()).isZero();
        assertThat(EventType.COMM_EST.value()).isEqualTo(4);
        assertThat(EventType.PORT_ACTIVE.value()).isEqualTo(9);
        assertThat(EventType.GID_CHANGE.value()).isEqualTo(18);
        assertThat(EventType.QP_LAST_WQE_REACHED.text()).isEqualTo("last WQE reached");
        assertThat(EventType.of(21)).isEqualTo(EventType.UNKNOWN);
    }

    @Test
    void portAndLinkEnums() {
        assertThat(PortState.ACTIVE.value()).isEqualTo(4);
        assertThat(PortState.ACTIVE.text()).isEqualTo("active");
        assertThat(PortState.NOP.text()).isEqualTo("no state change (NOP)");
        assertThat(PortState.ACTIVE.ibvName()).isEqualTo("IBV_PORT_ACTIVE");
        assertThat(LinkLayer.ETHERNET.value()).isEqualTo(2);
        assertThat(LinkLayer.of(1)).isEqualTo(LinkLayer.INFINIBAND);
        assertThat(MigState.ARMED.value()).isEqualTo(2);
        assertThat(GidType.ROCE_V2.value()).isEqualTo(2);
        assertThat(GidType.ROCE_V2.text()).isEqualTo("RoCE v2");
        assertThat(GidType.ofSysfs("IB/RoCE v1\n")).isEqualTo(GidType.ROCE_V1);
        assertThat(AtomicCap.HCA.value()).isEqualTo(1);
        assertThat(NodeType.CA.value()).isEqualTo(1);
        assertThat(TransportType.IB.value()).isZero();
    }

    @Test
    void qpAttrField_bitsMatchTheKernelEnum() {
        assertThat(QpAttrField.STATE.value()).isEqualTo(0x1);
        assertThat(QpAttrField.AV.value()).isEqualTo(0x80);
        assertThat(QpAttrField.PATH_MTU.value()).isEqualTo(0x100);
        assertThat(QpAttrField.ALT_PATH.value()).isEqualTo(0x4000);
        assertThat(QpAttrField.DEST_QPN.value()).isEqualTo(0x100000);
        assertThat(QpAttrField.RATE_LIMIT.value()).isEqualTo(0x2000000);
        assertThat(QpAttrField.MAX_DEST_RD_ATOMIC.ibvName()).isEqualTo("IBV_QP_MAX_DEST_RD_ATOMIC");
    }
}
