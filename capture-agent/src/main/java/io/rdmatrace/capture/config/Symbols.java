package io.rdmatrace.capture.config;

import io.rdmatrace.trace.names.ValueNames;
import java.util.Locale;
import java.util.Map;

/**
 * Parses the libibverbs constant names people type on the command line or in a scenario file, against
 * the same name tables the trace renders with: {@code RTS}, {@code ibv_qps_rts}, {@code IBV_QPS_RTS} and
 * {@code 3} are one value; flag lists take {@code ,} or {@code |} and dashes for underscores
 * ({@code local-write,remote-read}); {@code none} or {@code 0} is the empty set.
 */
public final class Symbols {
    private Symbols() {
    }

    /** One value of a C enum, by (suffix of its) name or by number. */
    public static long parseEnum(ValueNames table, String text) {
        String t = text.trim();
        Long number = parseNumber(t);
        if (number != null) {
            return number;
        }
        Long found = lookup(table, t);
        if (found == null) {
            throw new IllegalArgumentException("unknown " + table.title() + " value '" + text + "'; one of "
                    + String.join(", ", table.entries().values()));
        }
        return found;
    }

    /** A set of flags: names joined by , or |, or a number. */
    public static long parseFlags(ValueNames table, String text) {
        String t = text.trim();
        if (t.isEmpty() || t.equalsIgnoreCase("none")) {
            return 0;
        }
        long value = 0;
        for (String part : t.split("[,|+]")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            Long number = parseNumber(p);
            Long bit = number != null ? number : lookup(table, p);
            if (bit == null) {
                throw new IllegalArgumentException("unknown " + table.title() + " flag '" + p + "'; known: "
                        + String.join(", ", table.entries().values()));
            }
            value |= bit;
        }
        return value;
    }

    private static Long lookup(ValueNames table, String text) {
        String want = text.toUpperCase(Locale.ROOT).replace('-', '_');
        for (Map.Entry<Long, String> e : table.entries().entrySet()) {
            String name = e.getValue();
            // match the full name or the part after the IBV_XXX_ prefix (IBV_QPS_RTS ← RTS, IBV_ACCESS_LOCAL_WRITE ← LOCAL_WRITE)
            if (name.equals(want) || name.endsWith("_" + want) && prefixLength(name) == name.length() - want.length()) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Length of "IBV_QPS_" in "IBV_QPS_RTS": the constant's family prefix. */
    private static int prefixLength(String name) {
        int first = name.indexOf('_');
        int second = first < 0 ? -1 : name.indexOf('_', first + 1);
        return second < 0 ? 0 : second + 1;
    }

    /** Decimal or 0x-hex, or null when the text is not a number. */
    public static Long parseNumber(String t) {
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            if (!t.isEmpty() && (Character.isDigit(t.charAt(0)) || t.charAt(0) == '-' && t.length() > 1)) {
                return Long.parseLong(t);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }
}
