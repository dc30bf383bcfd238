package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * Where traces live on disk and how their queues are opened: {@code OUT/<host-id>/} holds one
 * Chronicle Queue per host. One place so writer and reader cannot disagree.
 */
public final class TraceLayout {

    private TraceLayout() {
    }

    /** Chronicle's data file suffix. */
    public static final String QUEUE_FILE_SUFFIX = ".cq4";

    /**
     * WEEKLY is Chronicle's longest cycle: one capture (minutes) is one data file unless it
     * spans the weekly roll; the reader follows rolls anyway.
     */
    static final RollCycles ROLL_CYCLE = RollCycles.WEEKLY;

    /** The folder of one host's queue under an output folder. */
    public static Path hostFolder(Path outDir, String hostId) {
        return outDir.resolve(checkHostId(hostId, outDir));
    }

    /** Returns the host id if it can name a folder, else throws {@link IllegalArgumentException}. */
    static String checkHostId(String hostId, Path outDir) {
        if (hostId == null || hostId.isEmpty() || hostId.length() > 200 || hostId.equals(".") || hostId.equals("..")
                || hostId.chars().anyMatch(c -> c == '/' || c == '\\' || c < 0x20 || c == 0x7f || c == ':')) {
            throw new IllegalArgumentException("host id " + (hostId == null ? "null" : '"' + hostId + '"')
                    + " cannot name a trace folder under " + outDir
                    + ": use 1..200 characters without '/', '\\', ':' or control characters");
        }
        return hostId;
    }

    /** True when the folder directly holds at least one Chronicle data file. */
    public static boolean holdsQueueFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*" + QUEUE_FILE_SUFFIX)) {
            for (Path p : ds) {
                if (Files.isRegularFile(p)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The writer lock file every host folder gets (see {@link WriterLock}); part of a trace's files. */
    public static final String WRITER_LOCK_FILE = WriterLock.FILE_NAME;

    /** True for the files a trace folder is made of: Chronicle's data and metadata files and the writer lock. */
    public static boolean isTraceFile(String name) {
        return name.endsWith(QUEUE_FILE_SUFFIX) || name.endsWith(".cq4t") || name.equals(WRITER_LOCK_FILE);
    }

    /** Chronicle's queue metadata file, created when a queue is opened for writing. */
    public static final String METADATA_FILE = "metadata.cq4t";

    /**
     * True when the file starts like a Chronicle data file (its first metadata document names the
     * {@code SCQStore} type). Used only to explain a queue that shows no documents.
     */
    static boolean looksLikeChronicleFile(Path file) {
        byte[] head = new byte[64];
        int n;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            return false;
        }
        return new String(head, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1).contains("SCQStore");
    }

    /** The Chronicle data files of a folder, sorted by name. */
    public static java.util.List<Path> queueFiles(Path dir) {
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(QUEUE_FILE_SUFFIX) && Files.isRegularFile(p))
                    .sorted().collect(java.util.stream.Collectors.toList());
        } catch (IOException e) {
            return java.util.List.of();
        }
    }

    public static SingleChronicleQueue openForWrite(Path hostDir) {
        return SingleChronicleQueueBuilder.binary(hostDir).rollCycle(ROLL_CYCLE).build();
    }

    /**
     * Runs Chronicle's class initializers (its core's {@code Jvm} loads jnr-ffi's PosixAPI and JNA, ~0.3 s of
     * CPU in a fresh JVM) without touching any folder, so a caller can pay them on a thread of its own before
     * it opens a queue.
     */
    public static void initializeChronicle() {
        SingleChronicleQueueBuilder.binary(Path.of("unused")).rollCycle(ROLL_CYCLE).readOnly(true);
    }

    static SingleChronicleQueue openForRead(Path hostDir) {
        // readOnly: a reader never creates or changes files in a trace folder (copies may be read-only)
        return SingleChronicleQueueBuilder.binary(hostDir).rollCycle(ROLL_CYCLE).readOnly(true).build();
    }
}
