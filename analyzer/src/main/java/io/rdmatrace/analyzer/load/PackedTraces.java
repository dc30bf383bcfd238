package io.rdmatrace.analyzer.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Trace folders stored gzip-packed, as sample-traces/ keeps them ({@code <host>/<file>.gz}, see
 * its regenerate.sh): {@link #isPacked} tells them apart, {@link #unpack} restores the folders as
 * the capture wrote them. A queue file is mostly preallocated zeros, so zero blocks are skipped,
 * not written: the result is sparse, like the original.
 */
public final class PackedTraces {
    private static final int BLOCK = 4096;
    private static final byte[] ZEROS = new byte[BLOCK];

    private PackedTraces() {
    }

    /** True when {@code root} (a capture folder or one host folder) holds packed queue files and no plain ones. */
    public static boolean isPacked(Path root) {
        if (!Files.isDirectory(root)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(root, 2)) {
            List<String> names = files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).toList();
            return names.stream().anyMatch(n -> n.endsWith(".cq4.gz"))
                    && names.stream().noneMatch(n -> n.endsWith(".cq4"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Unpacks {@code root} into {@code target}: every {@code .gz} file below it (two levels at
     * most) is decompressed to the same relative path without {@code .gz}; other files are copied.
     */
    public static void unpack(Path root, Path target) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root, 2)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            Path relative = root.relativize(file);
            Path out = target.resolve(relative.toString());
            Files.createDirectories(out.getParent());
            String name = file.getFileName().toString();
            if (name.endsWith(".gz")) {
                gunzipSparse(file, out.resolveSibling(name.substring(0, name.length() - 3)));
            } else {
                Files.copy(file, out);
            }
        }
    }

    /** Deletes a folder {@link #unpack} made. */
    public static void delete(Path target) throws IOException {
        if (!Files.exists(target)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(target)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void gunzipSparse(Path gz, Path target) throws IOException {
        byte[] block = new byte[BLOCK];
        long position = 0;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16);
                RandomAccessFile out = new RandomAccessFile(target.toFile(), "rw")) {
            int n;
            while ((n = in.readNBytes(block, 0, BLOCK)) > 0) {
                if (!allZero(block, n)) {
                    out.seek(position);
                    out.write(block, 0, n);
                }
                position += n;
            }
            out.setLength(position);
        }
    }

    private static boolean allZero(byte[] block, int n) {
        // Arrays.mismatch is vectorised: a packed queue file is ~80 MB, nearly all zeros
        return Arrays.mismatch(block, 0, n, ZEROS, 0, n) < 0;
    }
}
