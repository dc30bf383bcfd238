package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** SIGQUIT taken from the JVM and given back; a child started with it unblocked. */
class QuitSignalTest {

    @Test
    void sigquitToThisJvm_reachesTheHolder_andCanBeTakenAgainAfterClose() throws Exception {
        for (int round = 0; round < 2; round++) {
            CountDownLatch got = new CountDownLatch(1);
            try (QuitSignal q = QuitSignal.take(got::countDown)) {
                new ProcessBuilder("kill", "-QUIT", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                assertThat(got.await(30, TimeUnit.SECONDS)).as("round %d", round).isTrue(); // a bound, not a speed check
            }
        }
    }

    @Test
    void childStartedUnblocked_hasSigquitUnblocked_whileThisThreadKeepsItsMask() throws Exception {
        Path status = Files.createTempFile("quit", ".txt");
        try {
            Process p = QuitSignal.startUnblocked(new ProcessBuilder("sh", "-c", "grep SigBlk /proc/self/status")
                    .redirectOutput(status.toFile()));
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long blocked = Long.parseLong(Files.readString(status).replace("SigBlk:", "").strip(), 16);
            assertThat(blocked & (1L << (3 - 1))).as("SIGQUIT (3) blocked in the child").isZero();
            String mine = Files.readString(Path.of("/proc/thread-self/status")).lines()
                    .filter(l -> l.startsWith("SigBlk:")).findFirst().orElseThrow();
            long own = Long.parseLong(mine.replace("SigBlk:", "").strip(), 16);
            assertThat(own & (1L << (3 - 1))).as("HotSpot's mask of this thread is back").isNotZero();
        } finally {
            Files.deleteIfExists(status);
        }
    }
}
