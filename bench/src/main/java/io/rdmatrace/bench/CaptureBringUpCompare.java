package io.rdmatrace.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What recording adds to a `--qps N` bring-up, measured by alternating recorded and bare runs in one
 * JVM (so load drift on a shared machine hits both alike); prints both sorted series and the medians,
 * of the wall time and of the process's CPU time (all threads: both agents, softverbs, JIT, GC), which
 * other work on a busy machine moves far less than the wall time, and of the two capture threads
 * (the bring-up's critical path: the hosts wait on each other ~2,000 times).
 * <pre>java $(flags) -cp bench/target/benchmarks.jar io.rdmatrace.bench.CaptureBringUpCompare [qps=1000] [rounds=12]</pre>
 * where flags are Chronicle's (see {@link JvmFlags}).
 */
public final class CaptureBringUpCompare {
    private static final int WARMUP_ROUNDS = 4;

    private CaptureBringUpCompare() {
    }

    public static void main(String[] args) throws Exception {
        int qps = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        List<Long> recorded = new ArrayList<>();
        List<Long> bare = new ArrayList<>();
        List<Long> recordedCpu = new ArrayList<>();
        List<Long> bareCpu = new ArrayList<>();
        List<Long> recordedCapture = new ArrayList<>();
        List<Long> bareCapture = new ArrayList<>();
        try (CaptureBringUpPair pair = new CaptureBringUpPair()) {
            for (int i = 0; i < WARMUP_ROUNDS; i++) {
                pair.run(qps, true);
                pair.run(qps, false);
            }
            for (int i = 0; i < rounds; i++) {
                boolean recordFirst = i % 2 == 0; // alternate the order too
                long cpu0 = processCpuNanos();
                long first = pair.run(qps, recordFirst) / 1_000_000;
                long cpu1 = processCpuNanos();
                long firstCapture = pair.lastCaptureCpuNanos() / 100_000;
                long second = pair.run(qps, !recordFirst) / 1_000_000;
                long cpu2 = processCpuNanos();
                long secondCapture = pair.lastCaptureCpuNanos() / 100_000;
                (recordFirst ? recordedCapture : bareCapture).add(firstCapture);
                (recordFirst ? bareCapture : recordedCapture).add(secondCapture);
                (recordFirst ? recorded : bare).add(first);
                (recordFirst ? bare : recorded).add(second);
                (recordFirst ? recordedCpu : bareCpu).add((cpu1 - cpu0) / 1_000_000);
                (recordFirst ? bareCpu : recordedCpu).add((cpu2 - cpu1) / 1_000_000);
            }
        }
        System.out.println("qps " + qps + ", " + rounds + " alternating rounds after " + WARMUP_ROUNDS + " warm-up rounds");
        print("wall", recorded, bare);
        print("CPU", recordedCpu, bareCpu);
        print("capture threads' CPU (0.1 ms units)", recordedCapture, bareCapture);
    }

    private static void print(String what, List<Long> recorded, List<Long> bare) {
        Collections.sort(recorded);
        Collections.sort(bare);
        long r = recorded.get(recorded.size() / 2);
        long b = bare.get(bare.size() / 2);
        System.out.println(what + " recorded ms: " + recorded);
        System.out.println(what + " bare ms    : " + bare);
        System.out.printf("median %s recorded %d ms, bare %d ms: recording adds %.1f%% (%.2fx)%n", what, r, b,
                100.0 * (r - b) / b, (double) r / b);
    }

    /** CPU time of every thread of this process so far (-1 where the JVM cannot tell). */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }
}
