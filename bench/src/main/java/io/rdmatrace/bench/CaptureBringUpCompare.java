package io.rdmatrace.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What recording adds to a `--qps N` bring-up, measured by alternating recorded and bare runs in one
 * JVM (so load drift on a shared machine hits both alike); prints both sorted series and the medians.
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
        try (CaptureBringUpPair pair = new CaptureBringUpPair()) {
            for (int i = 0; i < WARMUP_ROUNDS; i++) {
                pair.run(qps, true);
                pair.run(qps, false);
            }
            for (int i = 0; i < rounds; i++) {
                boolean recordFirst = i % 2 == 0; // alternate the order too
                long first = pair.run(qps, recordFirst) / 1_000_000;
                long second = pair.run(qps, !recordFirst) / 1_000_000;
                (recordFirst ? recorded : bare).add(first);
                (recordFirst ? bare : recorded).add(second);
            }
        }
        Collections.sort(recorded);
        Collections.sort(bare);
        long r = recorded.get(recorded.size() / 2);
        long b = bare.get(bare.size() / 2);
        System.out.println("qps " + qps + ", " + rounds + " alternating rounds after " + WARMUP_ROUNDS + " warm-up rounds");
        System.out.println("recorded ms: " + recorded);
        System.out.println("bare ms    : " + bare);
        System.out.printf("median recorded %d ms, bare %d ms: recording adds %.1f%%%n", r, b, 100.0 * (r - b) / b);
    }
}
