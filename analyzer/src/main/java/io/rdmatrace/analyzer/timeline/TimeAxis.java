package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.rdmatrace.analyzer.timeline.Timeline.CallSpan;
import io.rdmatrace.analyzer.timeline.Timeline.Point;

/**
 * The time axis of a drawn timeline: linear, one scale for all of it, except where nothing
 * happens for long: such idle gaps are cut out and drawn as a marker of fixed width that says how
 * much time it stands for. A gap is idle when no call is in progress on any lane. The longest idle
 * gaps are cut (at most {@link #MAX_CUTS}), as many as each still takes more than
 * {@link #CUT_FRACTION} of the axis left after cutting; never one shorter than {@link #MIN_CUT_NS}
 * or than {@link #RELATIVE_TO_TYPICAL} times the typical time between events (evenly spaced
 * events are never cut).
 *
 * @param segments the drawn stretches of time, in order; all drawn at the same ns-per-pixel
 * @param gaps     the idle stretches cut between them, in order ({@code gaps.size() == segments.size() - 1})
 */
public record TimeAxis(List<Span> segments, List<Span> gaps) {
    static final double CUT_FRACTION = 0.05;
    static final int MAX_CUTS = 12;
    static final long MIN_CUT_NS = 20_000;
    /** A cut gap is at least this many times the typical (median) time between two consecutive instants. */
    static final long RELATIVE_TO_TYPICAL = 50;

    public TimeAxis {
        segments = List.copyOf(segments);
        gaps = List.copyOf(gaps);
    }

    /** A stretch of time, ns since time 0. */
    public record Span(long startNs, long endNs) {
        public long length() {
            return endNs - startNs;
        }
    }

    /** The axis for everything the timeline draws. */
    public static TimeAxis of(Timeline t) {
        List<Long> instants = new ArrayList<>();
        instants.add(0L);
        instants.add(t.spanNs());
        List<Span> busy = new ArrayList<>();
        for (CallSpan c : t.calls()) {
            instants.add(c.startNs());
            instants.add(c.endNs());
            busy.add(new Span(c.startNs(), c.endNs()));
        }
        for (Point p : t.points()) {
            instants.add(p.tNs());
        }
        for (Timeline.StateBand s : t.states()) {
            instants.add(s.startNs());
            instants.add(s.endNs());
        }
        instants.sort(Long::compare);
        List<Span> merged = merge(busy);
        List<Span> idle = new ArrayList<>();
        int b = 0;
        for (int i = 1; i < instants.size(); i++) {
            long from = instants.get(i - 1);
            long to = instants.get(i);
            if (to <= from) {
                continue;
            }
            long mid = from + (to - from) / 2;
            while (b < merged.size() && merged.get(b).endNs() <= mid) {
                b++;
            }
            boolean inCall = b < merged.size() && merged.get(b).startNs() <= mid;
            if (!inCall) {
                idle.add(new Span(from, to));
            }
        }
        idle.sort(Comparator.comparingLong(Span::length).reversed());
        long floor = Math.max(MIN_CUT_NS, RELATIVE_TO_TYPICAL * typicalGap(instants));
        // cut the k longest idle gaps for the largest k (up to MAX_CUTS) where the k-th would
        // still take more than CUT_FRACTION of what is left to draw
        int k = 0;
        long cutSum = 0;
        long span = Math.max(0, t.spanNs());
        for (int i = 0; i < Math.min(MAX_CUTS, idle.size()); i++) {
            Span g = idle.get(i);
            if (g.length() < floor) {
                break;
            }
            cutSum += g.length();
            if (g.length() > CUT_FRACTION * (span - cutSum)) {
                k = i + 1;
            }
        }
        List<Span> cuts = new ArrayList<>(idle.subList(0, k));
        cuts.sort(Comparator.comparingLong(Span::startNs));
        List<Span> segments = new ArrayList<>();
        long from = 0;
        for (Span g : cuts) {
            segments.add(new Span(from, g.startNs()));
            from = g.endNs();
        }
        segments.add(new Span(from, Math.max(from, t.spanNs())));
        return new TimeAxis(segments, cuts);
    }

    /** Total drawn (not cut) time. */
    public long shownNs() {
        return segments.stream().mapToLong(Span::length).sum();
    }

    /** The median of the non-zero times between consecutive instants. */
    private static long typicalGap(List<Long> sortedInstants) {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < sortedInstants.size(); i++) {
            long d = sortedInstants.get(i) - sortedInstants.get(i - 1);
            if (d > 0) {
                gaps.add(d);
            }
        }
        if (gaps.isEmpty()) {
            return 0;
        }
        gaps.sort(Long::compare);
        return gaps.get(gaps.size() / 2);
    }

    private static List<Span> merge(List<Span> spans) {
        spans.sort(Comparator.comparingLong(Span::startNs));
        List<Span> out = new ArrayList<>();
        for (Span s : spans) {
            if (!out.isEmpty() && s.startNs() <= out.get(out.size() - 1).endNs()) {
                Span last = out.remove(out.size() - 1);
                out.add(new Span(last.startNs(), Math.max(last.endNs(), s.endNs())));
            } else {
                out.add(s);
            }
        }
        return out;
    }
}
