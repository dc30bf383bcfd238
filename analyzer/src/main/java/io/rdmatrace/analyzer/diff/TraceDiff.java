package io.rdmatrace.analyzer.diff;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compares two captures: pairs their hosts by role (listen/connect) or, when a capture does not
 * record roles, by host order; gives every observation a {@link Site}; compares the fields at
 * each site and groups equal differences; judges call latencies per verb.
 */
public final class TraceDiff {
    /** Device facts that name the device rather than describe what it can do. */
    private static final Set<String> IDENTITY_FIELDS = Set.of("fw_ver", "vendor_id", "vendor_part_id", "hw_ver",
            "dev_name", "node_type");

    /** Capture options that say where (peer endpoint, output folder, host name), not how: they differ between any two runs. */
    private static final Set<String> WHERE_OPTIONS = Set.of("--listen", "--connect", "--out", "--host-id", "--token");

    private final DiffOptions options;
    private final Map<GroupKey, List<Difference.Where>> groups = new LinkedHashMap<>();
    private final List<LatencyComparison> latency = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private TraceDiff(DiffOptions options) {
        this.options = options;
    }

    private record GroupKey(DiffCategory category, String role, String what, String field, String a, String b) {
    }

    public static DiffReport compare(String labelA, List<HostEvents> a, String labelB, List<HostEvents> b,
                                     DiffOptions options) {
        Objects.requireNonNull(options, "options");
        TraceDiff diff = new TraceDiff(options);
        List<HostEvents> readableA = diff.readable("A", a);
        List<HostEvents> readableB = diff.readable("B", b);
        boolean byRole = rolesUsable(readableA) && rolesUsable(readableB);
        List<HostPair> pairs = byRole ? pairByRole(readableA, readableB) : pairByOrder(readableA, readableB);
        for (HostPair pair : pairs) {
            HostEvents ha = find(readableA, pair.hostA());
            HostEvents hb = find(readableB, pair.hostB());
            if (ha == null || hb == null) {
                diff.unmatched(pair, ha, hb);
                continue;
            }
            diff.compareHosts(pair.role(), ha, hb);
        }
        List<Difference> differences = new ArrayList<>();
        diff.groups.forEach((k, where) -> differences.add(new Difference(k.category(), k.role(), k.what(), k.field(),
                k.a(), k.b(), where)));
        differences.sort(Comparator.comparing(Difference::category)); // stable: trace order within a category
        return new DiffReport(labelA, labelB, pairs, byRole ? "role" : "host order", differences, diff.latency,
                diff.notes, options);
    }

    private List<HostEvents> readable(String side, List<HostEvents> hosts) {
        List<HostEvents> readable = new ArrayList<>();
        for (HostEvents h : hosts) {
            if (h.readable()) {
                readable.add(h);
                if (!h.status().equals("CLEAN")) {
                    notes.add(side + ": host " + h.host() + " is " + h.status() + " (" + h.detail() + ")");
                }
            } else {
                notes.add(side + ": host folder " + h.host() + " was not loaded: " + h.status() + " (" + h.detail() + ")");
            }
        }
        return readable;
    }

    /** Every host has a role and no two share one. */
    private static boolean rolesUsable(List<HostEvents> hosts) {
        Set<String> roles = new HashSet<>();
        for (HostEvents h : hosts) {
            if (h.role() == null || !roles.add(h.role())) {
                return false;
            }
        }
        return true;
    }

    private static List<HostPair> pairByRole(List<HostEvents> a, List<HostEvents> b) {
        Set<String> roles = new LinkedHashSet<>();
        // listen first, as people read a bring-up
        a.stream().map(HostEvents::role).sorted(Comparator.reverseOrder()).forEach(roles::add);
        b.stream().map(HostEvents::role).sorted(Comparator.reverseOrder()).forEach(roles::add);
        List<HostPair> pairs = new ArrayList<>();
        for (String role : roles) {
            pairs.add(new HostPair(role, hostWithRole(a, role), hostWithRole(b, role)));
        }
        return pairs;
    }

    private static String hostWithRole(List<HostEvents> hosts, String role) {
        return hosts.stream().filter(h -> role.equals(h.role())).map(HostEvents::host).findFirst().orElse(null);
    }

    private static List<HostPair> pairByOrder(List<HostEvents> a, List<HostEvents> b) {
        List<HostPair> pairs = new ArrayList<>();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            pairs.add(new HostPair("host#" + (i + 1), i < a.size() ? a.get(i).host() : null,
                    i < b.size() ? b.get(i).host() : null));
        }
        return pairs;
    }

    private static HostEvents find(List<HostEvents> hosts, String host) {
        return host == null ? null : hosts.stream().filter(h -> h.host().equals(host)).findFirst().orElse(null);
    }

    private void unmatched(HostPair pair, HostEvents a, HostEvents b) {
        String only = a != null ? "A" : "B";
        String host = a != null ? a.host() : b.host();
        add(new GroupKey(DiffCategory.MISSING, pair.role(), "host", "presence", a != null ? "present" : "absent",
                b != null ? "present" : "absent"), new Difference.Where(new Site(pair.role(), "session", host, "host", 1),
                -1, -1, "only capture " + only + " has a host with this role"));
    }

    private void compareHosts(String role, HostEvents a, HostEvents b) {
        if (!a.scenario().equals(b.scenario())) {
            notes.add(role + ": the scenarios differ: A ran '" + a.scenario() + "', B ran '" + b.scenario() + "'");
        }
        overrideNotes(role, a, b);
        HostSites sitesA = SiteBuilder.build(a, role, options);
        HostSites sitesB = SiteBuilder.build(b, role, options);
        Map<Site, Observation> inB = sitesB.bySite();
        for (Observation oa : sitesA.observations()) {
            Observation ob = inB.remove(oa.site());
            if (ob == null) {
                missing(oa, true);
            } else {
                compareValues(oa, ob);
            }
        }
        for (Observation ob : inB.values()) {
            missing(ob, false);
        }
        if (options.comparesLatency()) {
            for (Map.Entry<String, long[]> e : sitesA.durations().entrySet()) {
                long[] other = sitesB.durations().get(e.getKey());
                if (other != null) {
                    latency.add(LatencyComparison.judge(role, e.getKey(), e.getValue(), other, options));
                }
            }
        }
    }

    private void overrideNotes(String role, HostEvents a, HostEvents b) {
        Set<String> names = new LinkedHashSet<>(a.overrides().keySet());
        names.addAll(b.overrides().keySet());
        List<String> differing = new ArrayList<>();
        for (String name : names) {
            if (WHERE_OPTIONS.contains(name)) {
                continue;
            }
            if (!Objects.equals(a.overrides().get(name), b.overrides().get(name))) {
                differing.add(name);
            }
        }
        if (!differing.isEmpty()) {
            notes.add(role + ": the captures ran with different options: " + String.join(", ", differing));
        }
    }

    private void compareValues(Observation a, Observation b) {
        Set<String> keys = new LinkedHashSet<>(a.values().keySet());
        keys.addAll(b.values().keySet());
        Difference.Where where = new Difference.Where(a.site(), a.seq(), b.seq(),
                a.detail().equals(b.detail()) ? a.detail() : a.detail() + " / " + b.detail());
        for (String key : keys) {
            if (options.ignores(key)) {
                continue;
            }
            if (a.kind() == SiteKind.COMPLETION && !(a.values().containsKey(key) && b.values().containsKey(key))) {
                continue; // a field the verbs API leaves undefined on the error side; the status tells the story
            }
            String va = a.values().getOrDefault(key, "absent");
            String vb = b.values().getOrDefault(key, "absent");
            if (!va.equals(vb)) {
                add(new GroupKey(category(a.kind(), key), a.site().role(), a.site().what(), key, va, vb), where);
            }
        }
    }

    private void missing(Observation o, boolean inA) {
        DiffCategory category = switch (o.kind()) {
            case DEVICE, PORT -> DiffCategory.DEVICE;
            case CALL -> DiffCategory.MISSING;
            case COMPLETION -> DiffCategory.COMPLETION;
            case ASYNC -> DiffCategory.ASYNC;
            case VERDICT -> DiffCategory.VERDICT;
        };
        String detail = o.kind() == SiteKind.VERDICT ? o.values().get("verdict") + ": " + o.detail() : o.detail();
        add(new GroupKey(category, o.site().role(), o.site().what(), "presence", inA ? "present" : "absent",
                inA ? "absent" : "present"), new Difference.Where(o.site(), inA ? o.seq() : -1, inA ? -1 : o.seq(), detail));
    }

    private static DiffCategory category(SiteKind kind, String key) {
        return switch (kind) {
            case DEVICE -> IDENTITY_FIELDS.contains(key) ? DiffCategory.IDENTITY : DiffCategory.DEVICE;
            case PORT -> DiffCategory.DEVICE;
            case CALL -> key.equals("ret") || key.equals("errno") ? DiffCategory.RETURN
                    : key.startsWith("in.") ? DiffCategory.INPUT
                    : IDENTITY_FIELDS.contains(key.substring(key.indexOf('.') + 1)) ? DiffCategory.IDENTITY
                    : DiffCategory.RETURNED;
            case COMPLETION -> DiffCategory.COMPLETION;
            case ASYNC -> DiffCategory.ASYNC;
            case VERDICT -> DiffCategory.VERDICT;
        };
    }

    private void add(GroupKey key, Difference.Where where) {
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(where);
    }
}
