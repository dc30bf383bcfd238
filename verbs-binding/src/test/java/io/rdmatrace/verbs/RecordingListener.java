package io.rdmatrace.verbs;

import java.util.ArrayList;
import java.util.List;

/** Keeps every call a context reports, as a recorder would. */
final class RecordingListener implements VerbsListener {
    final List<VerbCall> calls = new ArrayList<>();
    final List<String> dataPath = new ArrayList<>();

    @Override
    public void onCall(Context context, VerbCall call) {
        calls.add(call);
    }

    @Override
    public void onPostSend(QueuePair qp, SendBatch requests) {
        dataPath.add("post_send qp=" + qp.qpNum() + " n=" + requests.count() + " ret=" + requests.ret()
                + " wr_id=" + (requests.count() > 0 ? requests.wrId(0) : -1) + " dur>0=" + (requests.durationNanos() > 0));
    }

    @Override
    public void onPostRecv(QueuePair qp, RecvBatch requests) {
        dataPath.add("post_recv qp=" + qp.qpNum() + " n=" + requests.count() + " ret=" + requests.ret());
    }

    @Override
    public void onPollCq(CompletionQueue cq, CompletionBatch completions) {
        if (completions.count() > 0) {
            dataPath.add("poll_cq n=" + completions.count() + " wr_id=" + completions.wrId(0));
        }
    }

    List<String> verbs() {
        return calls.stream().map(VerbCall::verb).toList();
    }
}
