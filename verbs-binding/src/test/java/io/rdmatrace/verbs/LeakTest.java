package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Creating and destroying 10,000 objects (PD, MR, completion channel, CQ, QP; 2,000 of each)
 * keeps native memory and file descriptors flat once allocator and JIT are warm.
 *
 * <p>The process's malloc total also moves with the JVM's own work: compiler arenas and GC data
 * come and go by several MB in a round on a loaded machine (where compilation lags behind the
 * warm-up and runs during the rounds; seen +1.0 MB in a round with 4 ms of compiling and +10 MB
 * in another), more than the bound. So the growth judged is the process's malloc total minus the
 * JVM's own mallocs, as its Native Memory Tracking counts them ({@link JvmMallocs}): what native
 * code (ours, the C library's) kept, which stays within a few KB per round at load 8. A leak
 * grows with the objects, so it moves every round by the same amount: the median of
 * {@link #ROUNDS} rounds of 10,000 objects is judged, which a leak of 100 bytes per object or
 * one descriptor per 10,000 objects shifts and two odd rounds do not.
 */
class LeakTest {
    private static final int CYCLES = 2_000;
    private static final int OBJECTS_PER_CYCLE = 5;
    private static final int ROUNDS = 5;
    /** malloc growth allowed in a round: under 100 bytes per object. */
    private static final long MALLOC_TOLERANCE = 1L << 20;
    /** RSS also covers the Java heap and JIT, so it gets a looser bound. */
    private static final long RSS_TOLERANCE = 24L << 20;

    /**
     * What one round of {@link #CYCLES} cycles left behind: malloc growth outside the JVM's own
     * mallocs (and, to tell the two apart in a failure, the JVM's), RSS, new descriptors by name.
     */
    private record Round(long mallocGrowth, long jvmMallocGrowth, long rssGrowth, long fdGrowth, Set<String> newFds) {
    }

    @Test
    void tenThousandObjects_keepNativeMemoryAndFdsFlat() throws IOException {
        assertThat(CYCLES * OBJECTS_PER_CYCLE).isEqualTo(10_000);
        try (SoftDevices soft = SoftDevices.open("lk");
             Context ctx = soft.a().open();
             NativeMemory mem = NativeMemory.allocate(16384)) {
            cycles(ctx, mem, 300); // warm-up: JIT, allocator arenas, softverbs pools
            JvmMallocs.bytes(); // the first ask sets up JMX, whose native libraries malloc outside the JVM's count
            List<Round> rounds = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                rounds.add(round(ctx, mem));
            }
            String all = "rounds of 10,000 objects: " + rounds;
            assertThat(median(rounds, Round::mallocGrowth)).as("median malloc growth besides the JVM's own; " + all)
                    .isLessThan(MALLOC_TOLERANCE);
            assertThat(median(rounds, Round::rssGrowth)).as("median RSS growth; " + all).isLessThan(RSS_TOLERANCE);
            assertThat(median(rounds, Round::fdGrowth)).as("median fd growth; " + all).isZero();
        }
    }

    private static long median(List<Round> rounds, ToLongFunction<Round> value) {
        long[] v = rounds.stream().mapToLong(value).sorted().toArray();
        return v[v.length / 2];
    }

    private static Round round(Context ctx, NativeMemory mem) throws IOException {
        System.gc();
        long mallocBefore = NativeMemory.mallocInUse();
        long jvmMallocBefore = JvmMallocs.bytes();
        long rssBefore = rssBytes();
        long fdsBefore = openFds();
        Set<String> fdsBeforeNamed = namedFds();

        cycles(ctx, mem, CYCLES);
        System.gc();
        long mallocGrowth = NativeMemory.mallocInUse() - mallocBefore;
        long jvmMallocGrowth = JvmMallocs.bytes() - jvmMallocBefore;
        long rssGrowth = rssBytes() - rssBefore;
        Set<String> opened = namedFds();
        opened.removeAll(fdsBeforeNamed);
        return new Round(mallocGrowth - jvmMallocGrowth, jvmMallocGrowth, rssGrowth, openFds() - fdsBefore, opened);
    }

    private static void cycles(Context ctx, NativeMemory mem, int n) {
        QpInitAttr.of(QpType.RC, null, QpCap.NONE); // class init outside the loop
        for (int i = 0; i < n; i++) {
            ProtectionDomain pd = ctx.allocPd();
            MemoryRegion mr = pd.regMr(mem, AccessFlag.bits(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ));
            CompletionChannel channel = ctx.createCompChannel();
            CompletionQueue cq = ctx.createCq(32, channel, 0);
            QueuePair qp = pd.createQp(QpInitAttr.of(QpType.RC, cq, new QpCap(16, 16, 1, 1, 0)));
            qp.destroy();
            cq.destroy();
            channel.destroy();
            mr.dereg();
            pd.destroy();
        }
    }

    private static long rssBytes() throws IOException {
        String[] statm = Files.readString(Paths.get("/proc/self/statm")).trim().split("\\s+");
        return Long.parseLong(statm[1]) * NativeMemory.pageSize();
    }

    /** "fd -> target" of every open descriptor. */
    private static Set<String> namedFds() throws IOException {
        Set<String> named = new TreeSet<>();
        Path listing = Paths.get("/proc", Long.toString(ProcessHandle.current().pid()), "fd");
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (!target.equals(listing)) { // this listing's own descriptor
                        named.add(fd.getFileName() + " -> " + target);
                    }
                } catch (IOException e) {
                    // closed while listed
                }
            }
        }
        return named;
    }

    private static long openFds() throws IOException {
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            return fds.count();
        }
    }
}
