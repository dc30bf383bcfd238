package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.trace.synth.SyntheticTrace;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzz over the ways a host folder gets damaged (queue-header bytes, truncation offsets,
 * index bytes, metadata damage): analyze (and in turn export, diff, timeline) never exits 3,
 * always analyses the intact host, and always names the damaged one. Bounded: {@value #ROUNDS}
 * rounds of a small synthetic pair.
 */
class DamagedTraceFuzzTest {

    private static final long SEED = 0x5eed_0011L;
    private static final int ROUNDS = 8;
    private static final int EVENTS_PER_HOST = 65;
    private static final long[] TRUNCATIONS = {0, 256, 4096, 65536, 66000, 70000, 40_000_000};

    @TempDir
    Path dir;

    /**
     * One damage, described for the assertion messages. {@code mustShow}: the damage always loses
     * or changes something (truncation, metadata); a flipped byte may land where nothing reads it,
     * and then the host must read whole instead.
     */
    private record Damage(String what, boolean mustShow) {
    }

    @Test
    void damagedHost_neverAnInternalError_intactHostAnalysed_damagedHostNamed() throws Exception {
        Random random = new Random(SEED);
        String[] verbs = {"export", "diff", "timeline"};
        Path pristine = dir.resolve("pristine");
        SyntheticTrace.write(SyntheticTrace.Spec.of(pristine, 1, 30));
        assertThat(MainTest.run("analyze", pristine.toString()).out()).as("the undamaged pair")
                .containsPattern("(?m)^  host-a +trace complete +" + EVENTS_PER_HOST + " events");
        for (int round = 0; round < ROUNDS; round++) {
            Path trace = dir.resolve("round-" + round);
            copySparse(pristine, trace);
            String damaged = random.nextBoolean() ? "host-a" : "host-b";
            String intact = damaged.equals("host-a") ? "host-b" : "host-a";
            Damage d = damage(trace.resolve(damaged), random, round);

            MainTest.Run run = MainTest.run("analyze", trace.toString());
            String about = d.what() + " of " + damaged + "\n" + run.out() + run.err();
            assertThat(run.code()).as(about).isIn(ExitCode.OK, ExitCode.FAILURE);
            assertThat(run.out()).as(about).containsPattern("(?m)^  " + intact + " +trace complete +[1-9][0-9]* events");
            boolean named = run.out().matches("(?s).*\\n  " + damaged
                    + " +trace (truncated|corrupt|repaired|unreadable \\((DAMAGED|NO_SESSION|NOT_A_QUEUE|NOT_A_TRACE|CORRUPT_SESSION)\\)) .*")
                    && run.out().matches("(?s).*\\n  - " + damaged + ": (TRUNCATED|CORRUPT|REPAIRED|DAMAGED|NO_SESSION|NOT_A_QUEUE|NOT_A_TRACE|CORRUPT_SESSION).*");
            boolean whole = run.out().matches("(?s).*\\n  " + damaged + " +trace complete +" + EVENTS_PER_HOST + " events .*");
            assertThat(named || !d.mustShow() && whole).as("damaged host named in Hosts and Findings, " + about).isTrue();
            assertThat(run.out() + run.err()).as(about).doesNotContain("InternalError").doesNotContain("unexpected internal error");

            if (round >= verbs.length) {
                continue; // the other verbs read through the same reader: one round each keeps the test short
            }
            String verb = verbs[round];
            MainTest.Run other = switch (verb) {
                case "export" -> MainTest.run("export", trace.toString(), "-o", dir.resolve("b" + round + ".zip").toString());
                case "diff" -> MainTest.run("diff", trace.toString(), trace.toString());
                default -> MainTest.run("timeline", trace.toString(), "-o", dir.resolve("t" + round + ".html").toString());
            };
            assertThat(other.code()).as(verb + " after " + d.what() + "\n" + other.out() + other.err())
                    .isIn(ExitCode.OK, ExitCode.FAILURE, ExitCode.USAGE);
            assertThat(other.err()).as(verb).doesNotContain("unexpected internal error");
        }
    }

    private static Damage damage(Path host, Random random, int round) throws Exception {
        Path data = dataFile(host);
        Path meta = host.resolve("metadata.cq4t");
        switch (round % 4) {
            case 0 -> {
                long at = TRUNCATIONS[random.nextInt(TRUNCATIONS.length)];
                truncate(data, at);
                return new Damage("data file truncated to " + at, true);
            }
            case 1 -> {
                int at = random.nextInt(256);
                flip(data, at, 1 + random.nextInt(255));
                return new Damage("queue header byte " + at + " flipped", false);
            }
            case 2 -> {
                int at = 256 + random.nextInt(65536 - 256);
                for (int i = 0; i < 8; i++) {
                    flip(data, at + i, 1 + random.nextInt(255));
                }
                return new Damage("index bytes at " + at + " flipped", false);
            }
            default -> {
                switch (random.nextInt(3)) {
                    case 0 -> Files.delete(meta);
                    case 1 -> Files.write(meta, new byte[0]);
                    default -> truncate(meta, random.nextInt(4096));
                }
                return new Damage("metadata damaged", true);
            }
        }
    }

    /** Copies the pair as a capture left it: the data files' zero blocks stay holes (they are 80 MiB each). */
    private static void copySparse(Path from, Path to) throws Exception {
        for (String host : List.of("host-a", "host-b")) {
            Path target = Files.createDirectories(to.resolve(host));
            try (Stream<Path> files = Files.list(from.resolve(host))) {
                for (Path f : files.toList()) {
                    byte[] block = new byte[1 << 16];
                    try (java.io.InputStream in = Files.newInputStream(f);
                         RandomAccessFile out = new RandomAccessFile(target.resolve(f.getFileName().toString()).toFile(), "rw")) {
                        long at = 0;
                        for (int n; (n = in.readNBytes(block, 0, block.length)) > 0; at += n) {
                            for (int i = 0; i < n; i++) {
                                if (block[i] != 0) {
                                    out.seek(at);
                                    out.write(block, 0, n);
                                    break;
                                }
                            }
                        }
                        out.setLength(at);
                    }
                }
            }
        }
    }

    private static Path dataFile(Path host) throws Exception {
        try (Stream<Path> files = Files.list(host)) {
            List<Path> cq4 = files.filter(p -> p.toString().endsWith(".cq4")).toList();
            assertThat(cq4).hasSize(1);
            return cq4.get(0);
        }
    }

    private static void truncate(Path file, long size) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }

    private static void flip(Path file, long at, int mask) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ mask);
        }
    }
}
