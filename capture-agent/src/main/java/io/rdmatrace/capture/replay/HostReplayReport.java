package io.rdmatrace.capture.replay;

import java.util.List;
import java.util.Objects;

/**
 * What replaying one host's recording found.
 *
 * @param host                 the recorded host id
 * @param newTrace             the folder of the trace recorded while replaying (null if none was written)
 * @param device               the device replayed on (name, firmware)
 * @param callsReplayed        recorded calls made again
 * @param completionsCompared  recorded work completions compared
 * @param notes                what was not replayed and why (unsupported verbs, capped buffers…)
 * @param divergences          departures and their consequences, in recorded order
 * @param failure              why the replay stopped early, or null when it ran to the end
 */
public record HostReplayReport(String host, String newTrace, String device, int callsReplayed,
                               int completionsCompared, List<String> notes, List<Divergence> divergences,
                               String failure) {
    public HostReplayReport {
        Objects.requireNonNull(host, "host");
        notes = List.copyOf(notes);
        divergences = List.copyOf(divergences);
    }

    public long departures() {
        return divergences.stream().filter(Divergence::isDeparture).count();
    }
}
