package io.rdmatrace.analyzer.rule;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rdmatrace.analyzer.Role;
import io.rdmatrace.analyzer.Severity;

/**
 * Reads one rule file: a header of {@code -- key: value} comment lines (continuation lines are
 * further comment lines without a key), then one SELECT. See rules/README.md "Rule files".
 */
public final class RuleParser {
    /** The header keys, all required, in the order they are written. */
    static final List<String> KEYS = List.of("id", "severity", "title", "explanation", "fix");
    /** Header keys that may be left out: {@code role} (default: cause), {@code when} (default: always run). */
    static final List<String> OPTIONAL_KEYS = List.of("role", "when");
    private static final Pattern KEY_LINE = Pattern.compile("^([a-z]+):\\s?(.*)$");
    private static final Pattern ID = Pattern.compile("^[a-z0-9]+(-[a-z0-9]+)*$");
    private static final Pattern FIRST_WORD = Pattern.compile("^\\s*(\\w+)");

    private RuleParser() {
    }

    /**
     * @param fileName the file's name, e.g. {@code psn-misaligned.sql}; the id must match it
     * @param text     the whole file
     * @param origin   recorded in the rule for messages
     */
    public static Rule parse(String fileName, String text, String origin) throws RuleFormatException {
        Map<String, StringBuilder> header = new LinkedHashMap<>();
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        String currentKey = null;
        int bodyStart = lines.length;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                currentKey = null;
                continue;
            }
            if (!line.startsWith("--")) {
                bodyStart = i;
                break;
            }
            String comment = line.substring(2).strip();
            Matcher key = KEY_LINE.matcher(comment);
            if (key.matches() && (KEYS.contains(key.group(1)) || OPTIONAL_KEYS.contains(key.group(1)))) {
                currentKey = key.group(1);
                if (header.containsKey(currentKey)) {
                    throw new RuleFormatException("header key '" + currentKey + "' appears twice");
                }
                header.put(currentKey, new StringBuilder(key.group(2).strip()));
            } else if (key.matches() && currentKey == null && header.isEmpty()) {
                throw new RuleFormatException("unknown header key '" + key.group(1) + "' (expected " + String.join(", ", KEYS) + ")");
            } else if (currentKey != null) {
                appendContinuation(header.get(currentKey), comment);
            }
            // a comment line before the header or after a blank line is a free comment
        }
        for (String required : KEYS) {
            if (!header.containsKey(required) || header.get(required).length() == 0) {
                throw new RuleFormatException("header lacks '-- " + required + ": ...'");
            }
        }
        String id = header.get("id").toString();
        String expectedId = fileName.endsWith(".sql") ? fileName.substring(0, fileName.length() - 4) : fileName;
        if (!ID.matcher(id).matches()) {
            throw new RuleFormatException("id '" + id + "' must be lowercase words joined by '-'");
        }
        if (!id.equals(expectedId)) {
            throw new RuleFormatException("id '" + id + "' does not match the file name '" + fileName + "'");
        }
        Severity severity;
        try {
            severity = Severity.parse(header.get("severity").toString());
        } catch (IllegalArgumentException e) {
            throw new RuleFormatException(e.getMessage());
        }
        Role role = Role.CAUSE;
        if (header.containsKey("role")) {
            try {
                role = Role.parse(header.get("role").toString());
            } catch (IllegalArgumentException e) {
                throw new RuleFormatException(e.getMessage());
            }
        }
        String body = body(lines, bodyStart);
        String when = "";
        if (header.containsKey("when")) {
            when = header.get("when").toString().strip();
            if (!isOneSelect(when)) {
                throw new RuleFormatException("'-- when:' must be one SELECT (or WITH ... SELECT) without ';', found '" + when + "'");
            }
        }
        return new Rule(id, severity, role, header.get("title").toString(), header.get("explanation").toString(),
                header.get("fix").toString(), body, when, origin);
    }

    private static void appendContinuation(StringBuilder value, String comment) {
        if (comment.isEmpty()) {
            value.append('\n');
        } else if (value.length() == 0 || value.charAt(value.length() - 1) == '\n') {
            value.append(comment);
        } else {
            value.append(' ').append(comment);
        }
    }

    private static boolean isOneSelect(String sql) {
        Matcher first = FIRST_WORD.matcher(sql);
        String word = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        return (word.equals("SELECT") || word.equals("WITH") || word.equals("FROM")) && !sql.contains(";");
    }

    private static String body(String[] lines, int start) throws RuleFormatException {
        String body = String.join("\n", List.of(lines).subList(start, lines.length)).strip();
        while (body.endsWith(";")) {
            body = body.substring(0, body.length() - 1).strip();
        }
        if (body.isEmpty()) {
            throw new RuleFormatException("no SELECT after the header");
        }
        Matcher first = FIRST_WORD.matcher(body);
        String word = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        if (!word.equals("SELECT") && !word.equals("WITH") && !word.equals("FROM")) {
            throw new RuleFormatException("the body must be one SELECT (or WITH ... SELECT), found '" + word + "'");
        }
        if (body.contains(";")) {
            // a ';' inside a string literal is legal SQL, so only refuse a ';' that ends a line
            for (String line : body.split("\n")) {
                if (line.strip().endsWith(";") && !line.strip().startsWith("--")) {
                    throw new RuleFormatException("the body must be a single statement (found ';' before its end)");
                }
            }
        }
        return body;
    }
}
