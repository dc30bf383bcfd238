package io.rdmatrace.analyzer.show;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Events named on the command line the way findings print their evidence: {@code hostB#47}, or
 * a range {@code hostB#40-50} (both ends included).
 *
 * @param host  host id
 * @param first first seq
 * @param last  last seq (= first for one event)
 */
public record EventRef(String host, long first, long last) {
    private static final Pattern FORM = Pattern.compile("^(.+)#(\\d+)(?:-(\\d+))?$");
    /** The most events one range may name (a typo like #0-99999999 should not print a whole trace). */
    public static final long MAX_RANGE = 10_000;

    public EventRef {
        Objects.requireNonNull(host, "host");
        if (first < 0 || last < first) {
            throw new IllegalArgumentException("'" + host + "#" + first + "-" + last + "': the range must run from low to high");
        }
        if (last - first >= MAX_RANGE) {
            throw new IllegalArgumentException("'" + host + "#" + first + "-" + last + "' names more than " + MAX_RANGE
                    + " events; narrow the range");
        }
    }

    /** Parses {@code host#seq} or {@code host#first-last}. */
    public static EventRef parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not an event id: write HOST#SEQ (hostB#47) or HOST#FIRST-LAST (hostB#40-50)");
        }
        long first = Long.parseLong(m.group(2));
        long last = m.group(3) == null ? first : Long.parseLong(m.group(3));
        return new EventRef(m.group(1), first, last);
    }

    @Override
    public String toString() {
        return first == last ? host + "#" + first : host + "#" + first + "-" + last;
    }
}
