package io.rdmatrace.analyzer.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.rdmatrace.analyzer.Finding;

/**
 * The expected-findings.txt format of sample-traces/README.md: one finding per line,
 * "{@code <rule-id> <host> <qp>}" with qp as 0x%06x or '-', '#' comments, order free.
 */
final class ExpectedFindings {
    static final String FILE = "expected-findings.txt";

    private ExpectedFindings() {
    }

    static List<String> read(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        int number = 0;
        for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            number++;
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\\s+");
            if (fields.length != 3 || !(fields[2].equals("-") || fields[2].matches("0x[0-9a-f]{6}"))) {
                throw new IllegalArgumentException(file + ":" + number + ": expected '<rule-id> <host> <qp as 0x%06x or ->', found '"
                        + raw + "'");
            }
            lines.add(String.join(" ", fields));
        }
        lines.sort(null);
        return lines;
    }

    static String line(Finding finding) {
        return finding.ruleId() + " " + (finding.host() == null ? "-" : finding.host()) + " "
                + (finding.qp() == null ? "-" : String.format(Locale.ROOT, "0x%06x", finding.qp()));
    }
}
