package io.rdmatrace.verbs;

import java.io.IOException;

/**
 * SIGQUIT taken from the JVM while it is held (verbs-binding/src/main/c/jni/jni_signal.c): HotSpot keeps
 * SIGQUIT for thread dumps and refuses it to {@code sun.misc.Signal}, and -Xrs, which frees it,
 * also takes SIGINT, SIGTERM and SIGHUP away. While held, the JVM gives no thread dump and takes
 * no jcmd attach; {@link #close()} gives SIGQUIT back. One holder at a time per process (a second
 * {@link #take} before the first's close is refused).
 */
public final class QuitSignal implements AutoCloseable {
    private final Thread waiter;

    private QuitSignal(Runnable onQuit) {
        waiter = new Thread(() -> {
            while (await0()) {
                onQuit.run();
            }
        }, "rdmatrace-sigquit");
        waiter.setDaemon(true);
        waiter.start();
    }

    /**
     * Runs {@code onQuit} on a thread of its own for every SIGQUIT until closed.
     *
     * @throws IllegalStateException when SIGQUIT cannot be taken (already held, or sigaction failed)
     * @throws UnsatisfiedLinkError  when the JNI library cannot be loaded
     */
    public static QuitSignal take(Runnable onQuit) {
        if (onQuit == null) {
            throw new IllegalArgumentException("onQuit is null");
        }
        JniLibrary.ensureLoaded();
        int errno = take0();
        if (errno != 0) {
            throw new IllegalStateException("cannot take SIGQUIT from the JVM (errno " + errno + ")");
        }
        return new QuitSignal(onQuit);
    }

    /**
     * Starts {@code pb} with SIGQUIT unblocked, as outside a JVM: HotSpot blocks it in every thread
     * but its own, and the child inherits the starting thread's mask (a recorded program would
     * never die of a terminal's Ctrl-\ nor of a passed-on SIGQUIT). Without the JNI library, a plain start.
     */
    public static Process startUnblocked(ProcessBuilder pb) throws IOException {
        if (pb == null) {
            throw new IllegalArgumentException("pb is null");
        }
        boolean wasBlocked;
        try {
            JniLibrary.ensureLoaded();
            wasBlocked = unblock0();
        } catch (UnsatisfiedLinkError e) {
            return pb.start();
        }
        try {
            return pb.start();
        } finally {
            reblock0(wasBlocked);
        }
    }

    /** Gives SIGQUIT back to the JVM and ends the waiting thread. Idempotent. */
    @Override
    public void close() {
        release0();
        try {
            waiter.join(10_000); // it has taken release0's post: the next holder's posts are its own
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static native int take0();

    private static native boolean await0();

    private static native void release0();

    private static native boolean unblock0();

    private static native void reblock0(boolean wasBlocked);
}
