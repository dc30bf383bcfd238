package io.rdmatrace.trace;

import java.util.concurrent.locks.LockSupport;

/**
 * A daemon thread that runs {@code touch} each time it is signalled: a writer signals when its
 * appends enter a new page of the mapped queue file, and the touch (Chronicle's
 * {@code MicroTouched.microTouch()}, under the writer's lock) takes the first-write fault of the
 * next page here instead of in the next append on the capture thread. On this project's VM such a
 * fault costs ~10-20 µs of CPU, a 4 KiB page holds ~16 events.
 */
final class PageToucher {
    private final Thread thread;
    private volatile boolean stopped;

    PageToucher(String name, Runnable touch) {
        thread = new Thread(() -> {
            try {
                while (!stopped) {
                    LockSupport.park(this);
                    if (!stopped) {
                        touch.run();
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

    /** Asks for one touch (several signals before it runs make one). */
    void signal() {
        LockSupport.unpark(thread);
    }

    /** Ends the thread (it does not wait for it). */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
