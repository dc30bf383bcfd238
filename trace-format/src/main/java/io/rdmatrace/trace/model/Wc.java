package io.rdmatrace.trace.model;

import io.rdmatrace.trace.names.VerbsNames;

/**
 * The fields of one {@code struct ibv_wc}. u32 fields that can use all 32 bits are carried in a
 * long so they are never negative.
 *
 * @param status   {@link VerbsNames#WC_STATUS}
 * @param opcode   {@link VerbsNames#WC_OPCODE}
 * @param wcFlags  {@link VerbsNames#WC_FLAGS}
 * @param qpNum    24-bit QPN of the local QP
 * @param srcQp    24-bit source QPN (UD)
 */
public record Wc(long wrId, int status, int opcode, long vendorErr, long byteLen, long immData, int qpNum,
                 int srcQp, int wcFlags, int pkeyIndex, int slid, int sl, int dlidPathBits) {

    /** The status as a name, e.g. {@code IBV_WC_RETRY_EXC_ERR}. */
    public String statusName() {
        return VerbsNames.WC_STATUS.render(status);
    }

    public String opcodeName() {
        return VerbsNames.WC_OPCODE.render(opcode);
    }
}
