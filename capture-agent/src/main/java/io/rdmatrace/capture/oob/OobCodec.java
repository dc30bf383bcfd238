package io.rdmatrace.capture.oob;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Payload layouts of the OOB messages (big-endian). Decoding checks every length against what is left,
 * so a short or padded payload is MALFORMED, never an exception from deep inside.
 */
final class OobCodec {
    /** Longest string field (host id, phase, error text) in bytes of UTF-8. */
    static final int MAX_STRING_BYTES = 1024;

    private OobCodec() {
    }

    static byte[] encode(OobMessage message) {
        ByteBuffer b = ByteBuffer.allocate(OobFrame.MAX_PAYLOAD);
        if (message instanceof OobMessage.Hello h) {
            putString(b, h.hostId());
            b.put((byte) h.role().code());
            b.putInt(h.qpCount());
            b.put(h.nonce());
            b.put((byte) (h.authenticated() ? 1 : 0));
        } else if (message instanceof OobMessage.Auth) {
            // the MAC is the whole content
        } else if (message instanceof OobMessage.Params m) {
            QpParams p = m.params();
            b.putInt(p.qpIndex());
            b.putInt(p.qpNum());
            b.putShort((short) p.lid());
            b.put(p.gid());
            b.putShort((short) p.gidIndex());
            b.putInt(p.psn());
            b.put((byte) p.pathMtu());
            b.putLong(p.mrAddr());
            b.putInt(p.rkey());
            b.putLong(p.mrLength());
            b.putShort((short) p.pkeyIndex());
            b.put((byte) p.qpType());
        } else if (message instanceof OobMessage.Barrier m) {
            putString(b, m.phase());
        } else if (message instanceof OobMessage.BarrierAck m) {
            putString(b, m.phase());
        } else if (message instanceof OobMessage.Done m) {
            b.put((byte) (m.passed() ? 1 : 0));
            putString(b, m.text());
        } else if (message instanceof OobMessage.Error m) {
            putString(b, m.text());
        } else {
            throw new IllegalArgumentException("no encoding for " + message);
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    static OobMessage decode(int type, byte[] payload) throws OobException {
        ByteBuffer b = ByteBuffer.wrap(payload);
        try {
            OobMessage m = switch (type) {
                case OobMessage.Hello.TYPE -> {
                    String host = getString(b, "host id");
                    OobRole role = OobRole.fromCode(b.get());
                    int qps = b.getInt();
                    byte[] nonce = new byte[OobMessage.Hello.NONCE_BYTES];
                    b.get(nonce);
                    boolean auth = getBoolean(b, "authenticated");
                    if (qps < 1) {
                        throw malformed("HELLO qp count " + qps + " < 1");
                    }
                    yield new OobMessage.Hello(host, role, qps, nonce, auth);
                }
                case OobMessage.Auth.TYPE -> new OobMessage.Auth();
                case OobMessage.Params.TYPE -> new OobMessage.Params(decodeParams(b));
                case OobMessage.Barrier.TYPE -> new OobMessage.Barrier(getString(b, "barrier phase"));
                case OobMessage.BarrierAck.TYPE -> new OobMessage.BarrierAck(getString(b, "barrier phase"));
                case OobMessage.Done.TYPE -> {
                    boolean passed = getBoolean(b, "verdict");
                    yield new OobMessage.Done(passed, getString(b, "done text"));
                }
                case OobMessage.Error.TYPE -> new OobMessage.Error(getString(b, "error text"));
                default -> throw malformed("unknown message type " + type);
            };
            if (b.hasRemaining()) {
                throw malformed(b.remaining() + " unexpected trailing bytes after " + m.kindName());
            }
            return m;
        } catch (BufferUnderflowException e) {
            throw malformed("payload of type " + type + " ends early (" + payload.length + " bytes)");
        }
    }

    private static QpParams decodeParams(ByteBuffer b) throws OobException {
        int qpIndex = b.getInt();
        int qpNum = b.getInt();
        int lid = Short.toUnsignedInt(b.getShort());
        byte[] gid = new byte[QpParams.GID_BYTES];
        b.get(gid);
        int gidIndex = Short.toUnsignedInt(b.getShort());
        int psn = b.getInt();
        int mtu = Byte.toUnsignedInt(b.get());
        long addr = b.getLong();
        int rkey = b.getInt();
        long len = b.getLong();
        int pkeyIndex = Short.toUnsignedInt(b.getShort());
        int qpType = Byte.toUnsignedInt(b.get());
        try {
            return new QpParams(qpIndex, qpNum, lid, gid, gidIndex, psn, mtu, addr, rkey, len, pkeyIndex, qpType);
        } catch (IllegalArgumentException e) {
            throw malformed("PARAMS out of range: " + e.getMessage());
        }
    }

    private static void putString(ByteBuffer b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_STRING_BYTES) {
            throw new IllegalArgumentException("string field longer than " + MAX_STRING_BYTES + " bytes");
        }
        b.putShort((short) bytes.length);
        b.put(bytes);
    }

    private static String getString(ByteBuffer b, String what) throws OobException {
        int len = Short.toUnsignedInt(b.getShort());
        if (len > MAX_STRING_BYTES || len > b.remaining()) {
            throw malformed(what + " length " + len + " exceeds the payload or the " + MAX_STRING_BYTES + "-byte limit");
        }
        byte[] bytes = new byte[len];
        b.get(bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw malformed(what + " is not valid UTF-8");
        }
    }

    private static boolean getBoolean(ByteBuffer b, String what) throws OobException {
        byte v = b.get();
        if (v != 0 && v != 1) {
            throw malformed(what + " flag must be 0 or 1, got " + v);
        }
        return v == 1;
    }

    private static OobException malformed(String text) {
        return new OobException(OobException.Kind.MALFORMED, text);
    }
}
