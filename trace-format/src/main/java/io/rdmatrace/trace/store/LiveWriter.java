package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * Whether a live process still writes a host folder: its {@link WriterLock} is held. Answered from
 * the kernel's lock list ({@code /proc/locks}) without opening the lock file, because opening and
 * closing any descriptor of a file drops every POSIX lock this process holds on it: a reader in the
 * writer's own JVM would otherwise release the writer's lock. Off Linux (no {@code /proc/locks}) the
 * answer is "no", and a trace without END reads as TRUNCATED as before.
 */
public final class LiveWriter {

    private static final Path LOCKS = Path.of("/proc/locks");

    private LiveWriter() {
    }

    /** The pid (as this process's namespace sees it) of the live process holding the folder's writer lock, if any. */
    public static OptionalLong holder(Path hostDir) {
        Path file = hostDir.resolve(WriterLock.FILE_NAME);
        long inode;
        long dev;
        List<String> lines;
        try {
            if (!Files.exists(file)) {
                return OptionalLong.empty();
            }
            inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
            dev = ((Number) Files.getAttribute(file, "unix:dev")).longValue();
            lines = Files.readAllLines(LOCKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return OptionalLong.empty(); // not Linux, or the folder went away: nobody is known to write it
        }
        return holder(lines, major(dev), minor(dev), inode);
    }

    /**
     * The holder of a lock on (major:minor, inode) in {@code /proc/locks} lines such as
     * {@code "4: POSIX  ADVISORY  WRITE 16144 fe:00:2156609 0 EOF"}; waiters ({@code "-> "}) are not holders.
     */
    public static OptionalLong holder(List<String> lines, long major, long minor, long inode) {
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || f[1].equals("->")) {
                continue;
            }
            String[] id = f[5].split(":");
            if (id.length != 3) {
                continue;
            }
            try {
                if (Long.parseLong(id[2]) == inode && Long.parseLong(id[0], 16) == major && Long.parseLong(id[1], 16) == minor) {
                    return OptionalLong.of(Long.parseLong(f[4])); // OFD locks show pid -1: held, owner unknown
                }
            } catch (NumberFormatException e) {
                // a line of another shape: not ours
            }
        }
        return OptionalLong.empty();
    }

    /** glibc's gnu_dev_major of a stat st_dev. */
    private static long major(long dev) {
        return ((dev & 0x00000000000fff00L) >>> 8) | ((dev & 0xfffff00000000000L) >>> 32);
    }

    /** glibc's gnu_dev_minor. */
    private static long minor(long dev) {
        return (dev & 0xffL) | ((dev & 0x00000ffffff00000L) >>> 12);
    }
}
