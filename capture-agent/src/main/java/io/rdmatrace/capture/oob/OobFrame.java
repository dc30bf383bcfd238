package io.rdmatrace.capture.oob;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * The frame every OOB message travels in (big-endian):
 * <pre>
 *  0  magic   "RTOB" (4 bytes)
 *  4  version u16 (1)
 *  6  type    u8
 *  7  flags   u8   bit 0: a 32-byte HMAC-SHA256 follows the payload
 *  8  length  u32  payload bytes, at most MAX_PAYLOAD
 * 12  payload
 *  …  mac     32 bytes (when flag bit 0)
 * </pre>
 * The header is checked before the payload is read, so a wrong magic, version or length is refused
 * without trusting a single byte of what follows.
 */
final class OobFrame {
    static final int MAGIC = 0x52544F42; // "RTOB"
    /** 2: the connector proves the token first; the listener's AUTH follows only a verified one. */
    static final int VERSION = 2;
    static final int HEADER_BYTES = 12;
    static final int MAX_PAYLOAD = 4096;
    static final int FLAG_MAC = 1;

    /** One frame as read off the wire, not yet authenticated or decoded. */
    record Raw(byte[] header, int type, int flags, byte[] payload, byte[] mac) {
        boolean hasMac() {
            return (flags & FLAG_MAC) != 0;
        }
    }

    private OobFrame() {
    }

    static byte[] header(int type, int flags, int length) {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putShort((short) VERSION).put((byte) type)
                .put((byte) flags).putInt(length).array();
    }

    static void write(OutputStream out, byte[] header, byte[] payload, byte[] mac) throws IOException {
        byte[] frame = new byte[header.length + payload.length + (mac == null ? 0 : mac.length)];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(payload, 0, frame, header.length, payload.length);
        if (mac != null) {
            System.arraycopy(mac, 0, frame, header.length + payload.length, mac.length);
        }
        out.write(frame); // one write: a frame is never interleaved or half-flushed by us
        out.flush();
    }

    /**
     * Reads one frame, each socket read bounded by what is left of the deadline.
     *
     * @param waitingFor what the caller expects, for the error text ("PARAMS for qp#3")
     */
    static Raw read(Socket socket, InputStream in, Deadline deadline, String waitingFor) throws OobException {
        byte[] header = new byte[HEADER_BYTES];
        int got = readFully(socket, in, header, deadline, waitingFor, true);
        if (got == 0) {
            throw new OobException(OobException.Kind.CLOSED, "peer closed the connection while this agent was waiting for " + waitingFor);
        }
        ByteBuffer h = ByteBuffer.wrap(header);
        int magic = h.getInt();
        if (magic != MAGIC) {
            throw new OobException(OobException.Kind.BAD_MAGIC, String.format(
                    "peer is not an rdmatrace agent: first bytes 0x%08x, expected 0x%08x (\"RTOB\")", magic, MAGIC));
        }
        int version = Short.toUnsignedInt(h.getShort());
        if (version != VERSION) {
            throw new OobException(OobException.Kind.BAD_VERSION, "peer speaks OOB format version " + version
                    + ", this agent speaks " + VERSION + "; run the same rdmatrace version on both hosts");
        }
        int type = Byte.toUnsignedInt(h.get());
        int flags = Byte.toUnsignedInt(h.get());
        long length = Integer.toUnsignedLong(h.getInt());
        if (length > MAX_PAYLOAD) {
            throw new OobException(OobException.Kind.OVERSIZED, "peer announced a " + length
                    + "-byte message; the limit is " + MAX_PAYLOAD);
        }
        if ((flags & ~FLAG_MAC) != 0) {
            throw new OobException(OobException.Kind.MALFORMED, String.format("unknown frame flags 0x%02x", flags));
        }
        byte[] payload = new byte[(int) length];
        readFully(socket, in, payload, deadline, waitingFor, false);
        byte[] mac = null;
        if ((flags & FLAG_MAC) != 0) {
            mac = new byte[OobMac.MAC_BYTES];
            readFully(socket, in, mac, deadline, waitingFor, false);
        }
        return new Raw(header, type, flags, payload, mac);
    }

    /** Returns bytes read: 0 only when the stream ended before the first byte and atBoundary is set. */
    private static int readFully(Socket socket, InputStream in, byte[] buf, Deadline deadline, String waitingFor,
                                 boolean atBoundary) throws OobException {
        int off = 0;
        while (off < buf.length) {
            long left = deadline.remainingMillis();
            if (left <= 0) {
                throw timeout(waitingFor, off, atBoundary);
            }
            int n;
            try {
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
                n = in.read(buf, off, buf.length - off);
            } catch (SocketTimeoutException e) {
                throw timeout(waitingFor, off, atBoundary);
            } catch (EOFException e) {
                n = -1;
            } catch (IOException e) {
                throw new OobException(OobException.Kind.CLOSED, "connection to the peer failed while waiting for "
                        + waitingFor + ": " + e.getMessage(), e);
            }
            if (n < 0) {
                if (off == 0 && atBoundary) {
                    return 0;
                }
                throw new OobException(OobException.Kind.TRUNCATED, "peer closed the connection in the middle of a message ("
                        + off + " of " + buf.length + " bytes of a " + (atBoundary ? "header" : "body") + ") while waiting for " + waitingFor);
            }
            off += n;
        }
        return off;
    }

    private static OobException timeout(String waitingFor, int partial, boolean atBoundary) {
        String detail = partial == 0 && atBoundary ? "" : " (a partial message of " + partial + " bytes arrived)";
        return new OobException(OobException.Kind.TIMEOUT, "peer sent no " + waitingFor + " in time" + detail);
    }
}
