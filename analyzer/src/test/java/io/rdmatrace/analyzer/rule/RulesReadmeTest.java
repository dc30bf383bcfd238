package io.rdmatrace.analyzer.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.load.Schema;

/**
 * rules/README.md is the rules' API (Perfetto's "every public column needs a description"):
 * every public relation has a section, every column a row, every built-in rule a line.
 */
class RulesReadmeTest {
    private static final Pattern SECTION = Pattern.compile("^### (\\w+)\\s*$");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    static String readme() throws Exception {
        String root = System.getProperty("rdmatrace.repo.root");
        Path repo = root != null ? Path.of(root) : Path.of("..");
        return Files.readString(repo.resolve("rules/README.md"), StandardCharsets.UTF_8);
    }

    /** Section name → the column names or patterns its table's first cells name. */
    static Map<String, List<Pattern>> documentedColumns(String readme) {
        Map<String, List<Pattern>> sections = new LinkedHashMap<>();
        List<Pattern> current = null;
        for (String line : readme.split("\n")) {
            Matcher section = SECTION.matcher(line);
            if (section.matches()) {
                current = new ArrayList<>();
                sections.put(section.group(1), current);
            } else if (line.startsWith("## ")) {
                current = null;
            } else if (current != null && line.startsWith("| `")) {
                String firstCell = line.substring(1, line.indexOf('|', 1));
                Matcher code = CODE.matcher(firstCell);
                while (code.find()) {
                    String regex = Pattern.quote(code.group(1)).replace("<attr>", "\\E[a-z0-9_]+\\Q")
                            .replace("<field>", "\\E[a-z0-9_]+\\Q");
                    current.add(Pattern.compile(regex));
                }
            }
        }
        return sections;
    }

    @Test
    void everyPublicRelationAndColumnIsDocumented() throws Exception {
        Map<String, List<Pattern>> documented = documentedColumns(readme());
        Map<String, List<String>> actual = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            Schema.createEmpty(connection);
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT table_name, column_name FROM information_schema.columns "
                            + "WHERE table_name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY table_name, ordinal_position")) {
                while (rs.next()) {
                    actual.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
        }
        assertThat(documented.keySet()).as("sections of rules/README.md 'Relations'")
                .containsExactlyInAnyOrderElementsOf(actual.keySet());
        for (Map.Entry<String, List<String>> relation : actual.entrySet()) {
            List<Pattern> patterns = documented.get(relation.getKey());
            List<String> undocumented = relation.getValue().stream()
                    .filter(column -> patterns.stream().noneMatch(p -> p.matcher(column).matches()))
                    .collect(Collectors.toList());
            assertThat(undocumented).as("columns of %s missing from rules/README.md", relation.getKey()).isEmpty();
        }
    }

    @Test
    void everyBuiltinRuleIsListed() throws Exception {
        String readme = readme();
        String table = readme.substring(readme.indexOf("## Built-in rules"), readme.indexOf("## Time, sequence"));
        List<String> listed = new ArrayList<>();
        for (String line : table.split("\n")) {
            Matcher code = CODE.matcher(line);
            if (line.startsWith("| `") && code.find()) {
                listed.add(code.group(1));
            }
        }
        List<String> ids = RuleCatalog.builtin().rules().stream().map(Rule::id).collect(Collectors.toList());
        assertThat(listed).containsExactlyInAnyOrderElementsOf(ids);
        for (Rule rule : RuleCatalog.builtin().rules()) {
            assertThat(table).contains("| `" + rule.id() + "` | " + rule.severity().label() + " |");
        }
    }
}
