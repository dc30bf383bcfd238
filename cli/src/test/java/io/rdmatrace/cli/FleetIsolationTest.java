package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A newcomer's first `./rdmatrace demo` must not download Spark: the launcher builds cli and what cli needs only, and
 * no module but fleet/ names Spark or the fleet module. Reads the files; well under a second.
 */
class FleetIsolationTest {
    private static final Path REPO = ReadmeExamples.REPO;

    @Test
    void launcher_buildsCliAndItsModulesOnly() throws IOException {
        String launcher = Files.readString(REPO.resolve("rdmatrace"));
        assertThat(launcher).contains("mvn -B -q -DskipTests -Drdmatrace.deps.checked -pl cli -am package");
        assertThat(launcher).as("fleet/ sources do not make the jar stale").contains("-path \"$root/fleet\" \\) -prune");
    }

    @Test
    void noModuleButFleet_dependsOnSparkOrOnFleet() throws IOException {
        List<Path> poms;
        try (Stream<Path> files = Files.list(REPO)) {
            poms = files.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList();
        }
        assertThat(poms).hasSizeGreaterThan(5);
        for (Path pom : poms) {
            if (pom.getParent().getFileName().toString().equals("fleet")) {
                assertThat(Files.readString(pom)).contains("<artifactId>spark-sql_2.13</artifactId>");
                continue;
            }
            assertThat(Files.readString(pom)).as(pom.toString()).doesNotContain("org.apache.spark", "rdmatrace-fleet");
        }
    }
}
