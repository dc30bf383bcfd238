package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every control-path verb against softverbs: outputs, ret/errno/duration, typed failures. */
class ControlPathTest {

    private static SoftDevices soft;

    @BeforeAll
    static void devices() {
        soft = SoftDevices.open("cp");
    }

    @AfterAll
    static void release() {
        if (soft != null) {
            soft.close();
        }
    }

    private static void assertTimedOk(CallStatus status) {
        assertThat(status.ok()).as("status %s", status).isTrue();
        assertThat(status.errno()).isZero();
        assertThat(status.errnoName()).isEmpty();
        assertThat(status.durationNanos()).isPositive();
    }

    @Test
    void deviceList_namesGuidsAndTypes() {
        assertTimedOk(soft.list.status());
        assertThat(soft.list.devices()).extracting(Device::name).containsExactly(soft.nameA, soft.nameB);
        Device a = soft.a();
        assertThat(a.nodeType()).isEqualTo(NodeType.CA);
        assertThat(a.transportType()).isEqualTo(TransportType.IB);
        assertThat(a.guid()).isNotZero();
        assertThat(a.guid()).isNotEqualTo(soft.b().guid());
        assertThatThrownBy(() -> soft.list.byName("nope")).hasMessageContaining("no RDMA device named 'nope'");
    }

    @Test
    void openAndQueries_returnTheDevicesAttributes() {
        RecordingListener rec = new RecordingListener();
        try (Context ctx = soft.a().open(rec)) {
            assertTimedOk(ctx.openStatus());
            DeviceAttr dev = ctx.queryDevice();
            assertThat(dev.fwVer()).isEqualTo("0.0.0");
            assertThat(dev.vendorId()).isEqualTo(0xFFFFFF);
            assertThat(dev.physPortCnt()).isEqualTo(1);
            assertThat(dev.nodeGuid()).isEqualTo(soft.a().guid());
            assertThat(dev.maxQpWr()).isPositive();
            assertThat(dev.maxSge()).isPositive();
            assertThat(dev.atomicCap()).isEqualTo(AtomicCap.HCA);

            PortAttr port = ctx.queryPort(1);
            assertThat(port.state()).isEqualTo(PortState.ACTIVE);
            assertThat(port.linkLayer()).isEqualTo(LinkLayer.ETHERNET);
            assertThat(port.maxMtu()).isEqualTo(Mtu.MTU_4096);
            assertThat(port.activeMtu()).isEqualTo(Mtu.MTU_1024);
            assertThat(port.gidTblLen()).isPositive();
            assertThat(port.pkeyTblLen()).isPositive();

            int v2 = Loopback.roceV2GidIndex(ctx, soft.ipA);
            IbvGidEntry entry = ctx.queryGidEntry(1, v2);
            assertThat(entry.gid().ipv4()).contains(soft.ipA);
            assertThat(entry.gidIndex()).isEqualTo(v2);
            assertThat(entry.portNum()).isEqualTo(1);
            assertThat(ctx.queryGid(1, v2)).isEqualTo(entry.gid());
            assertThat(ctx.queryPkey(1, 0)).isEqualTo(0xffff);

            Outcome<PortAttr> noPort = ctx.tryQueryPort(2);
            assertThat(noPort).isInstanceOf(Outcome.Failed.class);
            assertThat(noPort.status().errnoName()).isEqualTo("EINVAL");
            assertThat(noPort.status().durationNanos()).isPositive();
            assertThatThrownBy(() -> ctx.queryPort(2))
                    .isInstanceOfSatisfying(VerbsCallException.class, e -> {
                        assertThat(e.verb()).isEqualTo("ibv_query_port");
                        assertThat(e.errno()).isEqualTo(22);
                        assertThat(e.getMessage()).contains("ibv_query_port failed: EINVAL (22, Invalid argument)");
                    });
        }
        assertThat(rec.verbs()).startsWith("ibv_open_device", "ibv_query_device", "ibv_query_port")
                .contains("ibv_query_gid_ex", "ibv_query_gid", "ibv_query_pkey")
                .endsWith("ibv_close_device");
        assertThat(rec.calls).allSatisfy(c -> assertThat(c.status().durationNanos()).isPositive());
        VerbCall.QueryPort failed = rec.calls.stream().filter(c -> c instanceof VerbCall.QueryPort q && q.portNum() == 2)
                .map(VerbCall.QueryPort.class::cast).findFirst().orElseThrow();
        assertThat(failed.attr()).isNull();
        assertThat(failed.status().errno()).isEqualTo(22);
    }

    @Test
    void pdAndMr_registerDeregAndRefuseSecondDereg() {
        try (Context ctx = soft.a().open(); NativeMemory mem = NativeMemory.allocate(8192)) {
            ProtectionDomain pd = ctx.allocPd();
            assertTimedOk(pd.creationStatus());
            assertThat(pd.handle()).isNotZero();

            int access = AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ);
            MemoryRegion mr = pd.regMr(mem, access);
            assertTimedOk(mr.creationStatus());
            assertThat(mr.address()).isEqualTo(mem.address());
            assertThat(mr.length()).isEqualTo(8192);
            assertThat(mr.lkey()).isNotZero();
            assertThat(mr.access()).isEqualTo(access);
            mr.buffer().putInt(0, 0xCAFEBABE);
            assertThat(mem.buffer().getInt(0)).isEqualTo(0xCAFEBABE);

            assertThatThrownBy(mem::close).hasMessageContaining("still registered");
            assertTimedOk(mr.dereg());
            assertThat(mr.isDestroyed()).isTrue();
            assertThatThrownBy(mr::dereg)
                    .isInstanceOf(ResourceClosedException.class)
                    .hasMessageContaining("ibv_dereg_mr on memory region");
            assertThatThrownBy(mr::tryDereg).isInstanceOf(ResourceClosedException.class);
            mr.close(); // idempotent

            Outcome<MemoryRegion> remoteWithoutLocal = pd.tryRegMr(mem, 0, 4096,
                    AccessFlag.bits(AccessFlag.REMOTE_WRITE));
            assertThat(remoteWithoutLocal.ok()).isFalse();
            assertThat(remoteWithoutLocal.status().errnoName()).isEqualTo("EINVAL");
            assertThat(remoteWithoutLocal.status().ret()).isEqualTo(-1);
            assertThat(remoteWithoutLocal.status().durationNanos()).isPositive();

            assertTimedOk(pd.destroy());
        }
    }

    @Test
    void cqAndChannel_createAndDestroy() {
        try (Context ctx = soft.a().open()) {
            CompletionChannel channel = ctx.createCompChannel();
            assertTimedOk(channel.creationStatus());
            assertThat(channel.fd()).isNotNegative();
            CompletionQueue cq = ctx.createCq(100, channel, 0);
            assertTimedOk(cq.creationStatus());
            assertThat(cq.cqe()).isGreaterThanOrEqualTo(100);
            assertThat(cq.channel()).isSameAs(channel);
            assertTimedOk(cq.reqNotify(false));

            Outcome<CompletionQueue> zero = ctx.tryCreateCq(0, null, 0);
            assertThat(zero.status().errnoName()).isEqualTo("EINVAL");

            assertTimedOk(cq.destroy());
            assertTimedOk(channel.destroy());
        }
    }

    @Test
    void qp_createQueryAndIllegalTransitionIsEinvalWithStateUnchanged() {
        RecordingListener rec = new RecordingListener();
        try (Context ctx = soft.a().open(rec)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QpCap asked = new QpCap(10, 20, 2, 3, 16);
            QueuePair qp = pd.createQp(new QpInitAttr(cq, cq, QpType.RC, asked, true));
            assertTimedOk(qp.creationStatus());
            assertThat(qp.qpNum()).isPositive();
            assertThat(qp.cap().maxSendWr()).isGreaterThanOrEqualTo(10);
            assertThat(qp.cap().maxRecvWr()).isGreaterThanOrEqualTo(20);
            assertThat(qp.cap().maxSendSge()).isGreaterThanOrEqualTo(2);
            assertThat(qp.cap().maxRecvSge()).isGreaterThanOrEqualTo(3);
            assertThat(qp.cap().maxInlineData()).isGreaterThanOrEqualTo(16);

            QpQuery fresh = qp.query();
            assertThat(fresh.attr().qpState()).isEqualTo(QpState.RESET);
            assertThat(fresh.qpNum()).isEqualTo(qp.qpNum());
            assertThat(fresh.qpType()).isEqualTo(QpType.RC);
            assertThat(fresh.sqSigAll()).isTrue();
            assertThat(fresh.initCap()).isEqualTo(qp.cap());
            assertThat(fresh.sendCqHandle()).isEqualTo(cq.handle());

            QpAttr toRts = QpAttr.builder().qpState(QpState.RTS).build();
            CallStatus illegal = qp.tryModify(toRts, QpAttrMask.of(QpAttrField.STATE));
            assertThat(illegal.ok()).isFalse();
            assertThat(illegal.errno()).isEqualTo(22);
            assertThat(illegal.errnoName()).isEqualTo("EINVAL");
            assertThat(illegal.ret()).isEqualTo(22);
            assertThat(illegal.durationNanos()).isPositive();
            assertThat(qp.query().attr().qpState()).isEqualTo(QpState.RESET);
            assertThat(qp.cachedState()).isEqualTo(QpState.RESET);
            assertThatThrownBy(() -> qp.modify(toRts, QpAttrMask.of(QpAttrField.STATE)))
                    .isInstanceOfSatisfying(VerbsCallException.class,
                            e -> assertThat(e.status().errnoName()).isEqualTo("EINVAL"));

            assertTimedOk(qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
                    .qpAccessFlags(AccessFlag.bits(AccessFlag.REMOTE_WRITE))));
            QpAttr init = qp.query().attr();
            assertThat(init.qpState()).isEqualTo(QpState.INIT);
            assertThat(init.portNum()).isEqualTo(1);
            assertThat(init.qpAccessFlags()).isEqualTo(AccessFlag.bits(AccessFlag.REMOTE_WRITE));
            assertThat(qp.cachedState()).isEqualTo(QpState.INIT);

            assertTimedOk(qp.destroy());
            assertTimedOk(cq.destroy());
            assertTimedOk(pd.destroy());
        }
        VerbCall.ModifyQp refused = rec.calls.stream().filter(VerbCall.ModifyQp.class::isInstance)
                .map(VerbCall.ModifyQp.class::cast).findFirst().orElseThrow();
        assertThat(refused.attr().qpState()).isEqualTo(QpState.RTS);
        assertThat(refused.mask().bits()).isEqualTo(1);
        assertThat(refused.status().errno()).isEqualTo(22);
        VerbCall.CreateQp created = rec.calls.stream().filter(VerbCall.CreateQp.class::isInstance)
                .map(VerbCall.CreateQp.class::cast).findFirst().orElseThrow();
        assertThat(created.init().cap()).isEqualTo(new QpCap(10, 20, 2, 3, 16));
        assertThat(created.granted().maxRecvWr()).isGreaterThanOrEqualTo(20);
    }

    @Test
    void qp_queryIntoReusedBuffer_readsGidsInPlaceAsTheRecordQuery() {
        try (Context ctx = soft.a().open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(8, 8, 1, 1, 0)));
            QpQueryBuffer answer = new QpQueryBuffer();
            assertThatThrownBy(() -> answer.gid(QpField.AH_DGID)).isInstanceOf(IllegalStateException.class);
            qp.query(QueuePair.ALL_ATTRIBUTES, answer);
            assertThat(answer.gid(QpField.AH_DGID)).as("all zero in RESET").isSameAs(Gid.ZERO);
            assertThat(answer.gidEquals(QpField.AH_DGID, Gid.ZERO)).isTrue();

            Gid gid = ctx.queryGid(1, 0);
            assertThat(gid.isZero()).isFalse();
            qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
                    .qpAccessFlags(AccessFlag.bits(AccessFlag.REMOTE_WRITE)));
            qp.modify(QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp.qpNum()).rqPsn(1)
                    .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(gid, 0, 1)));
            qp.query(QueuePair.ALL_ATTRIBUTES, answer);
            QpQuery record = qp.query();
            for (QpField f : QpField.all()) {
                if (f.cType() == CType.GID) {
                    assertThat(answer.gid(f)).as(f.toString()).isEqualTo(record.gid(f)).isEqualTo(record.attr().gid(f));
                    assertThat(answer.gidEquals(f, record.gid(f))).as(f.toString()).isTrue();
                } else {
                    assertThat(answer.get(f)).as(f.toString()).isEqualTo(record.get(f));
                }
            }
            assertThat(answer.gid(QpField.AH_DGID)).isEqualTo(gid);
            assertThat(answer.gidEquals(QpField.AH_DGID, Gid.ZERO)).isFalse();
            assertThat(answer.gidEquals(QpField.ALT_AH_DGID, Gid.ZERO)).isTrue();
            assertThatThrownBy(() -> answer.gid(QpField.QP_STATE)).isInstanceOf(IllegalArgumentException.class);
            qp.destroy();
            cq.destroy();
            pd.destroy();
        }
    }

    @Test
    void qp_queryIntoReusedBuffer_answersAsTheRecordQueryAndFollowsEachQuery() {
        RecordingListener rec = new RecordingListener();
        int access = AccessFlag.bits(AccessFlag.REMOTE_WRITE);
        try (Context ctx = soft.a().open(rec)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(new QpInitAttr(cq, cq, QpType.RC, new QpCap(10, 20, 2, 3, 16), true));
            QpQueryBuffer answer = new QpQueryBuffer();
            assertThat(answer.ok()).isFalse();
            assertThatThrownBy(answer::attr).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no ibv_query_qp has answered");

            assertThat(qp.query(QueuePair.ALL_ATTRIBUTES, answer)).isZero();
            assertTimedOk(answer.status());
            assertThat(answer.ok()).isTrue();
            assertThat(answer.ret()).isZero();
            assertThat(answer.durationNanos()).isPositive();
            assertThat(answer.mask()).isEqualTo(QueuePair.ALL_ATTRIBUTES);
            QpQuery record = qp.query();
            assertThat(answer.attr()).isEqualTo(record.attr());
            assertThat(answer.attr().qpState()).isEqualTo(QpState.RESET);
            assertThat(answer.qpNum()).isEqualTo(qp.qpNum());
            assertThat(answer.qpType()).isEqualTo(QpType.RC);
            assertThat(answer.sqSigAll()).isTrue();
            assertThat(answer.initCap()).isEqualTo(qp.cap());
            assertThat(answer.sendCqHandle()).isEqualTo(cq.handle());
            assertThat(answer.recvCqHandle()).isEqualTo(cq.handle());
            QpQuery kept = answer.toQuery();
            assertThat(kept).isEqualTo(record);

            qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(access));
            assertThat(qp.query(QpAttrMask.of(QpAttrField.STATE), answer)).isZero();
            assertThat(answer.mask()).isEqualTo(QpAttrMask.of(QpAttrField.STATE));
            assertThat(answer.attr().qpState()).as("decoded anew after each query").isEqualTo(QpState.INIT);
            assertThat(answer.attr().qpAccessFlags()).isEqualTo(access);
            assertThat(answer.get(QpField.QP_STATE)).isEqualTo(QpState.INIT.value());
            assertThat(answer.get(QpField.QP_ACCESS_FLAGS)).isEqualTo(access);
            assertThatThrownBy(() -> answer.get(QpField.AH_DGID)).isInstanceOf(IllegalArgumentException.class);
            assertThat(kept.attr().qpState()).as("a copy keeps its own answer").isEqualTo(QpState.RESET);

            qp.destroy();
            assertThatThrownBy(() -> qp.query(QueuePair.ALL_ATTRIBUTES, answer))
                    .isInstanceOf(ResourceClosedException.class);
            assertThat(answer.attr().qpState()).as("a refused call leaves the last answer").isEqualTo(QpState.INIT);
            cq.destroy();
            pd.destroy();
        }
        // the listener gets an immutable copy of each buffered answer, as from tryQuery
        List<VerbCall.QueryQp> queries = rec.calls.stream().filter(VerbCall.QueryQp.class::isInstance)
                .map(VerbCall.QueryQp.class::cast).toList();
        assertThat(queries).hasSize(3);
        assertThat(queries.get(0).result()).isEqualTo(queries.get(1).result());
        assertTimedOk(queries.get(0).status());
        assertThat(queries.get(2).mask()).isEqualTo(QpAttrMask.of(QpAttrField.STATE));
        assertThat(queries.get(2).result().attr().qpState()).isEqualTo(QpState.INIT);
    }

    @Test
    void kernelRules_surfaceAsTypedErrnos() {
        try (Context ctx = soft.a().open(); RecvBatch recv = new RecvBatch(1, 1);
             NativeMemory mem = NativeMemory.allocate(4096)) {
            ProtectionDomain pd = ctx.allocPd();
            MemoryRegion mr = pd.regMr(mem, AccessFlag.bits(AccessFlag.LOCAL_WRITE));
            CompletionQueue cq = ctx.createCq(16);
            DeviceAttr dev = ctx.queryDevice();

            Outcome<QueuePair> tooDeep = pd.tryCreateQp(
                    QpInitAttr.of(QpType.RC, cq, new QpCap(dev.maxQpWr() + 1, 1, 1, 1, 0)));
            assertThat(tooDeep.status().errnoName()).as("max_send_wr above max_qp_wr").isEqualTo("EINVAL");

            QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(4, 4, 1, 1, 0)));
            // RESET -> ERR is not a row of the kernel's transition table
            assertThat(qp.tryModify(QpAttr.builder().qpState(QpState.ERR).build(), QpAttrMask.of(QpAttrField.STATE))
                    .errnoName()).isEqualTo("EINVAL");
            // a qp_state value beyond ERR
            assertThat(qp.tryModify(QpAttr.builder().qpState(QpState.UNKNOWN).build(),
                    QpAttrMask.of(QpAttrField.STATE)).errnoName()).isEqualTo("EINVAL");

            recv.clear().add(1).sge(mr, 0, 64);
            assertThat(qp.postRecv(recv)).as("post_recv on a RESET QP").isEqualTo(22);
            assertThat(recv.status().errnoName()).isEqualTo("EINVAL");

            qp.modify(QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1).qpAccessFlags(0));
            assertThat(qp.postRecv(recv)).as("post_recv is legal from INIT on").isZero();
            // RoCE needs a GRH in the address vector
            QpAttr.Builder noGrh = QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp.qpNum())
                    .rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12)
                    .ahAttr(new AhAttr(GlobalRoute.NONE, 0, 0, 0, 0, false, 1));
            assertThat(qp.tryModify(noGrh.build(), noGrh.mask()).errnoName()).isEqualTo("EINVAL");
            assertThat(qp.query().attr().qpState()).isEqualTo(QpState.INIT);

            qp.destroy();
            cq.destroy();
            mr.dereg();
            pd.destroy();
        }
    }

    @Test
    void fullBringUp_queryReturnsEveryAttributeSet() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            QpQuery q = lb.a.qp.query();
            QpAttr attr = q.attr();
            assertThat(attr.qpState()).isEqualTo(QpState.RTS);
            assertThat(attr.pathMtu()).isEqualTo(Mtu.MTU_1024);
            assertThat(attr.destQpNum()).isEqualTo(lb.b.qp.qpNum());
            assertThat(attr.rqPsn()).isEqualTo(0x1000 + lb.b.qp.qpNum());
            assertThat(attr.sqPsn()).isEqualTo(0x1000 + lb.a.qp.qpNum());
            assertThat(attr.timeout()).isEqualTo(14);
            assertThat(attr.retryCnt()).isEqualTo(7);
            assertThat(attr.rnrRetry()).isEqualTo(7);
            assertThat(attr.maxRdAtomic()).isEqualTo(4);
            assertThat(attr.maxDestRdAtomic()).isEqualTo(4);
            assertThat(attr.minRnrTimer()).isEqualTo(12);
            assertThat(attr.portNum()).isEqualTo(1);
            assertThat(attr.qpAccessFlags()).isEqualTo(Loopback.ACCESS);
            AhAttr av = attr.ahAttr();
            assertThat(av.isGlobal()).isTrue();
            assertThat(av.grh().dgid()).isEqualTo(lb.b.gid);
            assertThat(av.grh().dgid().ipv4()).contains(soft.ipB);
            assertThat(av.grh().sgidIndex()).isEqualTo(lb.a.gidIndex);
            assertThat(av.grh().hopLimit()).isEqualTo(1);
            assertThat(av.portNum()).isEqualTo(1);
        }
    }

    @Test
    void queryAnswerFields_readInPlace_areTheDecodedAttributes() {
        try (Loopback lb = Loopback.connected(soft, QpType.RC)) {
            QpQuery inPlace = lb.a.qp.query();
            QpAttr decoded = lb.a.qp.query().attr();
            for (QpField f : QpField.all()) {
                if (f.cType() == CType.GID) {
                    assertThat(inPlace.gid(f)).as(f.cName()).isEqualTo(decoded.gid(f));
                    assertThat(inPlace.gidEquals(f, decoded.gid(f))).as(f.cName()).isTrue();
                    assertThat(inPlace.gidEquals(f, Gid.parse("fe80:0:0:0:0:0:0:1"))).as(f.cName()).isFalse();
                    assertThatThrownBy(() -> inPlace.get(f)).isInstanceOf(IllegalArgumentException.class);
                } else {
                    assertThat(inPlace.get(f)).as(f.cName()).isEqualTo(decoded.get(f));
                }
            }
            assertThat(inPlace.gid(QpField.AH_DGID)).isEqualTo(lb.b.gid);
            assertThat(inPlace.gid(QpField.ALT_AH_DGID)).isSameAs(Gid.ZERO);
            assertThat(inPlace.get(QpField.SQ_PSN)).isEqualTo(0x1000 + lb.a.qp.qpNum());
        }
    }

    @Test
    void destroyCqInUse_isEbusyAndTheCqStaysUsable() {
        try (Context ctx = soft.a().open(); CompletionBatch batch = new CompletionBatch(4)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(8);
            QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(4, 4, 1, 1, 0)));

            CallStatus busy = cq.tryDestroy();
            assertThat(busy.errnoName()).isEqualTo("EBUSY");
            assertThat(busy.durationNanos()).isPositive();
            assertThat(cq.isDestroyed()).isFalse();
            assertThat(cq.poll(batch)).isZero();
            assertThat(batch.durationNanos()).isPositive();

            CallStatus pdBusy = pd.tryDestroy();
            assertThat(pdBusy.errnoName()).isEqualTo("EBUSY");

            qp.destroy();
            assertTimedOk(cq.destroy());
            assertTimedOk(pd.destroy());
            assertThatThrownBy(() -> cq.poll(batch)).isInstanceOf(ResourceClosedException.class);
        }
    }

    @Test
    void addressHandle_createAndDestroy() {
        try (Context ctx = soft.a().open()) {
            ProtectionDomain pd = ctx.allocPd();
            int sgid = Loopback.roceV2GidIndex(ctx, soft.ipA);
            Gid dgid = Gid.ofIpv4(ipv4Bytes(soft.ipB));
            AddressHandle ah = pd.createAh(AhAttr.roce(dgid, sgid, 1));
            assertTimedOk(ah.creationStatus());
            assertThat(ah.attr().grh().dgid()).isEqualTo(dgid);
            assertTimedOk(ah.destroy());

            Outcome<AddressHandle> noGrh = pd.tryCreateAh(new AhAttr(GlobalRoute.NONE, 0, 0, 0, 0, false, 1));
            assertThat(noGrh.ok()).as("RoCE needs a GRH: %s", noGrh.status()).isFalse();
            assertThat(noGrh.status().errno()).isPositive();
            pd.destroy();
        }
    }

    @Test
    void closedContext_refusesVerbsInsteadOfCrashing() {
        Context ctx = soft.a().open();
        ctx.close();
        assertThatThrownBy(ctx::allocPd).isInstanceOf(ResourceClosedException.class)
                .hasMessageContaining("ibv_alloc_pd");
        ctx.close(); // idempotent
    }

    @Test
    void softverbsConfigure_rejectsABadSpecWithItsReason() {
        assertThatThrownBy(() -> soft.verbs.configureSoftverbs("no-at-sign"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("softverbs_configure(\"no-at-sign\") failed")
                .hasMessageContaining("NAME@IPV4");
    }

    @Test
    void counters_comeFromSoftverbs() {
        try (Context ctx = soft.a().open()) {
            assertThat(ctx.queryCounters(1)).containsKeys("sent_pkts", "rcvd_pkts")
                    .allSatisfy((name, value) -> assertThat(value).isNotNegative());
        }
    }

    static byte[] ipv4Bytes(String ip) {
        String[] parts = ip.split("\\.");
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (byte) Integer.parseInt(parts[i]);
        }
        return b;
    }
}
