package io.rdmatrace.analyzer.export;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Pseudonymises user-space virtual addresses (buffers, SGEs, exchanged remote addresses) and
 * object handles while keeping what rules compare: every address the trace mentions is put in a
 * span (an MR, an SGE, an advertised buffer, or the address alone), spans closer than
 * {@link #MERGE_GAP} are merged, and each span moves as a whole to a pseudo base that keeps its
 * offset within a 4 KiB page. So an SGE stays inside its MR, a remote address stays at the same
 * offset (or the same distance out of bounds) of the peer's buffer, and alignment up to 4 KiB is
 * unchanged; only where the spans are is hidden.
 *
 * <p>Values below {@link #MIN_ADDRESS} are no user-space pointers (Linux refuses to map below
 * vm.mmap_min_addr, 64 KiB by default) and stay as they are, like port numbers in an async
 * event's element.
 */
final class AddressSpans {
    static final long MIN_ADDRESS = 0x10000;
    /** Addresses this close keep their distance (an SGE just past its MR stays just past it). */
    static final long MERGE_GAP = 1L << 20;
    /** Pseudo spans live in [BASE, BASE + 2^44): canonical user-space addresses, 4 KiB slots. */
    private static final long BASE = 0x2000_0000_0000L;
    private static final long SLOTS = 1L << 32;
    private static final int MAX_ATTEMPTS = 1 << 20;

    /** The HMAC of {@link Pseudonyms}. */
    interface Bits {
        long of(String category, long value, int attempt);
    }

    private record Span(long lo, long hi, long pseudoLo) {
    }

    private final TreeMap<Long, Span> byLo = new TreeMap<>(Long::compareUnsigned);
    /** pseudo lo → pseudo hi, to keep pseudo spans apart */
    private final TreeMap<Long, Long> pseudo = new TreeMap<>();
    private final Map<Long, Long> extra = new HashMap<>();
    /** span starts made for values no region mentioned */
    private final Set<Long> strays = new HashSet<>();
    private final TreeMap<Long, Long> originals = new TreeMap<>(Long::compareUnsigned);
    private final Bits bits;
    private final int regionCount;

    /**
     * @param regions   (address, length) pairs; a length of 0 is a lone address
     * @param originals every original sensitive number, none of which a pseudonym may equal
     */
    AddressSpans(List<long[]> regions, Set<Long> originals, Bits bits) {
        this.bits = bits;
        for (long o : originals) {
            this.originals.put(o, o);
        }
        List<long[]> sorted = new ArrayList<>();
        for (long[] r : regions) {
            if (isAddress(r[0])) {
                long end = r[0] + Math.max(0, r[1]);
                sorted.add(new long[] {r[0], Long.compareUnsigned(end, r[0]) < 0 ? -1L : end});
            }
        }
        sorted.sort(Comparator.comparing((long[] r) -> r[0], Long::compareUnsigned));
        List<long[]> merged = new ArrayList<>();
        for (long[] r : sorted) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && Long.compareUnsigned(r[0], saturatingAdd(last[1], MERGE_GAP)) <= 0) {
                if (Long.compareUnsigned(r[1], last[1]) > 0) {
                    last[1] = r[1];
                }
            } else {
                merged.add(new long[] {r[0], r[1]});
            }
        }
        for (long[] span : merged) {
            place(span[0], span[1]);
        }
        this.regionCount = merged.size();
    }

    static boolean isAddress(long value) {
        return Long.compareUnsigned(value, MIN_ADDRESS) >= 0;
    }

    /** The pseudonym of an address; a value no region mentioned gets a span of its own. */
    long map(long value) {
        if (!isAddress(value)) {
            return value;
        }
        Map.Entry<Long, Span> e = byLo.floorEntry(value);
        if (e != null && Long.compareUnsigned(value, e.getValue().hi()) <= 0) {
            return e.getValue().pseudoLo() + (value - e.getValue().lo());
        }
        return extra.computeIfAbsent(value, v -> {
            strays.add(v);
            return place(v, v).pseudoLo();
        });
    }

    /** True when the value lies in a span the trace's own regions made (not one made for a stray value). */
    boolean covers(long value) {
        Map.Entry<Long, Span> e = byLo.floorEntry(value);
        return isAddress(value) && e != null && Long.compareUnsigned(value, e.getValue().hi()) <= 0
                && !strays.contains(e.getKey());
    }

    /** Spans found in the trace (after merging). */
    int spanCount() {
        return regionCount;
    }

    private Span place(long lo, long hi) {
        long length = hi - lo;
        if (Long.compareUnsigned(length, SLOTS << 11) > 0) {
            length = SLOTS << 11; // a span larger than half the pseudo area cannot be: clamp (offsets past it still differ)
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            long slot = Math.floorMod(bits.of("address", lo, attempt), SLOTS);
            long candidate = BASE + (slot << 12) + (lo & 0xfff);
            long candidateHi = candidate + length;
            if (candidateHi >= BASE + (SLOTS << 12) || overlapsPseudo(candidate, candidateHi)
                    || holdsOriginal(candidate, candidateHi)) {
                continue;
            }
            Span span = new Span(lo, lo + length, candidate);
            byLo.put(lo, span);
            pseudo.put(candidate, candidateHi);
            return span;
        }
        throw new IllegalStateException("no free pseudo address span");
    }

    private boolean overlapsPseudo(long lo, long hi) {
        Map.Entry<Long, Long> before = pseudo.floorEntry(hi);
        return before != null && before.getValue() >= lo;
    }

    private boolean holdsOriginal(long lo, long hi) {
        Long o = originals.ceilingKey(lo);
        return o != null && Long.compareUnsigned(o, hi) <= 0;
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return Long.compareUnsigned(sum, a) < 0 ? -1L : sum;
    }
}
