package io.rdmatrace.analyzer.load;

import java.util.Objects;

/**
 * What loading one host folder gave.
 *
 * @param folder   the folder as given/discovered
 * @param host     the host id from its SESSION (the folder name when unreadable)
 * @param status   CLEAN, REPAIRED (every event read, but the queue's files were damaged and
 *                 read without Chronicle's index), RECORDING (no END yet, its writer is alive: every
 *                 event so far was read), TRUNCATED, CORRUPT (read up to the damage), or
 *                 why it was refused: UNSUPPORTED_VERSION, NOT_A_TRACE, NO_SESSION, CORRUPT_SESSION,
 *                 DAMAGED, NOT_A_QUEUE, EMPTY, IO
 * @param detail   one sentence naming the folder or file, for people
 * @param events   events loaded
 * @param elapsedNanos time spent reading and loading it
 */
public record HostLoad(String folder, String host, String status, String detail, long events, long elapsedNanos) {
    public HostLoad {
        Objects.requireNonNull(folder, "folder");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(detail, "detail");
    }

    /** The statuses of hosts whose events were loaded. */
    public static final java.util.Set<String> READABLE = java.util.Set.of("CLEAN", "REPAIRED", "RECORDING", "TRUNCATED", "CORRUPT");

    /** True when its events (all, or those before the damage) were loaded. */
    public boolean readable() {
        return READABLE.contains(status);
    }

    /** True when its trace is still being written (read while the program runs). */
    public boolean recording() {
        return status.equals("RECORDING");
    }

    /** The trace file's integrity, apart from any verdict: complete, still recording, truncated, corrupt or unreadable. */
    public String integrity() {
        return integrity(status);
    }

    /** The integrity, for people, of a host with {@code status}: every report and the timeline say it the same way. */
    public static String integrity(String status) {
        return switch (status) {
            case "CLEAN" -> "complete";
            case "REPAIRED" -> "repaired";
            case "RECORDING" -> "still recording";
            case "TRUNCATED" -> "truncated";
            case "CORRUPT" -> "corrupt";
            default -> "unreadable (" + status + ")";
        };
    }
}
