package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.rdmatrace.capture.replay.Divergence.Kind;

/**
 * Collects one host's divergences and tells departures from their consequences: a divergence
 * that changes what an object is (a create or modify that now fails or succeeds, a different
 * QP state, a different completion) marks that object, and later divergences on a marked object
 * are consequences of the first. The same difference seen again on the same object (a granted
 * cap that every query repeats) is folded into its first report.
 */
final class DivergenceLog {
    private final String host;
    private final List<Divergence> divergences = new ArrayList<>();
    private final Map<String, Integer> byIdentity = new HashMap<>();
    private final Map<Long, Long> markedBy = new HashMap<>();

    DivergenceLog(String host) {
        this.host = host;
    }

    /**
     * Reports a divergence about the object with recorded handle {@code object} (0 = none).
     *
     * @param marks true when it changes what the object is, so later divergences on it follow from it
     */
    void report(long object, long seq, String step, String verb, Kind kind, String field, String recorded,
                String replayed, String message, boolean marks) {
        String identity = kind == Kind.VALUE ? object + "|" + field + "|" + recorded + "|" + replayed : null;
        if (identity != null && byIdentity.containsKey(identity)) {
            int i = byIdentity.get(identity);
            divergences.set(i, divergences.get(i).withRepeat(seq));
            return;
        }
        Long cause = object != 0 ? markedBy.get(object) : null;
        if (cause != null && cause == seq) {
            cause = null; // another field of the same call: part of the same departure
        }
        divergences.add(new Divergence(host, seq, step, verb, kind, field, recorded, replayed, message, cause, List.of()));
        if (identity != null) {
            byIdentity.put(identity, divergences.size() - 1);
        }
        if (marks && object != 0) {
            markedBy.putIfAbsent(object, cause != null ? cause : seq);
        }
    }

    /** The departure an object's behaviour follows from, or null while it behaves as recorded. */
    Long causeOf(long object) {
        return markedBy.get(object);
    }

    List<Divergence> all() {
        return List.copyOf(divergences);
    }
}
