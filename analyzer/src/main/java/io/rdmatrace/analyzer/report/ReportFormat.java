package io.rdmatrace.analyzer.report;

import java.util.Locale;
import java.util.function.Supplier;

/** The report formats of {@code rdmatrace analyze --format}, each a factory of its writer. */
public enum ReportFormat {
    TEXT(TextReport::new),
    JSON(JsonReport::new),
    MARKDOWN(MarkdownReport::new),
    JUNIT(JunitReport::new);

    private final Supplier<ReportWriter> factory;

    ReportFormat(Supplier<ReportWriter> factory) {
        this.factory = factory;
    }

    public ReportWriter writer() {
        return factory.get();
    }

    /** The lowercase name used on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
