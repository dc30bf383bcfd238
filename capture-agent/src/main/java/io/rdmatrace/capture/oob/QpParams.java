package io.rdmatrace.capture.oob;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One QP's connection parameters as one agent tells them to the other.
 *
 * @param qpIndex   which of the --qps connections (0-based); pairs QPs across the two agents
 * @param qpNum     the sender's QP number (24-bit)
 * @param lid       the sender's port LID (0 on RoCE)
 * @param gid       the sender's GID, 16 bytes in network order
 * @param gidIndex  the sender's GID table index
 * @param psn       the PSN the sender says it will start with (24-bit; --advertise-psn lies here)
 * @param pathMtu   the sender's usable MTU as enum ibv_mtu (1=256 … 5=4096); the peer negotiates down to it
 * @param mrAddr    address of the sender's buffer (u64) for RDMA WRITE/READ
 * @param rkey      rkey of that buffer
 * @param mrLength  length of that buffer in bytes
 * @param pkeyIndex the sender's P_Key index
 * @param qpType    enum ibv_qp_type value (RC=2, UC=3, UD=4)
 */
public record QpParams(int qpIndex, int qpNum, int lid, byte[] gid, int gidIndex, int psn, int pathMtu,
                       long mrAddr, int rkey, long mrLength, int pkeyIndex, int qpType) {

    public static final int GID_BYTES = 16;

    public QpParams {
        Objects.requireNonNull(gid, "gid");
        if (gid.length != GID_BYTES) {
            throw new IllegalArgumentException("gid must be 16 bytes, got " + gid.length);
        }
        gid = gid.clone();
        if (qpIndex < 0) {
            throw new IllegalArgumentException("qpIndex must be >= 0: " + qpIndex);
        }
        if ((qpNum & ~0xFFFFFF) != 0 || (psn & ~0xFFFFFF) != 0) {
            throw new IllegalArgumentException("qp_num and psn are 24-bit: qpn=" + qpNum + " psn=" + psn);
        }
        if (lid < 0 || lid > 0xFFFF || pkeyIndex < 0 || pkeyIndex > 0xFFFF) {
            throw new IllegalArgumentException("lid and pkey_index are 16-bit: lid=" + lid + " pkey_index=" + pkeyIndex);
        }
        if (pathMtu < 1 || pathMtu > 5) {
            throw new IllegalArgumentException("path_mtu must be an ibv_mtu value 1..5: " + pathMtu);
        }
        if (gidIndex < 0 || gidIndex > 0xFFFF || qpType < 0 || qpType > 0xFF || mrLength < 0) {
            throw new IllegalArgumentException("gid_index, qp_type or length out of range");
        }
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** The GID as 32 lowercase hex digits (network order), as ibv_rc_pingpong prints it. */
    public String gidHex() {
        return HexFormat.of().formatHex(gid);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QpParams p && qpIndex == p.qpIndex && qpNum == p.qpNum && lid == p.lid
                && Arrays.equals(gid, p.gid) && gidIndex == p.gidIndex && psn == p.psn && pathMtu == p.pathMtu
                && mrAddr == p.mrAddr && rkey == p.rkey && mrLength == p.mrLength && pkeyIndex == p.pkeyIndex
                && qpType == p.qpType;
    }

    @Override
    public int hashCode() {
        return Objects.hash(qpIndex, qpNum, lid, Arrays.hashCode(gid), gidIndex, psn, pathMtu, mrAddr, rkey,
                mrLength, pkeyIndex, qpType);
    }

    @Override
    public String toString() {
        return String.format("QpParams[qp#%d qpn=0x%06x lid=%d gid=%s gidx=%d psn=0x%06x mtu=%d addr=0x%x rkey=0x%x len=%d pkey_index=%d type=%d]",
                qpIndex, qpNum, lid, gidHex(), gidIndex, psn, pathMtu, mrAddr, rkey, mrLength, pkeyIndex, qpType);
    }
}
