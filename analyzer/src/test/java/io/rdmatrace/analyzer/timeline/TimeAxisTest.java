package io.rdmatrace.analyzer.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.Lane;
import io.rdmatrace.analyzer.timeline.Timeline.LaneKind;
import io.rdmatrace.analyzer.timeline.Timeline.Point;
import io.rdmatrace.analyzer.timeline.Timeline.PointKind;
import io.rdmatrace.analyzer.timeline.TimeAxis.Span;

/**
 * The time axis cuts long idle gaps (and only idle ones) and keeps one scale elsewhere.
 *
 * <pre>
 *   calls   [0-10µs] [20-30µs]  . . . . . idle 5 s . . . . .  [5 s - 5 s+10µs]
 *   axis    |--- segment 1 ---|~~~~~~~~~~ gap ~~~~~~~~~~~~~~~~|-- segment 2 --|
 * </pre>
 */
class TimeAxisTest {

    static Timeline timeline(List<CallSpan> calls, List<Point> points, long span) {
        return new Timeline("t", 0, span, List.of(new Timeline.Host(0, "a", "listen", "a", 0, 0, 0, "reference", "soft0")),
                List.of(new Lane("h0", 0, LaneKind.HOST, "a", null)), calls,
                List.of(), points, List.of(), List.of());
    }

    static CallSpan call(String id, long start, long end) {
        return new CallSpan(id, "h0", start, end, "ibv_query_port", true, "", "");
    }

    @Test
    void of_longIdleGap_cutBetweenTwoSegments() {
        long fiveS = 5_000_000_000L;
        Timeline t = timeline(List.of(call("a", 0, 10_000), call("b", 20_000, 30_000), call("c", fiveS, fiveS + 10_000)),
                List.of(), fiveS + 10_000);
        TimeAxis axis = TimeAxis.of(t);
        assertThat(axis.gaps()).containsExactly(new Span(30_000, fiveS));
        assertThat(axis.segments()).containsExactly(new Span(0, 30_000), new Span(fiveS, fiveS + 10_000));
        assertThat(axis.shownNs()).isEqualTo(40_000);
    }

    @Test
    void of_longCallInProgress_neverCut() {
        long twoS = 2_000_000_000L;
        // a poll loop blocks for 2 s: busy, so nothing is cut although no event happens inside it
        Timeline t = timeline(List.of(call("a", 0, 10_000), call("poll", 20_000, twoS), call("c", twoS, twoS + 5_000)),
                List.of(), twoS + 5_000);
        assertThat(TimeAxis.of(t).gaps()).isEmpty();
        assertThat(TimeAxis.of(t).segments()).containsExactly(new Span(0, twoS + 5_000));
    }

    @Test
    void of_evenlySpacedEvents_linearWithoutCuts() {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i <= 100; i++) {
            points.add(new Point("p" + i, "h0", i * 1_000_000L, PointKind.MARK, false, "", ""));
        }
        TimeAxis axis = TimeAxis.of(timeline(List.of(), points, 100_000_000L));
        assertThat(axis.gaps()).isEmpty();
        assertThat(axis.shownNs()).isEqualTo(100_000_000L);
    }

    @Test
    void of_severalIdleGaps_largestCutFirstAtMostMaxCuts() {
        List<Point> points = new ArrayList<>();
        long t = 0;
        long end = 0;
        for (int i = 0; i < TimeAxis.MAX_CUTS + 10; i++) {
            points.add(new Point("p" + i, "h0", t, PointKind.MARK, false, "", ""));
            points.add(new Point("q" + i, "h0", t + 1_000, PointKind.MARK, false, "", ""));
            end = t + 1_000;
            t = end + 1_000_000_000L + i;           // a second (and i ns) of idle time after each pair
        }
        TimeAxis axis = TimeAxis.of(timeline(List.of(), points, end));
        assertThat(axis.gaps()).hasSize(TimeAxis.MAX_CUTS);
        assertThat(axis.segments()).hasSize(TimeAxis.MAX_CUTS + 1);
        // the gaps are in time order and segments and gaps tile the whole span
        long at = 0;
        for (int i = 0; i < axis.segments().size(); i++) {
            assertThat(axis.segments().get(i).startNs()).isEqualTo(at);
            at = axis.segments().get(i).endNs();
            if (i < axis.gaps().size()) {
                assertThat(axis.gaps().get(i).startNs()).isEqualTo(at);
                at = axis.gaps().get(i).endNs();
            }
        }
        assertThat(at).isEqualTo(end);
        // the longest idle gaps were the ones cut: the last MAX_CUTS (each i ns longer than the one before)
        assertThat(axis.gaps().get(0).length()).isEqualTo(1_000_000_000L + 9);
    }
}
