package io.rdmatrace.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands of a markdown file (README.md, bench/README.md), read from its fenced code blocks. In a block
 * with `$ ` lines, those are the commands and the lines after each are the output it shows; in any other block,
 * every line that is not blank or a `#` comment is a command (a trailing `  # comment` and `&` are dropped).
 */
record ReadmeExamples(Path doc, List<Example> examples) {
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    /** Where the README shows only part of an output line or leaves lines out. */
    static final String ELLIPSIS = "…";

    /**
     * One command as the reader would type it.
     *
     * @param line the 1-based line of the command in the file
     * @param env the leading NAME=value assignments
     * @param argv the command's words (quotes removed, `./` dropped from `./rdmatrace`)
     * @param shown the output lines the file shows after it (empty when none)
     */
    record Example(Path doc, int line, Map<String, String> env, List<String> argv, List<String> shown) {
        String program() {
            return argv.isEmpty() ? "" : argv.get(0);
        }

        List<String> args() {
            return argv.subList(Math.min(1, argv.size()), argv.size());
        }

        String where() {
            return REPO.relativize(doc) + ":" + line + " `" + String.join(" ", argv) + "`";
        }
    }

    static ReadmeExamples of(String repoRelative) {
        Path doc = REPO.resolve(repoRelative);
        List<String> lines;
        try {
            lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Example> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("```")) {
                continue;
            }
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).startsWith("```")) {
                end++;
            }
            List<String> block = lines.subList(start, end);
            boolean prompted = block.stream().anyMatch(l -> l.startsWith("$ "));
            for (int j = 0; j < block.size(); j++) {
                String text = block.get(j);
                if (prompted) {
                    if (!text.startsWith("$ ")) {
                        continue;
                    }
                    List<String> shown = new ArrayList<>();
                    for (int k = j + 1; k < block.size() && !block.get(k).startsWith("$ "); k++) {
                        shown.add(block.get(k));
                    }
                    examples.add(example(doc, start + j + 1, text.substring(2), shown));
                } else if (!text.isBlank() && !text.strip().startsWith("#")) {
                    examples.add(example(doc, start + j + 1, text, List.of()));
                }
            }
            i = end;
        }
        return new ReadmeExamples(doc, List.copyOf(examples));
    }

    /** The first example whose words start with these. */
    Example find(String... words) {
        return examples.stream().filter(e -> e.argv().size() >= words.length
                        && e.argv().subList(0, words.length).equals(List.of(words)))
                .findFirst().orElseThrow(() -> new AssertionError(REPO.relativize(doc) + " shows no `" + String.join(" ", words) + "`"));
    }

    /**
     * The parts of the shown lines that the actual output does not contain: each shown line is cut at `…` and
     * every non-blank piece must appear in the output, in a line of its own order.
     */
    static List<String> missing(List<String> shown, String actual) {
        List<String> missing = new ArrayList<>();
        List<String> outLines = actual.lines().toList();
        for (String line : shown) {
            List<String> pieces = new ArrayList<>();
            for (String piece : line.split(ELLIPSIS, -1)) {
                if (!piece.isBlank()) {
                    pieces.add(piece);
                }
            }
            if (pieces.isEmpty()) {
                continue;
            }
            boolean found = outLines.stream().anyMatch(out -> inOrder(out, pieces));
            if (!found) {
                missing.add(line);
            }
        }
        return missing;
    }

    private static boolean inOrder(String line, List<String> pieces) {
        int at = 0;
        for (String piece : pieces) {
            int found = line.indexOf(piece, at);
            if (found < 0) {
                return false;
            }
            at = found + piece.length();
        }
        return true;
    }

    private static Example example(Path doc, int line, String text, List<String> shown) {
        List<String> words = words(stripComment(text.strip()));
        Map<String, String> env = new LinkedHashMap<>();
        while (!words.isEmpty() && words.get(0).matches("[A-Z_][A-Z0-9_]*=.*")) {
            String assignment = words.remove(0);
            int eq = assignment.indexOf('=');
            env.put(assignment.substring(0, eq), assignment.substring(eq + 1));
        }
        if (words.size() >= 3 && words.get(0).equals("chrt")) {
            words.subList(0, 3).clear();   // chrt -r 1: a priority, not the command
        }
        if (!words.isEmpty() && words.get(words.size() - 1).equals("&")) {
            words.remove(words.size() - 1);
        }
        if (!words.isEmpty() && words.get(0).equals("./rdmatrace")) {
            words.set(0, "rdmatrace");
        }
        return new Example(doc, line, Map.copyOf(env), List.copyOf(words), List.copyOf(shown));
    }

    /** Drops a `# comment` that follows the command after whitespace, outside quotes. */
    private static String stripComment(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && i > 0 && Character.isWhitespace(text.charAt(i - 1))) {
                return text.substring(0, i).strip();
            }
        }
        return text;
    }

    /** Shell words: whitespace-separated, single and double quotes removed (no expansion). */
    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
