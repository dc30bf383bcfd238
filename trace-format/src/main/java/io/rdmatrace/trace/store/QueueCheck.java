package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a host folder's files before Chronicle maps them, because Chronicle trusts them: a data
 * file shorter than the chunks it maps faults (SIGBUS, surfacing as {@code InternalError}), a
 * damaged queue header throws whatever its parser meets, and a missing metadata file hides every
 * document. Each problem found is one sentence; any problem sends the reader to
 * {@link FramedFileSource} instead.
 */
final class QueueCheck {

    /** Chronicle maps a data file in chunks of this size, each with an overlap of a quarter chunk. */
    static final long CHUNK = 64L << 20;
    static final long OVERLAP = CHUNK / 4;
    /** The queue header's type names, present in every intact data file's first document. */
    private static final String[] HEADER_NAMES = {"header", "SCQStore", "SCQSIndexing", "writePosition", "indexing", "index2Index"};

    private QueueCheck() {
    }

    /** Why Chronicle must not map this folder, one sentence per problem; empty when it may. */
    static List<String> problems(Path dir, List<Path> dataFiles) {
        List<String> problems = new ArrayList<>();
        for (Path f : dataFiles) {
            String p = dataFileProblem(f);
            if (p != null) {
                problems.add(p);
            }
        }
        Path meta = dir.resolve(TraceLayout.METADATA_FILE);
        try {
            if (!Files.exists(meta)) {
                problems.add(TraceLayout.METADATA_FILE + " is missing (rebuilt from the data files)");
            } else if (Files.size(meta) < 4096 || !startsWithHeader(meta, "STStore")) {
                problems.add(TraceLayout.METADATA_FILE + " is damaged (" + Files.size(meta) + " bytes; rebuilt from the data files)");
            }
        } catch (IOException e) {
            problems.add(TraceLayout.METADATA_FILE + " is unreadable (" + e.getMessage() + "; rebuilt from the data files)");
        }
        return problems;
    }

    private static String dataFileProblem(Path f) {
        String name = f.getFileName().toString();
        long size;
        try {
            size = Files.size(f);
        } catch (IOException e) {
            return name + " is unreadable: " + e;
        }
        if (size < CHUNK + OVERLAP || (size - OVERLAP) % CHUNK != 0) {
            return name + " is " + size + " bytes where Chronicle writes " + (CHUNK + OVERLAP)
                    + " + n × " + CHUNK + ": the file was truncated (copied without its sparse tail, or the disk filled)";
        }
        try {
            if (!startsWithHeader(f, HEADER_NAMES)) {
                return name + " has a damaged queue header";
            }
        } catch (IOException e) {
            return name + " is unreadable: " + e.getMessage();
        }
        return null;
    }

    /** True when the first document is a complete metadata document of sane length naming all of {@code names}. */
    private static boolean startsWithHeader(Path f, String... names) throws IOException {
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
            int n = Math.max(0, ch.read(head, 0));
            if (n < 4) {
                return false;
            }
            int w = head.getInt(0);
            int length = w & FramedFileSource.LENGTH_MASK;
            if ((w & FramedFileSource.META_DATA) == 0 || (w & FramedFileSource.NOT_COMPLETE) != 0
                    || length < 16 || length > n - 4) {
                return false;
            }
            String text = new String(head.array(), 4, length, StandardCharsets.ISO_8859_1);
            for (String name : names) {
                if (!text.contains(name)) {
                    return false;
                }
            }
            return true;
        }
    }
}
