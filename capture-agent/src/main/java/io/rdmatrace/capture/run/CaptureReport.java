package io.rdmatrace.capture.run;

import java.nio.file.Path;
import java.util.List;

/**
 * How a capture ended.
 *
 * @param results      the test cases, in order
 * @param peerHost     the peer's host id, or null if it never connected
 * @param peerPassed   the peer's own verdict; null when it did not report one (it gave up or vanished)
 * @param peerText     the peer's summary or why there is none
 * @param traceDir     this host's trace folder
 * @param events       events written (SESSION and END included)
 * @param traceProblem why the trace is incomplete, or null
 * @param writeFailed  the trace could not be written (disk full, file-size limit, I/O error): the
 *                     capture stopped at that point, and {@code traceProblem} says so in one sentence
 */
public record CaptureReport(List<TestCaseResult> results, String peerHost, Boolean peerPassed, String peerText, Path traceDir,
                            long events, String traceProblem, boolean writeFailed) {
    public CaptureReport {
        results = List.copyOf(results);
    }

    public boolean localPassed() {
        return !results.isEmpty() && results.stream().allMatch(TestCaseResult::passed);
    }

    /** Everything passed here and at the peer (if one took part), and the trace is complete. */
    public boolean passed() {
        return localPassed() && (peerHost == null || Boolean.TRUE.equals(peerPassed)) && traceProblem == null;
    }
}
