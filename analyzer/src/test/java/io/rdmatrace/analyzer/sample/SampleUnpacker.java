package io.rdmatrace.analyzer.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Restores a sample's host folders as the capture wrote them: sample-traces stores each queue
 * file gzip-packed ({@code <host>/<file>.gz}, see regenerate.sh), and a queue file is mostly
 * preallocated zeros, so zero blocks are skipped, not written (the result is sparse, like the original).
 */
final class SampleUnpacker {
    private static final int BLOCK = 4096;

    private SampleUnpacker() {
    }

    /** Unpacks every host folder of {@code sample} into {@code target}; returns the host folders made. */
    static List<Path> unpack(Path sample, Path target) throws IOException {
        List<Path> hosts;
        try (Stream<Path> list = Files.list(sample)) {
            hosts = list.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        for (Path host : hosts) {
            Path out = Files.createDirectories(target.resolve(host.getFileName().toString()));
            try (Stream<Path> files = Files.list(host)) {
                for (Path file : files.sorted().collect(Collectors.toList())) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".gz")) {
                        gunzipSparse(file, out.resolve(name.substring(0, name.length() - 3)));
                    } else {
                        Files.copy(file, out.resolve(name));
                    }
                }
            }
        }
        return hosts.stream().map(h -> target.resolve(h.getFileName().toString())).collect(Collectors.toList());
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
        for (int i = 0; i < n; i++) {
            if (block[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
