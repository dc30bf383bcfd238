package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.FormatVersion;
import io.rdmatrace.trace.model.Verb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * FORMAT.md's Verb and Attr tables are generated from the enums. If this fails, the enums
 * changed: run {@code mvn -pl trace-format test -Dtest=FormatDocTest -Drdmatrace.updateFormatDoc=true}
 * and commit FORMAT.md (and bump the minor version if codes were added).
 */
class FormatDocTest {

    private static final Path DOC = Path.of("FORMAT.md"); // surefire runs in the module folder

    @Test
    void formatDoc_tablesMatchTheEnums() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        String expected = replace(replace(doc, "Verb table", verbTable()), "Attr table", attrTable());
        if (Boolean.getBoolean("rdmatrace.updateFormatDoc")) {
            Files.writeString(DOC, expected, StandardCharsets.UTF_8);
            doc = expected;
        }
        assertThat(doc).as("FORMAT.md is out of date; regenerate: mvn -pl trace-format test -Dtest=FormatDocTest"
                + " -Drdmatrace.updateFormatDoc=true").isEqualTo(expected);
    }

    @Test
    void formatDoc_versionHeadlineMatchesConstants() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        assertThat(doc).contains("Version **" + FormatVersion.CURRENT + "**");
        assertThat(doc).contains("| " + FormatVersion.CURRENT + " |");
    }

    private static String replace(String doc, String name, String table) {
        String begin = "<!-- BEGIN GENERATED: " + name;
        String end = "<!-- END GENERATED: " + name + " -->";
        int b = doc.indexOf(begin);
        int bEnd = doc.indexOf("-->", b) + 3;
        int e = doc.indexOf(end);
        assertThat(b).as("marker " + begin).isNotNegative();
        assertThat(e).as("marker " + end).isGreaterThan(b);
        return doc.substring(0, bEnd) + "\n" + table + doc.substring(e);
    }

    static String verbTable() {
        StringBuilder sb = new StringBuilder("| code | function |\n|---|---|\n");
        for (Verb v : Verb.values()) {
            sb.append("| ").append(v.code()).append(" | `").append(v.function()).append("` |\n");
        }
        return sb.toString();
    }

    static String attrTable() {
        StringBuilder sb = new StringBuilder("| code | column | kind | meaning |\n|---|---|---|---|\n");
        for (Attr a : Attr.values()) {
            sb.append("| ").append(a.code()).append(" | `").append(a.column()).append("` | ").append(a.kind());
            if (a.names() != null) {
                sb.append(" (`").append(a.names().title()).append("`)");
            }
            sb.append(" | ").append(a.description().replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }
}
