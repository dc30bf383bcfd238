package io.rdmatrace.capture.run;

import io.rdmatrace.capture.record.Recorder;
import io.rdmatrace.capture.wire.SoftverbsWireLog;
import io.rdmatrace.verbs.Verbs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * capture --wire: a private directory softverbs writes its packet logs into while the capture
 * runs; after the device closed, the logs become PACKET events, then the directory goes.
 */
final class WireDir implements AutoCloseable {
    private final Verbs verbs;
    private final Path dir;

    private WireDir(Verbs verbs, Path dir) {
        this.verbs = verbs;
        this.dir = dir;
    }

    /** Asks softverbs to log the packets of the devices opened from now on. */
    static WireDir start(Verbs verbs) throws CaptureException {
        if (!verbs.isSoftverbs()) {
            throw new CaptureException(false, "--wire needs softverbs (--soft): " + verbs.loadedPath() + " has no packet log", null);
        }
        try {
            Path dir = Files.createTempDirectory("rdmatrace-wire");
            verbs.recordSoftverbsWire(dir);
            return new WireDir(verbs, dir);
        } catch (IOException | RuntimeException e) {
            throw new CaptureException(true, "--wire: cannot start softverbs' packet log: " + e.getMessage(), e);
        }
    }

    /** Writes every logged packet into the trace (a log that cannot be read becomes a FAIL mark). */
    void drainInto(Recorder recorder) {
        try {
            for (SoftverbsWireLog log : SoftverbsWireLog.readAll(dir)) {
                recorder.packets(log);
            }
        } catch (IOException e) {
            recorder.mark("wire", io.rdmatrace.trace.model.MarkEvent.Verdict.FAIL, "softverbs' packet log unreadable: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            verbs.recordSoftverbsWire(null);
        } catch (RuntimeException e) {
            // the library is closing; the directory goes anyway
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
