package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.verbs.NativeMemory;
import io.rdmatrace.verbs.VerbsResource;

/**
 * The objects made while replaying, found by the handle they had in the recording, plus the
 * buffers behind the memory regions. {@link #closeAll} frees what the recording left alive.
 */
final class LiveObjects implements AutoCloseable {
    private final Map<Long, Object> byRecordedHandle = new HashMap<>();
    private final List<AutoCloseable> inOrder = new ArrayList<>();

    void put(long recordedHandle, Object live) {
        if (recordedHandle != 0) {
            byRecordedHandle.put(recordedHandle, live);
        }
        if (live instanceof AutoCloseable c) {
            inOrder.add(c);
        }
    }

    /** A buffer kept until the end (it may back a memory region). */
    void keep(NativeMemory memory) {
        inOrder.add(memory);
    }

    /** The live object the recorded handle stands for, if it exists here and has that type. */
    <T> T get(long recordedHandle, Class<T> type) {
        Object o = byRecordedHandle.get(recordedHandle);
        return type.isInstance(o) ? type.cast(o) : null;
    }

    void forget(long recordedHandle) {
        byRecordedHandle.remove(recordedHandle);
    }

    /** Destroys, newest first, everything still alive (resources already destroyed are skipped). */
    @Override
    public void close() {
        for (int i = inOrder.size() - 1; i >= 0; i--) {
            AutoCloseable c = inOrder.get(i);
            if (c instanceof VerbsResource r && r.isDestroyed()) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                // teardown of what the recording left behind: nothing to compare, keep going
            }
        }
        inOrder.clear();
        byRecordedHandle.clear();
    }
}
