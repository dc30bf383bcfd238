package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Creating and destroying 10,000 objects (PD, MR, completion channel, CQ, QP; 2,000 of each)
 * keeps native memory and file descriptors flat once allocator and JIT are warm.
 */
class LeakTest {
    private static final int CYCLES = 2_000;
    private static final int OBJECTS_PER_CYCLE = 5;
    /** malloc growth allowed after warm-up: under 100 bytes per object. */
    private static final long MALLOC_TOLERANCE = 1L << 20;
    /** RSS also covers the Java heap and JIT, so it gets a looser bound. */
    private static final long RSS_TOLERANCE = 24L << 20;

    @Test
    void tenThousandObjects_keepNativeMemoryAndFdsFlat() throws IOException {
        try (SoftDevices soft = SoftDevices.open("lk");
             Context ctx = soft.a().open();
             NativeMemory mem = NativeMemory.allocate(16384)) {
            cycles(ctx, mem, 300); // warm-up: JIT, allocator arenas, softverbs pools
            System.gc();
            long mallocBefore = NativeMemory.mallocInUse();
            long rssBefore = rssBytes();
            long fdsBefore = openFds();
            Set<String> fdsBeforeNamed = namedFds();

            cycles(ctx, mem, CYCLES);
            System.gc();
            long mallocGrowth = NativeMemory.mallocInUse() - mallocBefore;
            long rssGrowth = rssBytes() - rssBefore;

            assertThat(CYCLES * OBJECTS_PER_CYCLE).isEqualTo(10_000);
            assertThat(mallocGrowth).as("malloc growth over 10,000 objects").isLessThan(MALLOC_TOLERANCE);
            assertThat(rssGrowth).as("RSS growth over 10,000 objects").isLessThan(RSS_TOLERANCE);
            Set<String> opened = namedFds();
            opened.removeAll(fdsBeforeNamed);
            // the new ones by name, so a failure says what stayed open (seen once: one more fd, unnamed)
            assertThat(openFds()).as("open file descriptors (new: %s)", opened).isEqualTo(fdsBefore);
        }
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
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    named.add(fd.getFileName() + " -> " + Files.readSymbolicLink(fd));
                } catch (IOException e) {
                    // closed while listed (the listing's own descriptor)
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
