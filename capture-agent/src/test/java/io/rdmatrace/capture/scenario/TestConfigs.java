package io.rdmatrace.capture.scenario;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Workload;
import io.rdmatrace.capture.oob.OobRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Configs for tests that need one but do not run verbs. */
final class TestConfigs {
    private TestConfigs() {
    }

    static CaptureConfig with(Workload w, QpKnobs k, boolean barrier) {
        PeerLink link = new PeerLink(OobRole.LISTEN, "0", Optional.empty(), barrier, Duration.ofSeconds(5), Duration.ofSeconds(5));
        return new CaptureConfig("hostA", Path.of("trace"), null, 1, link, w, k, null, Duration.ofSeconds(5), Map.of(), "test");
    }

    static CaptureConfig defaults() {
        return with(Workload.defaults(), QpKnobs.defaults(), true);
    }
}
