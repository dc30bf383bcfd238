package io.rdmatrace.capture.program;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Puts the recorder's own threads behind the recorded program on the CPU. A verbs program that
 * busy-polls (softverbs yields the CPU on every empty poll) waits for each of its turns behind
 * every runnable thread of equal weight, so a drain pass that decodes and writes events added its
 * whole duration to the program's latency. At nice {@value #NICE} the drain still gets its share
 * when the CPU is idle or the program sleeps, and the rings hold seconds of calls meanwhile.
 * The program, started before this runs, keeps its own priority. Linux-only and best effort: on
 * failure the recording only runs at the program's priority.
 */
final class DrainPriority {
    static final int NICE = 10;

    private DrainPriority() {
    }

    /** Renices every thread of this JVM (threads it starts later inherit the value). */
    static boolean lower() {
        List<String> cmd = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                cmd.add(t.getFileName().toString());
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroy();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
