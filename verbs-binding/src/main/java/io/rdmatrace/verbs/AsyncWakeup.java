package io.rdmatrace.verbs;

/**
 * Ends a {@link Context#tryGetAsyncEvent(java.time.Duration, AsyncWakeup)} wait from another
 * thread (an eventfd the wait polls next to the context's async_fd), so a thread that waits
 * for async events can be stopped at once instead of at the end of its timeout. Once woken it
 * stays woken: every later wait with it returns at once.
 */
public final class AsyncWakeup implements AutoCloseable {
    static {
        JniLibrary.ensureLoaded();
    }

    private volatile int fd;

    private AsyncWakeup(int fd) {
        this.fd = fd;
    }

    /** A new, unwoken wake-up; throws {@link IllegalStateException} when the kernel refuses an eventfd. */
    public static AsyncWakeup open() {
        return new AsyncWakeup(open0());
    }

    /** Ends the current wait and every later one; harmless after close. */
    public void wake() {
        int f = fd;
        if (f >= 0) {
            wake0(f);
        }
    }

    /** The eventfd, or -1 once closed (a wait with a closed wake-up only times out). */
    int fd() {
        return fd;
    }

    /** Closes the eventfd; call it only when no thread waits with it any more. */
    @Override
    public void close() {
        int f = fd;
        fd = -1;
        if (f >= 0) {
            close0(f);
        }
    }

    private static native int open0();

    private static native void wake0(int fd);

    private static native void close0(int fd);
}
