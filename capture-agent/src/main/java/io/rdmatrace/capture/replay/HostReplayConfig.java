package io.rdmatrace.capture.replay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * How to replay one recorded host.
 *
 * @param recording      the recorded host's trace
 * @param library        the libibverbs to replay on
 * @param softverbsSpec  for softverbs: the device configuration to apply first (null: leave as is)
 * @param onReference    true when replaying on the reference (bundled softverbs): words the report
 * @param link           how to reach the replaying peer, or null when there is none
 * @param outDir         where the new trace goes (outDir/host/)
 * @param completionWait how long a replayed poll waits for the completions the recording had
 * @param messageWait    how long an out-of-band message may take (also the wait for the peer)
 * @param toolVersion    for the new SESSION
 * @param commandLine    for the new SESSION
 */
record HostReplayConfig(TraceReader.Result recording, VerbsLibrary library, String softverbsSpec, boolean onReference,
                        OobReplay.Link link, Path outDir, Duration completionWait, Duration messageWait,
                        String toolVersion, String commandLine) {
    HostReplayConfig {
        Objects.requireNonNull(recording, "recording");
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(outDir, "outDir");
        Objects.requireNonNull(completionWait, "completionWait");
        Objects.requireNonNull(messageWait, "messageWait");
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(commandLine, "commandLine");
    }
}
