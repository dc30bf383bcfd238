package io.rdmatrace.analyzer.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The view scripts cut into single statements, each knowing the earlier statements it must follow:
 * those that create or fill a name it mentions, and those that mention a name it creates or fills
 * (so a reader never sees a table before or after the fill the file order gives it). Statements with
 * no such tie may run at once on separate connections: on a small trace each one's time is DuckDB
 * setting up operators on a few rows, one core each.
 */
final class ViewStatements {
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern CREATES = Pattern.compile(
            "^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMP(?:ORARY)?\\s+)?(?:TABLE|VIEW|MACRO|FUNCTION)\\s+"
                    + "(?:IF\\s+NOT\\s+EXISTS\\s+)?([A-Za-z_][A-Za-z0-9_]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern FILLS = Pattern.compile(
            "^\\s*(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|ALTER\\s+(?:TABLE|VIEW)|DROP\\s+(?:TABLE|VIEW|MACRO|FUNCTION))\\s+"
                    + "(?:IF\\s+EXISTS\\s+)?([A-Za-z_][A-Za-z0-9_]*)", Pattern.CASE_INSENSITIVE);
    /** A rename gives the table a second name the later statements use (the first is in FILLS). */
    private static final Pattern RENAMES = Pattern.compile(
            "^\\s*ALTER\\s+(?:TABLE|VIEW)\\s+(?:IF\\s+EXISTS\\s+)?[A-Za-z_][A-Za-z0-9_]*\\s+RENAME\\s+TO\\s+"
                    + "([A-Za-z_][A-Za-z0-9_]*)", Pattern.CASE_INSENSITIVE);

    /**
     * A view script's declaration of the scripts it reads from (Perfetto's {@code INCLUDE}), a line of its own
     * anywhere in the script: {@code -- needs: 10_hosts, 25_pairing} (names without {@code .sql}).
     */
    private static final Pattern NEEDS = Pattern.compile("^--\\s*needs:(.*)$", Pattern.MULTILINE);

    /**
     * One statement of a view script.
     *
     * @param file  the script it comes from (for error messages)
     * @param sql   the statement, without its terminating semicolon
     * @param needs indexes of the earlier statements it must follow
     */
    record Statement(String file, String sql, Set<Integer> needs) {
    }

    private ViewStatements() {
    }

    /** Every statement of {@code scripts} (file name to text, run in key order), with what each must follow. */
    static List<Statement> of(Map<String, String> scripts) {
        return of(scripts, null);
    }

    /**
     * The statements of {@code scripts} that {@code wantedNames} need: those that create or fill them, those that
     * create or fill a name any of those mentions, and so on, and every barrier before them; with what each must
     * follow among them. All of them when {@code wantedNames} is null.
     */
    static List<Statement> of(Map<String, String> scripts, Set<String> wantedNames) {
        List<String> files = new ArrayList<>();
        List<String> sqls = new ArrayList<>();
        for (Map.Entry<String, String> script : scripts.entrySet()) {
            for (String sql : split(script.getValue())) {
                files.add(script.getKey());
                sqls.add(sql);
            }
        }
        // a statement that creates or fills nothing the scripts name (a SET, say) is a barrier
        List<Set<String>> provides = new ArrayList<>();
        Set<String> defined = new HashSet<>();
        for (String sql : sqls) {
            Set<String> names = provided(sql);
            provides.add(names);
            defined.addAll(names);
        }
        List<Set<String>> mentions = new ArrayList<>();
        for (String sql : sqls) {
            Set<String> names = new HashSet<>(words(sql));
            names.retainAll(defined);
            mentions.add(names);
        }
        boolean[] kept = kept(provides, mentions, wantedNames);
        // index of each kept statement among the kept ones
        int[] position = new int[sqls.size()];
        List<Statement> statements = new ArrayList<>();
        for (int j = 0; j < sqls.size(); j++) {
            if (!kept[j]) {
                continue;
            }
            Set<Integer> needs = new HashSet<>();
            for (int i = 0; i < j; i++) {
                if (kept[i] && (provides.get(i).isEmpty() || provides.get(j).isEmpty()
                        || intersects(provides.get(i), mentions.get(j)) || intersects(mentions.get(i), provides.get(j)))) {
                    needs.add(position[i]);
                }
            }
            position[j] = statements.size();
            statements.add(new Statement(files.get(j), sqls.get(j), Set.copyOf(needs)));
        }
        return statements;
    }

    /**
     * Where the {@code -- needs:} lines of {@code scripts} differ from what their statements read: a script that
     * reads a name an earlier script creates or fills must name that script, and every script it names must be
     * one it reads from (the base and reference tables are no script's). Empty when every declaration is exact.
     */
    static List<String> undeclaredNeeds(Map<String, String> scripts) {
        List<String> files = new ArrayList<>();
        List<Set<String>> provides = new ArrayList<>();
        List<Set<String>> mentions = new ArrayList<>();
        Set<String> defined = new HashSet<>();
        for (Map.Entry<String, String> script : scripts.entrySet()) {
            for (String sql : split(script.getValue())) {
                files.add(script.getKey());
                Set<String> names = provided(sql);
                provides.add(names);
                defined.addAll(names);
                mentions.add(new HashSet<>(words(sql)));
            }
        }
        // per script, the earlier scripts it reads from: for each name a statement mentions, every other script
        // whose statements before it create or fill that name
        Map<String, Set<String>> reads = new java.util.LinkedHashMap<>();
        scripts.keySet().forEach(file -> reads.put(file, new java.util.TreeSet<>()));
        for (int j = 0; j < files.size(); j++) {
            Set<String> names = mentions.get(j);
            names.retainAll(defined);
            for (int i = 0; i < j; i++) {
                if (!files.get(i).equals(files.get(j)) && intersects(provides.get(i), names)) {
                    reads.get(files.get(j)).add(module(files.get(i)));
                }
            }
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> script : scripts.entrySet()) {
            Set<String> declared = declaredNeeds(script.getValue());
            Set<String> actual = reads.get(script.getKey());
            Set<String> missing = new java.util.TreeSet<>(actual);
            missing.removeAll(declared);
            Set<String> unused = new LinkedHashSet<>(declared);
            unused.removeAll(actual);
            if (!missing.isEmpty()) {
                problems.add(script.getKey() + " reads from " + String.join(", ", missing)
                        + ", which its '-- needs:' line does not name (it reads from " + String.join(", ", actual) + ")");
            }
            if (!unused.isEmpty()) {
                problems.add(script.getKey() + " names " + String.join(", ", unused)
                        + " in its '-- needs:' line but reads nothing those scripts create before it");
            }
        }
        return problems;
    }

    /** The scripts a script's {@code -- needs:} lines name, in their order. */
    static Set<String> declaredNeeds(String script) {
        Set<String> needs = new LinkedHashSet<>();
        Matcher m = NEEDS.matcher(script);
        while (m.find()) {
            for (String need : m.group(1).split(",")) {
                if (!need.isBlank()) {
                    needs.add(need.strip());
                }
            }
        }
        return needs;
    }

    /** A script's name as {@code -- needs:} lines name it: its file name without {@code .sql}. */
    private static String module(String file) {
        return file.endsWith(".sql") ? file.substring(0, file.length() - 4) : file;
    }

    /** Per statement, whether {@code names} (null: everything) need it; see {@link #of(Map, Set)}. */
    private static boolean[] kept(List<Set<String>> provides, List<Set<String>> mentions, Set<String> names) {
        int n = provides.size();
        boolean[] kept = new boolean[n];
        if (names == null) {
            Arrays.fill(kept, true);
            return kept;
        }
        Set<String> wanted = new HashSet<>();
        names.forEach(name -> wanted.add(name.toLowerCase(Locale.ROOT)));
        // from the last statement back: a kept statement wants what it mentions from the statements before it
        int lastKept = -1;
        for (int j = n - 1; j >= 0; j--) {
            if (intersects(provides.get(j), wanted)) {
                kept[j] = true;
                wanted.addAll(mentions.get(j));
                lastKept = Math.max(lastKept, j);
            }
        }
        for (int j = 0; j < lastKept; j++) {
            if (provides.get(j).isEmpty()) {
                kept[j] = true; // a barrier (a SET, say) holds for whatever follows it
            }
        }
        return kept;
    }

    private static Set<String> provided(String sql) {
        String code = code(sql);
        Set<String> names = new HashSet<>();
        for (Pattern p : List.of(CREATES, FILLS, RENAMES)) {
            Matcher m = p.matcher(code);
            if (m.find()) {
                names.add(m.group(1).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    private static boolean intersects(Set<String> a, Set<String> b) {
        for (String s : a) {
            if (b.contains(s)) {
                return true;
            }
        }
        return false;
    }

    /** The identifiers and keywords of {@code sql}, lower case, outside strings and comments. */
    static List<String> words(String sql) {
        List<String> words = new ArrayList<>();
        Matcher m = WORD.matcher(code(sql));
        while (m.find()) {
            words.add(m.group().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    /** {@code sql} with its string literals and comments blanked (quoted identifiers are kept, unquoted). */
    private static String code(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            int end = skip(sql, i);
            if (end > i) {
                out.append(sql.charAt(i) == '"' ? sql.substring(i + 1, Math.max(i + 1, end - 1)) : " ");
                i = end;
            } else {
                out.append(sql.charAt(i++));
            }
        }
        return out.toString();
    }

    /** The statements of a script: cut at semicolons outside strings, quoted identifiers and comments. */
    static List<String> split(String script) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < script.length()) {
            int end = skip(script, i);
            if (end > i) {
                i = end;
            } else if (script.charAt(i) == ';') {
                add(statements, script.substring(start, i));
                start = ++i;
            } else {
                i++;
            }
        }
        add(statements, script.substring(start));
        return statements;
    }

    private static void add(List<String> statements, String sql) {
        if (!code(sql).isBlank()) {
            statements.add(sql.strip());
        }
    }

    /** The end of the string literal, quoted identifier or comment starting at {@code i}; {@code i} if none does. */
    private static int skip(String s, int i) {
        char c = s.charAt(i);
        if (c == '\'' || c == '"') {
            int j = i + 1;
            while (j < s.length()) {
                if (s.charAt(j) == c) {
                    if (j + 1 < s.length() && s.charAt(j + 1) == c) {
                        j += 2; // a doubled quote stands for itself
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return s.length();
        }
        if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
            int nl = s.indexOf('\n', i);
            return nl < 0 ? s.length() : nl;
        }
        if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
            int close = s.indexOf("*/", i + 2);
            return close < 0 ? s.length() : close + 2;
        }
        return i;
    }
}
