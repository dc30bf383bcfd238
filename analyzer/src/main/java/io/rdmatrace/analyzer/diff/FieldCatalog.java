package io.rdmatrace.analyzer.diff;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.AttrMeaning;

/**
 * The field names {@code --ignore} understands: every attribute column of the trace dictionary
 * ({@code max_send_wr}, {@code wc_status}, {@code fw_ver} …; {@code in_X}/{@code out_X} for one
 * side of a call only), {@code ret}, {@code errno}, {@code verdict}, {@code latency}, and the
 * group names below. The groups in {@link #DEFAULT_IGNORED} differ between any two runs by
 * design and are never compared.
 */
public final class FieldCatalog {
    /** Fields that are different on every run; ignored unless a future option asks for them. */
    public static final Map<String, List<String>> GROUPS = groups();
    public static final List<String> DEFAULT_IGNORED_GROUPS = List.of("psns", "qpns", "keys", "addresses", "gids", "text");

    /** Not attribute columns but comparable all the same. */
    static final List<String> SPECIAL = List.of("ret", "errno", "verdict", "latency");

    private FieldCatalog() {
    }

    private static Map<String, List<String>> groups() {
        Map<String, List<String>> g = new LinkedHashMap<>();
        g.put("psns", columns(AttrMeaning.PSN));
        g.put("qpns", columns(AttrMeaning.QPN));
        g.put("keys", columns(AttrMeaning.KEY));
        // user-space pointers: buffer addresses and the verbs objects' handles
        g.put("addresses", columns(AttrMeaning.ADDRESS, AttrMeaning.HANDLE));
        g.put("gids", columns(AttrMeaning.GID, AttrMeaning.GUID));
        // free text (poll-loop summaries, error messages) and measured spans
        g.put("text", columns(AttrMeaning.TEXT, AttrMeaning.MEASUREMENT));
        return g;
    }

    /** The columns of the attributes with these meanings ({@link Attr#meaning()}), meaning by meaning. */
    private static List<String> columns(AttrMeaning... meanings) {
        List<String> columns = new ArrayList<>();
        for (AttrMeaning m : meanings) {
            for (Attr a : Attr.values()) {
                if (a.meaning() == m) {
                    columns.add(a.column());
                }
            }
        }
        return List.copyOf(columns);
    }

    /** The fields ignored when the user asks for nothing more. */
    public static Set<String> defaultIgnored() {
        Set<String> fields = new LinkedHashSet<>();
        for (String group : DEFAULT_IGNORED_GROUPS) {
            fields.addAll(GROUPS.get(group));
        }
        return fields;
    }

    /**
     * The field names one {@code --ignore} word stands for (a group expands to its members).
     *
     * @throws IllegalArgumentException for a name that is no field, with the closest ones
     */
    public static List<String> resolve(String word) {
        String name = word.strip().toLowerCase(Locale.ROOT);
        if (GROUPS.containsKey(name)) {
            return GROUPS.get(name);
        }
        if (isField(name)) {
            return List.of(name);
        }
        throw new IllegalArgumentException("unknown field '" + word + "' for --ignore" + suggestions(name)
                + " (fields are attribute names such as max_send_wr, wc_status, vendor_err, fw_ver, optionally in_/out_"
                + " prefixed, or ret, errno, verdict, latency, or a group: " + String.join(", ", GROUPS.keySet()) + ")");
    }

    /** True when {@code key} (an {@link Observation} value name such as {@code out.max_send_wr}) is ignored. */
    static boolean ignored(Set<String> ignored, String key) {
        if (ignored.contains(key)) {
            return true;
        }
        int dot = key.indexOf('.');
        if (dot < 0) {
            return false;
        }
        // "in.max_send_wr" is ignored by "max_send_wr" and by "in_max_send_wr"
        return ignored.contains(key.substring(dot + 1)) || ignored.contains(key.replace('.', '_'));
    }

    private static boolean isField(String name) {
        if (SPECIAL.contains(name)) {
            return true;
        }
        String bare = name.startsWith("in_") ? name.substring(3) : name.startsWith("out_") ? name.substring(4) : name;
        for (Attr attr : Attr.values()) {
            if (attr.column().equals(bare) || attr.column().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static String suggestions(String name) {
        Set<String> close = new TreeSet<>();
        for (Attr attr : Attr.values()) {
            if (attr.column().contains(name) || name.contains(attr.column()) || distance(attr.column(), name) <= 2) {
                close.add(attr.column());
            }
        }
        for (String s : SPECIAL) {
            if (distance(s, name) <= 2) {
                close.add(s);
            }
        }
        for (String g : GROUPS.keySet()) {
            if (distance(g, name) <= 2) {
                close.add(g);
            }
        }
        return close.isEmpty() ? "" : "; did you mean " + String.join(", ", close.stream().limit(5).toList()) + "?";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
