package io.rdmatrace.capture.run;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.oob.OobChannel;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.oob.OobServer;
import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.PortAttr;
import io.rdmatrace.verbs.ProtectionDomain;
import io.rdmatrace.verbs.QpQueryBuffer;
import io.rdmatrace.verbs.QpState;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import java.util.ArrayList;
import java.util.List;

/** Everything one agent's scenario works on: the device, its objects per QP, the peer link, the recorder. */
final class AgentState implements AutoCloseable {
    final CaptureConfig config;
    final Context context;
    final PortAttr port;
    final int gidIndex;
    final Gid localGid;
    final Recorder recorder;
    final List<QpSlot> slots = new ArrayList<>();
    final SendBatch sendBatch = new SendBatch(1, 1);
    final RecvBatch recvBatch = new RecvBatch(1, 1);
    final CompletionBatch completions = new CompletionBatch(16);
    /** Where the scenario's ibv_query_qp calls answer (reused: this agent's thread only, like the batches). */
    final QpQueryBuffer answers = new QpQueryBuffer();
    /** Bound at start on the listening side, so the port is known (and busy ports fail) early. */
    final OobServer server;
    ProtectionDomain pd;
    /** --cm: the agent's rdma_cm, or null. */
    CmLink cm;
    /** Volatile: a signal's shutdown hook reads it to tell the peer. */
    volatile OobChannel channel;
    /** Set when the link cannot be used any more (the peer gave up, or it spoke garbage). */
    boolean linkDead;
    /** What the peer said when it gave up (its ERROR), or null. */
    String peerGaveUp;
    /** True once this agent sent the peer an ERROR: no DONE exchange after that. */
    boolean weGaveUp;

    AgentState(CaptureConfig config, Context context, PortAttr port, int gidIndex, Gid localGid, Recorder recorder,
               OobServer server) {
        this.config = config;
        this.context = context;
        this.port = port;
        this.gidIndex = gidIndex;
        this.localGid = localGid;
        this.recorder = recorder;
        this.server = server;
        boolean ud = config.workload().qpType() == io.rdmatrace.capture.config.Transport.UD;
        // SENDs alternate between two receive slots; WRITE/READ use one (see QpSlot)
        int recvSlots = config.workload().op() == io.rdmatrace.capture.config.Op.SEND ? Math.min(2, config.workload().iterations()) : 1;
        for (int i = 0; i < config.workload().qps(); i++) {
            slots.add(new QpSlot(i, config.workload().size(), ud, recvSlots));
        }
    }

    /**
     * ibv_query_qp of every attribute into {@link #answers} (which keeps the answer until the next
     * query): the QP's state, or null when the query failed.
     */
    QpState queryState(QueuePair qp) {
        QpQueryBuffer answer = answers;
        qp.query(QueuePair.ALL_ATTRIBUTES, answer);
        return answer.ok() ? QpState.of((int) answer.get(QpField.QP_STATE)) : null;
    }

    OobRole role() {
        return config.link().role();
    }

    @Override
    public void close() {
        sendBatch.close();
        recvBatch.close();
        completions.close();
    }
}
