package io.rdmatrace.verbs;

/**
 * Benchmark support: the same verb N times in a C loop, never crossing into Java, so a benchmark
 * can compare the cost of a call through this binding with the raw C call. Each method returns
 * the mean nanoseconds per iteration, or -1 if a call failed.
 */
public final class NativeLoops {
    private NativeLoops() {
    }

    /**
     * ibv_query_qp with {@code mask}, {@code iterations} times; with {@code timed} each call is
     * wrapped in the two clock reads the binding makes around every call.
     */
    public static double queryQp(QueuePair qp, QpAttrMask mask, int iterations, boolean timed) {
        long total = queryQp0(qp.context().lib(), qp.live("ibv_query_qp"), mask.bits(), iterations, timed);
        return total < 0 ? -1 : (double) total / iterations;
    }

    /** ibv_req_notify_cq(cq, 0) (an inline data-path helper through ctx->ops); {@code timed} as above. */
    public static double reqNotify(CompletionQueue cq, int iterations, boolean timed) {
        long total = reqNotify0(cq.live("ibv_req_notify_cq"), iterations, timed);
        return total < 0 ? -1 : (double) total / iterations;
    }

    /**
     * One ibv_query_qp through the same JNI entry point and call buffer as {@link QueuePair#query},
     * without decoding the answer into records: the JNI crossing plus C-side timing alone.
     * Returns the call's ret.
     */
    public static long queryQpUndecoded(QueuePair qp, QpAttrMask mask) {
        return qp.queryUndecoded(mask);
    }

    /** ibv_poll_cq of up to 16 entries on {@code cq}, {@code iterations} times (an empty CQ measures the call). */
    public static double pollCq(CompletionQueue cq, int iterations) {
        long total = pollEmpty0(cq.live("ibv_poll_cq"), iterations);
        return total < 0 ? -1 : (double) total / iterations;
    }

    /**
     * {@code iterations} round trips of one signaled request (post_send, then poll_cq until its
     * completion, each wait bounded by {@code timeoutNanos}); RDMA opcodes target remoteAddr/rkey.
     */
    public static double sendPoll(QueuePair qp, CompletionQueue cq, WrOpcode opcode, MemoryRegion local, int length,
                                  long remoteAddr, int rkey, int iterations, long timeoutNanos) {
        long total = sendPoll0(qp.live("ibv_post_send"), cq.live("ibv_poll_cq"), opcode.value(), local.address(),
                length, local.lkey(), remoteAddr, rkey, iterations, timeoutNanos);
        return total < 0 ? -1 : (double) total / iterations;
    }

    private static native long queryQp0(long lib, long qp, int mask, int iterations, boolean timed);

    private static native long pollEmpty0(long cq, int iterations);

    private static native long reqNotify0(long cq, int iterations, boolean timed);

    private static native long sendPoll0(long qp, long cq, int opcode, long addr, int length, int lkey,
                                         long remoteAddr, int rkey, int iterations, long timeoutNanos);
}
