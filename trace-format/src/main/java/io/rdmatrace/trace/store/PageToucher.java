package io.rdmatrace.trace.store;

import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.io.ReferenceOwner;

/**
 * A daemon thread that keeps the pages ahead of a writer's appends faulted in, so the appending
 * thread (the capture's) writes into pages that are already mapped. On this project's VM the first
 * write to a page of the mapped queue file costs ~20-30 µs of CPU (a 4 KiB page holds ~20-40
 * events), and the fault is taken per mapping: only a touch through the appender's own mapping
 * spares the appender. A touch is a 0→0 compare-and-set of the page's first word (as Chronicle's
 * {@code MicroTouched}), which changes no byte whatever the appender writes there at the same time.
 *
 * <p>The writer signals each time its appends cross a step of 2^{@link #STEP_SHIFT} bytes, and
 * once after its first event; the thread then touches every page from the write position up to {@link #LEAD} bytes
 * past it that it has not touched yet, outside the writer's lock (the store is reserved while it
 * touches, so it stays mapped even if the appender moves on or closes meanwhile).
 */
final class PageToucher {
    /** How far past the write position the pages are kept touched: ~2,000 small events. */
    static final long LEAD = 256 * 1024;
    /** log2 of how many appended bytes make one signal (32 KiB: 8 pages per wake-up). */
    static final int STEP_SHIFT = 15;
    static final long PAGE_BYTES = 4096;

    /** Where the appends are: what the toucher asks its writer for, under the writer's lock. */
    interface Source {
        /**
         * The mapped store the appends write to, reserved for {@code owner} (the toucher releases
         * it), and the write position in it; null when there is nothing to touch (closed, or no
         * append yet).
         */
        Ahead aheadOfAppends(ReferenceOwner owner);
    }

    /**
     * A store reserved for the toucher, the appends' write position (a file offset) in it, and the
     * offset up to which the file system backs the file (a touch past it would fault on a full disk).
     */
    record Ahead(BytesStore<?, ?> store, long position, long backedTo) {
    }

    private final Thread thread;
    private final Source source;
    private final ReferenceOwner owner = ReferenceOwner.temporary("rdmatrace-trace-touch");
    private volatile boolean stopped;
    // written by the toucher thread only: the store last touched and the file offset up to which
    // its pages are (a new store is a new mapping, whose pages fault anew); the volatile ones are
    // read by tests
    private BytesStore<?, ?> touchedStore;
    private volatile long touchedTo;
    private volatile long seenPosition;

    PageToucher(String name, Source source) {
        this.source = source;
        thread = new Thread(() -> {
            try {
                while (!stopped) {
                    LockSupport.park(this);
                    if (!stopped) {
                        touchAhead();
                    }
                }
            } catch (Throwable e) {
                // best effort: a fault here (a full disk) shows again in the writer's own next append
            }
        }, name);
        thread.setDaemon(true);
        // a fault in a mapped page can surface as an InternalError after the catch above: stay quiet
        thread.setUncaughtExceptionHandler((t, e) -> { });
        thread.start();
    }

    /** Asks for the pages ahead to be touched (several signals before it runs make one). */
    void signal() {
        LockSupport.unpark(thread);
    }

    /** Ends the thread (it does not wait for it: a touch under way holds its own reservation). */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    /** The file offset up to which pages have been touched (for tests). */
    long touchedTo() {
        return touchedTo;
    }

    /** The write position the toucher last saw (for tests). */
    long seenPosition() {
        return seenPosition;
    }

    private void touchAhead() {
        Ahead a = source.aheadOfAppends(owner);
        if (a == null) {
            return;
        }
        BytesStore<?, ?> store = a.store();
        seenPosition = a.position();
        try {
            if (store != touchedStore) {
                touchedStore = store;
                touchedTo = 0;
            }
            long end = Math.min(a.position() + LEAD, a.backedTo());
            long firstUnwritten = (a.position() + PAGE_BYTES - 1) & -PAGE_BYTES;
            for (long page = Math.max(touchedTo, firstUnwritten); page < end && !stopped; page += PAGE_BYTES) {
                if (!store.inside(page, Integer.BYTES)) {
                    break; // the mapping ends here; the appender's next store gets its own touches
                }
                store.compareAndSwapInt(page, 0, 0);
                touchedTo = page + PAGE_BYTES;
            }
        } finally {
            store.release(owner);
        }
    }
}
