package io.rdmatrace.capture.oob;

import java.time.Duration;

/** A point in monotonic time; every blocking step asks it how long it may still wait. */
public record Deadline(long atNanos) {

    public static Deadline after(Duration d) {
        return new Deadline(System.nanoTime() + d.toNanos());
    }

    public long remainingMillis() {
        return Math.max(0, (atNanos - System.nanoTime() + 999_999) / 1_000_000);
    }

    public boolean expired() {
        return System.nanoTime() - atNanos >= 0;
    }

    /** The earlier of the two. */
    public Deadline min(Deadline other) {
        return atNanos - other.atNanos <= 0 ? this : other;
    }
}
