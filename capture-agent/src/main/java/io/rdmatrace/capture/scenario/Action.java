package io.rdmatrace.capture.scenario;

import io.rdmatrace.abi.QpField;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one scenario step does. Per-QP actions run once for every QP the test case covers; the OOB
 * actions (exchange, barrier) and sleep run once. The JSON name of each is {@link #op()}.
 */
public sealed interface Action {

    /** The "do" name in scenario files. */
    String op();

    /** True when the action runs once per QP (false: once per agent). */
    default boolean perQp() {
        return true;
    }

    /** ibv_alloc_pd (one PD for all QPs: the first QP allocates it). */
    record AllocPd() implements Action {
        public String op() {
            return "alloc_pd";
        }
    }

    /** ibv_reg_mr of this QP's buffer (a send half and a receive half of --size bytes each). */
    record RegMr(Value access) implements Action {
        public RegMr {
            Objects.requireNonNull(access, "access");
        }

        public String op() {
            return "reg_mr";
        }
    }

    /** ibv_create_cq for this QP (shared by its send and receive queues). */
    record CreateCq(Value cqe) implements Action {
        public CreateCq {
            Objects.requireNonNull(cqe, "cqe");
        }

        public String op() {
            return "create_cq";
        }
    }

    /** ibv_create_qp; the following ibv_query_qp is recorded too. */
    record CreateQp(Value qpType, Value maxSendWr, Value maxRecvWr, Value maxSendSge, Value maxRecvSge,
                    Value maxInlineData) implements Action {
        public CreateQp {
            Objects.requireNonNull(qpType, "qpType");
            Objects.requireNonNull(maxSendWr, "maxSendWr");
            Objects.requireNonNull(maxRecvWr, "maxRecvWr");
            Objects.requireNonNull(maxSendSge, "maxSendSge");
            Objects.requireNonNull(maxRecvSge, "maxRecvSge");
            Objects.requireNonNull(maxInlineData, "maxInlineData");
        }

        public String op() {
            return "create_qp";
        }
    }

    /**
     * ibv_modify_qp with these attributes, then ibv_query_qp. The mask is the union of the fields' bits
     * unless {@code mask} is given (to send a wrong mask on purpose).
     */
    record ModifyQp(Map<QpField, Value> attrs, Value mask) implements Action {
        public ModifyQp {
            attrs = Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
        }

        public String op() {
            return "modify_qp";
        }
    }

    /** ibv_query_qp on its own. */
    record QueryQp() implements Action {
        public String op() {
            return "query_qp";
        }
    }

    /** UD: ibv_create_ah towards the peer's GID/LID (used by the UD sends). */
    record CreateAh() implements Action {
        public String op() {
            return "create_ah";
        }
    }

    /** ibv_post_recv of {@code count} receives into the receive half, one call each. */
    record PostRecv(Value count) implements Action {
        public PostRecv {
            Objects.requireNonNull(count, "count");
        }

        public String op() {
            return "post_recv";
        }
    }

    /** ibv_post_send: a signalled SEND, RDMA WRITE or RDMA READ of --size bytes carrying the pattern of $iter. */
    record PostSend(Value opKind) implements Action {
        public PostSend {
            Objects.requireNonNull(opKind, "opKind");
        }

        public String op() {
            return "post_send";
        }
    }

    /** Polls this QP's CQ until {@code sends} send and {@code recvs} receive completions arrived, an error completion arrived, or the wait ran out. */
    record Poll(Value sends, Value recvs) implements Action {
        public Poll {
            Objects.requireNonNull(sends, "sends");
            Objects.requireNonNull(recvs, "recvs");
        }

        public String op() {
            return "poll";
        }
    }

    /** Checks that the receive half holds the peer's pattern for $iter (SEND/WRITE) or its initial one (READ), then clears it. */
    record CheckPattern(Value opKind) implements Action {
        public CheckPattern {
            Objects.requireNonNull(opKind, "opKind");
        }

        public String op() {
            return "check_pattern";
        }
    }

    /** The out-of-band exchange: connect/accept, HELLO, then one PARAMS per QP each way. */
    record Exchange() implements Action {
        public String op() {
            return "exchange";
        }

        @Override
        public boolean perQp() {
            return false;
        }
    }

    /**
     * --cm: this QP connected through rdma_cm instead of the exchange (the connector resolves, connects
     * and establishes, the listener takes the request and accepts), its RTR and RTS transitions done
     * with the attributes rdma_init_qp_attr gives. Opens the TCP link first (for barriers and verdicts).
     */
    record CmConnect() implements Action {
        public String op() {
            return "cm_connect";
        }
    }

    /** A two-phase barrier with the peer. */
    record Barrier(String phase) implements Action {
        public Barrier {
            Objects.requireNonNull(phase, "phase");
        }

        public String op() {
            return "barrier";
        }

        @Override
        public boolean perQp() {
            return false;
        }
    }

    /** Waits (e.g. --delay-rtr). */
    record Sleep(Value millis) implements Action {
        public Sleep {
            Objects.requireNonNull(millis, "millis");
        }

        public String op() {
            return "sleep";
        }

        @Override
        public boolean perQp() {
            return false;
        }
    }
}
