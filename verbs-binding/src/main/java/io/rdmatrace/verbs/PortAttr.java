package io.rdmatrace.verbs;

/** {@code struct ibv_port_attr}, every field. */
public record PortAttr(PortState state, Mtu maxMtu, Mtu activeMtu, int gidTblLen, int portCapFlags, long maxMsgSz,
                       long badPkeyCntr, long qkeyViolCntr, int pkeyTblLen, int lid, int smLid, int lmc,
                       int maxVlNum, int smSl, int subnetTimeout, int initTypeReply, int activeWidth,
                       int activeSpeed, int physState, LinkLayer linkLayer, int flags, int portCapFlags2) {
}
