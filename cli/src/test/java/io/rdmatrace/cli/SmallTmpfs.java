package io.rdmatrace.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few MiB mounted on a folder of the test's: a disk that really fills. Needs root
 * (CI runs as root); where mounting is refused the test is skipped, naming why. Unmounted on close.
 */
final class SmallTmpfs implements AutoCloseable {
    private final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code size} (mount(8) syntax: "2m") on {@code dir}, made if missing. */
    static SmallTmpfs mount(Path dir, String size) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assumeTrue(done && p.exitValue() == 0, "cannot mount a " + size + " tmpfs on " + dir
                + " (mounting needs root): " + said);
        return new SmallTmpfs(dir);
    }

    Path dir() {
        return dir;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("umount", dir.toString()).redirectErrorStream(true).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            // still in use by a process that has not ended yet: detach it now, freed when the last user goes
            new ProcessBuilder("umount", "-l", dir.toString()).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
