package io.rdmatrace.verbs;

/**
 * {@code struct ibv_wc} copied out of a {@link CompletionBatch} (this allocates; the batch's
 * indexed getters do not). {@code immData} is in host order (the verbs carry it big-endian).
 * For a non-SUCCESS status only wrId, status, qpNum and vendorErr are valid (man ibv_poll_cq).
 */
public record WorkCompletion(long wrId, WcStatus status, WcOpcode opcode, int vendorErr, int byteLen, int immData,
                             int qpNum, int srcQp, int wcFlags, int pkeyIndex, int slid, int sl, int dlidPathBits) {
    public boolean hasFlag(WcFlag flag) {
        return flag.isSetIn(wcFlags);
    }
}
