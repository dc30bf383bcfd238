package io.rdmatrace.analyzer.timeline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes a timeline as one self-contained HTML page: the CSS, the drawing script and the data
 * are inlined (no network, no external file), so the page can be mailed or attached to a bug.
 * The page's script builds SVG elements whose ids are the event ids ({@link Timeline#eventId}).
 */
public final class HtmlTimelineWriter {
    private static final String TEMPLATE = resource("timeline.html");
    private static final String STYLE = resource("timeline.css");
    private static final String SCRIPT = resource("timeline.js");
    /** Routine data-path events drawn one by one; more are condensed (a browser slows past a few thousand). */
    static final int MAX_DRAWN_DATA_PATH = 3000;

    private HtmlTimelineWriter() {
    }

    public static String render(Timeline timeline) {
        StringBuilder data = new StringBuilder(4096);
        // JsonWriter.script escapes '<', so the data cannot end its <script>
        TimelineJson.write(drawn(timeline), data);
        return TEMPLATE
                .replace("{{STYLE}}", STYLE)
                .replace("{{SCRIPT}}", SCRIPT)
                .replace("{{TITLE}}", escape(timeline.title()))
                .replace("{{DATA}}", data);
    }

    /**
     * What the page draws: lanes with the same history folded ({@link LaneFolder}), then a long
     * data path condensed ({@link DataPathCondenser}).
     */
    public static Timeline drawn(Timeline timeline) {
        return DataPathCondenser.condense(LaneFolder.fold(timeline), MAX_DRAWN_DATA_PATH);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlTimelineWriter.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the timeline page resource " + name + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the timeline page resource " + name, e);
        }
    }
}
