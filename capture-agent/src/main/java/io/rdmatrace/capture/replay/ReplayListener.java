package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.List;

import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.verbs.IbvAsyncEvent;
import io.rdmatrace.verbs.CompletionBatch;
import io.rdmatrace.verbs.CompletionQueue;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.QueuePair;
import io.rdmatrace.verbs.RecvBatch;
import io.rdmatrace.verbs.SendBatch;
import io.rdmatrace.verbs.VerbCall;
import io.rdmatrace.verbs.VerbsListener;

/** Hands every replayed verb to the recorder (the new trace) and keeps the async events for the comparison. */
final class ReplayListener implements VerbsListener {
    private final Recorder recorder;
    private final List<IbvAsyncEvent> asyncEvents = new ArrayList<>();

    ReplayListener(Recorder recorder) {
        this.recorder = recorder;
    }

    @Override
    public void onCall(Context context, VerbCall call) {
        if (call instanceof VerbCall.GetAsyncEvent g && g.event() != null) {
            asyncEvents.add(g.event());
        }
        recorder.onCall(context, call);
    }

    @Override
    public void onPostSend(QueuePair qp, SendBatch requests) {
        recorder.onPostSend(qp, requests);
    }

    @Override
    public void onPostRecv(QueuePair qp, RecvBatch requests) {
        recorder.onPostRecv(qp, requests);
    }

    @Override
    public void onPollCq(CompletionQueue cq, CompletionBatch completions) {
        recorder.onPollCq(cq, completions);
    }

    /** The async events seen so far, in arrival order. */
    List<IbvAsyncEvent> asyncEvents() {
        return List.copyOf(asyncEvents);
    }
}
