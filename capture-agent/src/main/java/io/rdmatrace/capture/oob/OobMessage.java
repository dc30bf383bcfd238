package io.rdmatrace.capture.oob;

import java.util.Arrays;
import java.util.Objects;

/** Every message of the out-of-band protocol; the type code is what goes on the wire. */
public sealed interface OobMessage
        permits OobMessage.Hello, OobMessage.Auth, OobMessage.Params, OobMessage.Barrier, OobMessage.BarrierAck,
        OobMessage.Done, OobMessage.Error {

    /** Wire type code of this message. */
    int typeCode();

    /** Short name for logs and trace events. */
    String kindName();

    /** Opens each connection, both directions: who I am, how many QPs, my nonce, whether I authenticate. */
    record Hello(String hostId, OobRole role, int qpCount, byte[] nonce, boolean authenticated)
            implements OobMessage {
        public static final int TYPE = 1;
        public static final int NONCE_BYTES = 16;

        public Hello {
            Objects.requireNonNull(hostId, "hostId");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(nonce, "nonce");
            if (nonce.length != NONCE_BYTES) {
                throw new IllegalArgumentException("nonce must be " + NONCE_BYTES + " bytes");
            }
            if (qpCount < 1) {
                throw new IllegalArgumentException("qpCount must be >= 1: " + qpCount);
            }
            nonce = nonce.clone();
        }

        @Override
        public byte[] nonce() {
            return nonce.clone();
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "HELLO";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Hello h && hostId.equals(h.hostId) && role == h.role && qpCount == h.qpCount
                    && Arrays.equals(nonce, h.nonce) && authenticated == h.authenticated;
        }

        @Override
        public int hashCode() {
            return Objects.hash(hostId, role, qpCount, Arrays.hashCode(nonce), authenticated);
        }
    }

    /** Proves knowledge of the shared token (its MAC is the proof); sent right after HELLO when authenticating. */
    record Auth() implements OobMessage {
        public static final int TYPE = 2;

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "AUTH";
        }
    }

    /** One QP's parameters. */
    record Params(QpParams params) implements OobMessage {
        public static final int TYPE = 3;

        public Params {
            Objects.requireNonNull(params, "params");
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "PARAMS";
        }
    }

    /** "I have reached phase X" (e.g. "rts": all my QPs are in RTS and receives are posted). */
    record Barrier(String phase) implements OobMessage {
        public static final int TYPE = 4;

        public Barrier {
            Objects.requireNonNull(phase, "phase");
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "BARRIER";
        }
    }

    /** Second phase of a barrier: "I have seen your BARRIER for this phase". */
    record BarrierAck(String phase) implements OobMessage {
        public static final int TYPE = 7;

        public BarrierAck {
            Objects.requireNonNull(phase, "phase");
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "BARRIER_ACK";
        }
    }

    /** "I am finished" with my own verdict, so the peer can print it and tear down safely. */
    record Done(boolean passed, String text) implements OobMessage {
        public static final int TYPE = 5;

        public Done {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "DONE";
        }
    }

    /** "I give up, here is why": ends the peer's wait at once instead of at its timeout. */
    record Error(String text) implements OobMessage {
        public static final int TYPE = 6;

        public Error {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public int typeCode() {
            return TYPE;
        }

        @Override
        public String kindName() {
            return "ERROR";
        }
    }
}
