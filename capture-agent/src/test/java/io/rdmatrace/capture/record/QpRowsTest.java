package io.rdmatrace.capture.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.QpMask;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrRow;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.trace.model.QpFieldAttrs;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.verbs.AccessFlag;
import io.rdmatrace.verbs.AhAttr;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.Mtu;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpAttr;
import io.rdmatrace.verbs.QpCap;
import io.rdmatrace.verbs.QpInitAttr;
import io.rdmatrace.verbs.QpQuery;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QpType;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibv_query_qp and ibv_modify_qp events are written from rows filled straight from the answer's
 * bytes and the modify's attributes ({@link QueryOutputs}, {@link ModifyFields}). They must give the
 * bytes on disk the attribute builders gave before (the mapping below, as it was), or the trace
 * format would change without a version bump.
 */
class QpRowsTest {

    @Test
    void queryAnswersOfABringUp_areTheBuildersAttributes_byteForByte(@TempDir Path out) throws Exception {
        List<QpQuery> answers = new ArrayList<>();
        List<QpQuery> bufferedAnswers = new ArrayList<>();
        List<Attrs> bufferedRows = new ArrayList<>();
        QueryOutputs fromBuffer = new QueryOutputs();
        GidCache bufferGids = new GidCache();
        QpQueryBuffer buffer = new QpQueryBuffer();
        List<QpAttr> modifies = new ArrayList<>();
        List<Integer> masks = new ArrayList<>();
        int qpNum;
        try (Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
             DeviceList list = verbs.getDeviceList();
             Context ctx = list.devices().get(0).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(8, 8, 3, 2, 0)));
            qpNum = qp.qpNum();
            Gid gid = ctx.queryGid(1, 0);
            answers.add(qp.query()); // RESET: every GID zero
            bufferedRow(qp, buffer, fromBuffer, bufferGids, bufferedAnswers, bufferedRows);
            for (QpAttr.Builder b : List.of(
                    QpAttr.builder().qpState(QpState.INIT).pkeyIndex(0).portNum(1)
                            .qpAccessFlags(AccessFlag.bits(AccessFlag.REMOTE_WRITE)),
                    QpAttr.builder().qpState(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(qp.qpNum())
                            .rqPsn(0xfedcba).maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(gid, 0, 1)),
                    QpAttr.builder().qpState(QpState.RTS).sqPsn(0xffffff).timeout(14).retryCnt(7).rnrRetry(7)
                            .maxRdAtomic(1))) {
                qp.modify(b);
                modifies.add(b.build());
                masks.add(b.mask().bits());
                answers.add(qp.query());
                bufferedRow(qp, buffer, fromBuffer, bufferGids, bufferedAnswers, bufferedRows);
            }
            qp.destroy();
            cq.destroy();
        }
        Random r = new Random(5);
        for (int i = 0; i < 20; i++) {
            answers.add(edgeAnswer(r, i));
            QpAttr a = edgeAttr(r, i);
            modifies.add(a);
            masks.add(i % 4 == 0 ? -1 : r.nextInt()); // every bit, or any mix of them
        }

        // the capture's queries answer into a reused buffer: the row read from it in place is the one its copy gives
        assertThat(bufferedRows).hasSize(4);
        for (int i = 0; i < bufferedRows.size(); i++) {
            assertThat(bufferedRows.get(i)).as(bufferedAnswers.get(i).toString())
                    .isEqualTo(referenceQuery(bufferedAnswers.get(i)).build());
        }

        GidCache gids = new GidCache();
        QueryOutputs rows = new QueryOutputs();
        for (QpQuery q : answers) {
            assertThat(rows.fill(q, gids).toAttrs()).as(q.toString()).isEqualTo(referenceQuery(q).build());
        }
        for (int i = 0; i < modifies.size(); i++) {
            AttrRow row = ModifyFields.of(masks.get(i)).fill(qpNum, modifies.get(i), gids);
            assertThat(row.toAttrs()).as(modifies.get(i).toString())
                    .isEqualTo(referenceModify(qpNum, modifies.get(i), masks.get(i)).build());
        }

        // the same calls through both paths, on the same clock and thread: the documents must match
        Path fromRows = out.resolve("rows");
        Path fromBuilders = out.resolve("builders");
        SessionInfo session = new SessionInfo("test", "h", "test", "none", "unit", Map.of(), Attrs.EMPTY, List.of(),
                List.of());
        long[] now = {1_000};
        try (TraceWriter rowWriter = TraceWriter.create(fromRows, session, 42, () -> now[0], 5_000);
             TraceWriter builderWriter = TraceWriter.create(fromBuilders, session, 42, () -> now[0], 5_000)) {
            AttrRow queryIn = new AttrRow(List.of(Attr.QP_NUM, Attr.ATTR_MASK), List.of());
            for (QpQuery q : answers) {
                now[0] += 777;
                queryIn.set(queryIn.indexOf(Attr.QP_NUM), Integer.toUnsignedLong(q.qpNum()));
                queryIn.set(queryIn.indexOf(Attr.ATTR_MASK), 0x1fffff);
                rowWriter.call(Verb.IBV_QUERY_QP, 0x5500, 0, 0, 1_234, queryIn, rows.fill(q, gids));
                Attrs.Builder in = Attrs.builder().put(Attr.QP_NUM, Integer.toUnsignedLong(q.qpNum()))
                        .put(Attr.ATTR_MASK, 0x1fffff);
                builderWriter.call(Verb.IBV_QUERY_QP, 0x5500, 0, 0, 1_234, in, referenceQuery(q), List.of());
            }
            for (int i = 0; i < modifies.size(); i++) {
                now[0] += 333;
                rowWriter.call(Verb.IBV_MODIFY_QP, 0x5500, -1, 22, 999,
                        ModifyFields.of(masks.get(i)).fill(qpNum, modifies.get(i), gids), AttrRow.EMPTY);
                builderWriter.call(Verb.IBV_MODIFY_QP, 0x5500, -1, 22, 999,
                        referenceModify(qpNum, modifies.get(i), masks.get(i)), Attrs.builder(), List.of());
            }
        }
        List<byte[]> rowDocs = documents(fromRows.resolve("h"));
        List<byte[]> builderDocs = documents(fromBuilders.resolve("h"));
        assertThat(rowDocs).hasSize(2 + answers.size() + modifies.size()); // SESSION and END too
        assertThat(rowDocs).hasSameSizeAs(builderDocs);
        for (int i = 0; i < rowDocs.size(); i++) {
            assertThat(rowDocs.get(i)).as("document %d", i).containsExactly(builderDocs.get(i));
        }
    }

    /** Queries {@code qp} into {@code buffer}; keeps a copy of the answer and the row filled from the buffer itself. */
    private static void bufferedRow(QueuePair qp, QpQueryBuffer buffer, QueryOutputs rows, GidCache gids,
                                    List<QpQuery> copies, List<Attrs> filled) {
        assertThat(qp.query(QueuePair.ALL_ATTRIBUTES, buffer)).isZero();
        copies.add(buffer.toQuery());
        filled.add(rows.fill(buffer, gids).toAttrs());
    }

    /** An answer made from attributes with every field set: u32s above 2^31, small fields' high bits, GIDs or zero. */
    private static QpQuery edgeAnswer(Random r, int i) {
        return new QpQuery(edgeAttr(r, i), QueuePair.ALL_ATTRIBUTES, r.nextInt(),
                i % 2 == 0 ? QpType.RC : QpType.UD, new QpCap(r.nextInt(), -1, 0, r.nextInt(), Integer.MIN_VALUE),
                i % 3 == 0, r.nextLong(), i % 5 == 0 ? 0 : r.nextLong());
    }

    private static QpAttr edgeAttr(Random r, int i) {
        QpAttr.Builder b = QpAttr.builder();
        for (QpField f : QpField.all()) {
            if (f.cType() == CType.GID) {
                byte[] g = new byte[16];
                if (i % 3 != 0) {
                    r.nextBytes(g);
                }
                b.set(f, Gid.of(g));
            } else {
                b.set(f, switch (i % 4) {
                    case 0 -> -1;
                    case 1 -> 0;
                    default -> r.nextInt();
                });
            }
        }
        return b.build();
    }

    // ---- the mapping as the builders made it (before rows) -----------------------------------

    private static Attrs.Builder referenceQuery(QpQuery q) {
        Attrs.Builder b = Attrs.builder();
        QpAttr a = q.attr();
        b.put(Attr.SEND_CQ, q.sendCqHandle());
        b.put(Attr.RECV_CQ, q.recvCqHandle());
        boolean initPut = false;
        for (QpField f : QpFieldAttrs.recorded()) {
            Attr attr = QpFieldAttrs.attr(f);
            if (!initPut && attr.code() > Attr.QP_TYPE.code()) {
                referenceInit(b, q);
                initPut = true;
            }
            if (f.mask() != QpMask.CAP) {
                referencePut(b, f, attr, a);
            }
        }
        if (!initPut) {
            referenceInit(b, q);
        }
        return b;
    }

    private static void referenceInit(Attrs.Builder b, QpQuery q) {
        b.put(Attr.QP_TYPE, q.qpType().value());
        b.put(Attr.SQ_SIG_ALL, q.sqSigAll());
        QpCap c = q.initCap();
        b.put(Attr.MAX_SEND_WR, Integer.toUnsignedLong(c.maxSendWr()));
        b.put(Attr.MAX_RECV_WR, Integer.toUnsignedLong(c.maxRecvWr()));
        b.put(Attr.MAX_SEND_SGE, Integer.toUnsignedLong(c.maxSendSge()));
        b.put(Attr.MAX_RECV_SGE, Integer.toUnsignedLong(c.maxRecvSge()));
        b.put(Attr.MAX_INLINE_DATA, Integer.toUnsignedLong(c.maxInlineData()));
        b.put(Attr.QP_NUM, Integer.toUnsignedLong(q.qpNum()));
    }

    private static Attrs.Builder referenceModify(int qpNum, QpAttr a, int mask) {
        Attrs.Builder b = Attrs.builder();
        b.put(Attr.QP_NUM, Integer.toUnsignedLong(qpNum));
        b.put(Attr.ATTR_MASK, Integer.toUnsignedLong(mask));
        for (QpField f : QpFieldAttrs.recorded()) {
            if ((mask & f.maskBit()) != 0) {
                referencePut(b, f, QpFieldAttrs.attr(f), a);
            }
        }
        return b;
    }

    private static void referencePut(Attrs.Builder b, QpField f, Attr attr, QpAttr a) {
        switch (f.kind()) {
            case BOOL -> b.put(attr, a.get(f) != 0);
            case PEER_GID -> b.put(attr, GidText.format(a.gid(f).raw()));
            default -> b.put(attr, a.get(f));
        }
    }

    /** Every document of a trace's queue, as the bytes on disk. */
    private static List<byte[]> documents(Path hostFolder) {
        List<byte[]> docs = new ArrayList<>();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(hostFolder).rollCycle(RollCycles.WEEKLY)
                .readOnly(true).build()) {
            ExcerptTailer t = q.createTailer();
            while (true) {
                try (DocumentContext dc = t.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    docs.add(dc.wire().bytes().toByteArray());
                }
            }
        }
        return docs;
    }
}
