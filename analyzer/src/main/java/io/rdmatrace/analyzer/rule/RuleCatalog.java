package io.rdmatrace.analyzer.rule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Collects rules: the built-in {@code rules/*.sql} from the class path, then each user folder
 * given with {@code --rules DIR}. Files whose name starts with '_' are helpers, not rules. A
 * file that does not parse, or reuses an id, becomes a {@link RuleProblem}; the rest load.
 */
public final class RuleCatalog {
    private RuleCatalog() {
    }

    public static RuleSet builtin() {
        return load(List.of());
    }

    public static RuleSet load(List<Path> userFolders) {
        List<Rule> rules = new ArrayList<>();
        List<RuleProblem> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Map.Entry<String, String> file : BundledFiles.sqlFiles("").entrySet()) {
            if (!file.getKey().startsWith("_")) {
                add(file.getKey(), BundledFiles.ROOT + "/" + file.getKey(), file.getValue(), "builtin", rules, problems, ids);
            }
        }
        for (Path folder : userFolders) {
            for (Path path : userFiles(folder, problems)) {
                String text;
                try {
                    text = Files.readString(path, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    problems.add(new RuleProblem(path.toString(), "cannot read: " + e.getMessage()));
                    continue;
                }
                add(path.getFileName().toString(), path.toString(), text, path.toString(), rules, problems, ids);
            }
        }
        return new RuleSet(rules, problems);
    }

    private static List<Path> userFiles(Path folder, List<RuleProblem> problems) {
        if (!Files.isDirectory(folder)) {
            problems.add(new RuleProblem(folder.toString(), "not a folder of rule files"));
            return List.of();
        }
        try (Stream<Path> list = Files.list(folder)) {
            List<Path> files = list.filter(p -> p.getFileName().toString().endsWith(".sql"))
                    .filter(p -> !p.getFileName().toString().startsWith("_"))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .toList();
            if (files.isEmpty()) {
                problems.add(new RuleProblem(folder.toString(), "contains no *.sql rule files"));
            }
            return files;
        } catch (IOException e) {
            problems.add(new RuleProblem(folder.toString(), "cannot list: " + e.getMessage()));
            return List.of();
        }
    }

    private static void add(String fileName, String displayName, String text, String origin,
            List<Rule> rules, List<RuleProblem> problems, Set<String> ids) {
        try {
            Rule rule = RuleParser.parse(fileName, text, origin);
            if (!ids.add(rule.id())) {
                problems.add(new RuleProblem(displayName, "id '" + rule.id() + "' is already used by another rule; rename the file"));
                return;
            }
            rules.add(rule);
        } catch (RuleFormatException e) {
            problems.add(new RuleProblem(displayName, e.getMessage()));
        }
    }
}
