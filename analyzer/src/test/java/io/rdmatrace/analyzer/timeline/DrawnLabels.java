package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text boxes a rendered timeline placed (labels, axis and gap labels), read from chromium's
 * DOM dump: each text's x, baseline y and the width the browser measured (data-w), so a test can
 * check that no two overlap without trusting the page's own placement code.
 */
record DrawnLabels(List<Box> boxes) {
    /** Text height assumed for a 9–10 px font: from 9 px above the baseline to 2 px below. */
    private static final double ASCENT = 9;
    private static final double DESCENT = 2;
    private static final Pattern TEXT = Pattern.compile(
            "<text class=\"([^\"]*)\" x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"[^>]*?data-w=\"([0-9.]+)\"[^>]*>([^<]*)</text>");

    /** One placed text; for a middle-anchored gap label x is its centre. */
    record Box(String cls, double left, double right, double top, double bottom, String text) {
        boolean overlaps(Box o) {
            return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
        }
    }

    static DrawnLabels in(String dom) {
        List<Box> boxes = new ArrayList<>();
        Matcher m = TEXT.matcher(dom);
        while (m.find()) {
            double x = Double.parseDouble(m.group(2));
            double y = Double.parseDouble(m.group(3));
            double w = Double.parseDouble(m.group(4));
            double left = m.group(1).contains("gap-label") ? x - w / 2 : x;
            boxes.add(new Box(m.group(1), left, left + w, y - ASCENT, y + DESCENT, m.group(5)));
        }
        return new DrawnLabels(boxes);
    }

    /** Every pair of boxes that overlap, as text for an assertion message. */
    List<String> overlaps() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                if (boxes.get(i).overlaps(boxes.get(j))) {
                    out.add(boxes.get(i) + " / " + boxes.get(j));
                }
            }
        }
        return out;
    }
}
