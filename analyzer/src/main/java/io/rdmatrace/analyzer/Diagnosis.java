package io.rdmatrace.analyzer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The findings arranged for a person: causes first, each with the consequences that follow
 * from it; consequences no cause explains; and expected findings (a deliberate probe's) apart.
 *
 * <p>A consequence follows from a cause (of warning or error severity) when both are about the
 * same QP, or about the two QPs of one connection, or share an evidence event; a consequence
 * about no QP (a failed step of a host) follows from the causes on its host and on the hosts it
 * has a connection with. An aftermath (a leak at exit) is never a cause of anything: it is listed
 * after the causes and is the root cause only when nothing failed and nothing else is wrong.
 */
public final class Diagnosis {
    private final List<Finding> causes;
    private final List<Finding> unexplained;
    private final List<Finding> expected;
    private final Map<Finding, List<Finding>> causesOf;
    private final Map<Finding, List<Finding>> consequencesOf;

    private Diagnosis(List<Finding> causes, List<Finding> unexplained, List<Finding> expected,
            Map<Finding, List<Finding>> causesOf, Map<Finding, List<Finding>> consequencesOf) {
        this.causes = causes;
        this.unexplained = unexplained;
        this.expected = expected;
        this.causesOf = causesOf;
        this.consequencesOf = consequencesOf;
    }

    /** Arranges {@code findings} (most severe first) using the connections to pair QPs. */
    public static Diagnosis of(List<Finding> findings, List<ConnectionSummary> connections) {
        Map<QpKey, QpKey> peers = new java.util.HashMap<>();
        Set<String> hostPairs = new HashSet<>();
        for (ConnectionSummary c : connections) {
            hostPairs.add(c.hostA() + "\n" + c.hostB());
            hostPairs.add(c.hostB() + "\n" + c.hostA());
            peers.put(new QpKey(c.hostA(), c.qpA()), new QpKey(c.hostB(), c.qpB()));
            peers.put(new QpKey(c.hostB(), c.qpB()), new QpKey(c.hostA(), c.qpA()));
        }
        List<Finding> candidates = new ArrayList<>();
        List<Finding> consequences = new ArrayList<>();
        List<Finding> expected = new ArrayList<>();
        List<Finding> causes = new ArrayList<>();
        for (Finding f : findings) {
            if (f.expected()) {
                expected.add(f);
            } else if (f.role() == Role.CONSEQUENCE) {
                consequences.add(f);
            } else {
                causes.add(f);
                if (f.severity().atLeast(Severity.WARNING) && f.role() == Role.CAUSE) {
                    candidates.add(f);
                }
            }
        }
        Map<Finding, List<Finding>> causesOf = new IdentityHashMap<>();
        Map<Finding, List<Finding>> consequencesOf = new IdentityHashMap<>();
        List<Finding> unexplained = new ArrayList<>();
        for (Finding consequence : consequences) {
            List<Finding> found = new ArrayList<>();
            for (Finding cause : candidates) {
                if (follows(consequence, cause, peers, hostPairs)) {
                    found.add(cause);
                    consequencesOf.computeIfAbsent(cause, k -> new ArrayList<>()).add(consequence);
                }
            }
            if (found.isEmpty()) {
                unexplained.add(consequence);
            } else {
                causesOf.put(consequence, List.copyOf(found));
            }
        }
        // a cause's own QP's failures first, then its peer's
        for (Map.Entry<Finding, List<Finding>> entry : consequencesOf.entrySet()) {
            Finding cause = entry.getKey();
            entry.getValue().sort(Comparator.comparing((Finding f) -> !Objects.equals(f.host(), cause.host()))
                    .thenComparing(Finding::severity));
        }
        // causes before aftermaths; most severe first; among equals, the cause that explains most comes first
        List<Finding> ordered = new ArrayList<>(causes);
        ordered.sort(Comparator.comparing((Finding f) -> f.role() == Role.AFTERMATH).thenComparing(Finding::severity)
                .thenComparing(f -> -consequencesOf.getOrDefault(f, List.of()).size()));
        return new Diagnosis(List.copyOf(ordered), List.copyOf(unexplained), List.copyOf(expected), causesOf,
                consequencesOf);
    }

    private static boolean follows(Finding consequence, Finding cause, Map<QpKey, QpKey> peers, Set<String> hostPairs) {
        Set<Evidence> shared = new HashSet<>(consequence.evidence());
        if (cause.evidence().stream().anyMatch(shared::contains)) {
            return true;
        }
        if (consequence.host() == null || cause.host() == null) {
            return false;
        }
        if (consequence.qp() == null) {
            return consequence.host().equals(cause.host()) || hostPairs.contains(consequence.host() + "\n" + cause.host());
        }
        if (cause.qp() == null) {
            return false;
        }
        QpKey at = new QpKey(consequence.host(), consequence.qp());
        QpKey from = new QpKey(cause.host(), cause.qp());
        return at.equals(from) || from.equals(peers.get(at));
    }

    /** Causes, most severe first (expected findings excluded). */
    public List<Finding> causes() {
        return causes;
    }

    /** Consequences no cause in the trace explains. */
    public List<Finding> unexplained() {
        return unexplained;
    }

    /** Findings a deliberate probe was expected to produce. */
    public List<Finding> expected() {
        return expected;
    }

    /** The causes a consequence follows from (empty for causes and unexplained consequences). */
    public List<Finding> causesOf(Finding consequence) {
        return causesOf.getOrDefault(consequence, List.of());
    }

    /** The consequences that follow from a cause. */
    public List<Finding> consequencesOf(Finding cause) {
        return Collections.unmodifiableList(consequencesOf.getOrDefault(cause, List.of()));
    }

    /**
     * The root cause, when the trace has one: the first cause of error severity or that explains a
     * consequence; when nothing failed (no consequence), the first warning, an aftermath last. A
     * failure no cause explains is not blamed on an unrelated warning.
     */
    public Optional<Finding> rootCause() {
        Optional<Finding> explaining = causes.stream().filter(f -> f.role() == Role.CAUSE)
                .filter(f -> f.severity() == Severity.ERROR || !consequencesOf(f).isEmpty()).findFirst();
        if (explaining.isPresent() || !unexplained.isEmpty()) {
            return explaining;
        }
        return causes.stream().filter(f -> f.severity().atLeast(Severity.WARNING)).findFirst();
    }

    /** Every finding in report order, the expected ones last: causes before their consequences. */
    public List<Finding> ordered() {
        List<Finding> all = new ArrayList<>(inReportOrder());
        all.addAll(expected);
        return all;
    }

    /** Findings in report order: each cause then its consequences, then the unexplained ones. */
    public List<Finding> inReportOrder() {
        List<Finding> order = new ArrayList<>();
        Set<Finding> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Finding cause : causes) {
            order.add(cause);
            for (Finding consequence : consequencesOf(cause)) {
                if (seen.add(consequence)) {
                    order.add(consequence);
                }
            }
        }
        order.addAll(unexplained);
        return order;
    }

    private record QpKey(String host, long qp) {
        QpKey {
            Objects.requireNonNull(host, "host");
        }
    }
}
