package io.rdmatrace.verbs;

/**
 * Observes every verb on one {@link Context} (installed with {@link Device#open(VerbsListener)}
 * or {@link Context#setListener}); a recorder implements this. Callbacks run on the calling
 * thread right after the verb returned and its outputs were decoded; they cannot change the
 * outcome. An exception thrown here propagates to the caller of the verb.
 *
 * <p>The data-path callbacks receive the batch itself: read it with its indexed getters (no
 * allocation) before returning, because the caller reuses it.
 */
public interface VerbsListener {

    /** A control-path verb finished, successfully or not. */
    default void onCall(Context context, VerbCall call) {
    }

    /**
     * {@code ibv_query_qp} answered into a reused buffer ({@link QueuePair#query(QpAttrMask, QpQueryBuffer)}):
     * read it before returning, as a batch. By default the answer is copied into the
     * {@link VerbCall.QueryQp} that {@link QueuePair#tryQuery} would give, for {@link #onCall}.
     */
    default void onQueryQp(QueuePair qp, QpQueryBuffer answer) {
        CallStatus status = answer.status();
        onCall(qp.context(), new VerbCall.QueryQp(qp.handle(), qp.qpNum(), answer.mask(),
                status.ok() ? answer.toQuery() : null, status));
    }

    /** {@code ibv_post_send} returned; the batch holds the requests, ret/errno/duration and bad_wr. */
    default void onPostSend(QueuePair qp, SendBatch requests) {
    }

    /** {@code ibv_post_recv} returned. */
    default void onPostRecv(QueuePair qp, RecvBatch requests) {
    }

    /** {@code ibv_poll_cq} returned (also when it found nothing). */
    default void onPollCq(CompletionQueue cq, CompletionBatch completions) {
    }
}
