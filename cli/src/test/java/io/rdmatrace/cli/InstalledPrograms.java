package io.rdmatrace.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** Real programs the tests run (ibverbs-utils, perftest ...), found on PATH. */
final class InstalledPrograms {
    private InstalledPrograms() {
    }

    /** {@code name} on PATH; a test without it is skipped, naming it (CI installs every package of build/deps.txt). */
    static Path require(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        assumeTrue(false, name + " is not installed (see build/deps.txt); this test runs in CI, which installs it");
        return null;
    }
}
