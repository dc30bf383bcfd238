package io.rdmatrace.capture.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class TraceWarmUpTest {

    @Test
    void finishWithoutWaiting_stopsTheRoundsAndRemovesItsTrace() throws Exception {
        long before = warmUpFolders();
        TraceWarmUp w = TraceWarmUp.start();
        int rounds = w.finish(0);
        assertTrue(rounds < TraceWarmUp.ROUNDS, "stopped before its last round, did " + rounds);
        assertEquals(before, warmUpFolders(), "its throwaway trace is removed when it is stopped");
    }

    @Test
    void finishWithALongWait_letsItRunAllItsRounds() throws Exception {
        TraceWarmUp w = TraceWarmUp.start();
        assertEquals(TraceWarmUp.ROUNDS, w.finish(600_000));
    }

    private static long warmUpFolders() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("rdmatrace-warm-up")).count();
        }
    }
}
