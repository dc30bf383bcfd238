package io.rdmatrace.capture.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsListener;

/**
 * Everything one host's replay accumulates: the library and context, the objects by recorded
 * handle, the value map, the device facts the new SESSION needs, the recorded QP states (to name
 * transitions) and the notes for the report.
 */
final class ReplayState implements AutoCloseable {
    final Verbs verbs;
    final VerbsListener listener;
    final LiveObjects objects = new LiveObjects();
    final ValueMap values = new ValueMap();
    final Duration completionWait;
    /** notes for the report, each once */
    private final Set<String> notes = new LinkedHashSet<>();
    /** recorded QP handle → its state as the recording last saw it */
    final Map<Long, Long> recordedQpState = new HashMap<>();
    /** recorded local QPN → recorded QP handle, to find a completion's QP */
    final Map<Long, Long> recordedQpHandle = new HashMap<>();
    DeviceList deviceList;
    Context context;
    /** device facts gathered by the replayed queries, for the new trace's SESSION */
    Attrs deviceAttrs = Attrs.EMPTY;
    final List<Attrs> ports = new ArrayList<>();
    final List<GidEntry> gids = new ArrayList<>();

    ReplayState(Verbs verbs, VerbsListener listener, Duration completionWait) {
        this.verbs = verbs;
        this.listener = listener;
        this.completionWait = completionWait;
    }

    void note(String text) {
        notes.add(text);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    @Override
    public void close() {
        objects.close(); // the context is among them, closed last
        if (deviceList != null) {
            deviceList.close();
            deviceList = null;
        }
    }
}
