package io.rdmatrace.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.config.PeerLink;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Workload;
import io.rdmatrace.capture.oob.OobRole;
import io.rdmatrace.capture.run.CaptureAgent;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * A real two-host softverbs capture (host-a listens, host-b connects) made in this JVM for the
 * replay and timeline tests; both devices get {@code options} (e.g. ":quirk=accept-reset-to-rts")
 * and a random loopback address, so tests running at the same time never share a device.
 */
final class RecordedPair {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private RecordedPair() {
    }

    static Path record(Path out, String options) throws Exception {
        String net = "127." + ThreadLocalRandom.current().nextInt(100, 200) + "." + ThreadLocalRandom.current().nextInt(1, 255);
        VerbsLibrary soft = VerbsLibrary.bundledSoftverbs();
        try (Verbs holder = Verbs.open(soft)) { // keeps softverbs, and so this configuration, loaded
            holder.configureSoftverbs("pairA@" + net + ".1" + options + ",pairB@" + net + ".2" + options);
            CompletableFuture<String> bound = new CompletableFuture<>();
            CaptureConfig a = config("host-a", "pairA", out, new PeerLink(OobRole.LISTEN, "127.0.0.1:0", Optional.empty(),
                    true, WAIT, WAIT));
            CompletableFuture<Void> listener = CompletableFuture.runAsync(() -> {
                try {
                    new CaptureAgent(a, soft, "test", line -> {
                        if (line.startsWith("listening on ")) {
                            bound.complete(line.substring("listening on ".length()).trim());
                        }
                    }).run();
                } catch (Exception e) {
                    bound.completeExceptionally(e);
                    throw new IllegalStateException(e);
                }
            });
            String address = bound.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            new CaptureAgent(config("host-b", "pairB", out, new PeerLink(OobRole.CONNECT, address, Optional.empty(), true,
                    WAIT, WAIT)), soft, "test", line -> { }).run();
            listener.get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        return out;
    }

    private static CaptureConfig config(String host, String device, Path out, PeerLink link) {
        return new CaptureConfig(host, out, device, 1, link, Workload.defaults(), QpKnobs.defaults(), null,
                Duration.ofSeconds(5), Map.of("--soft", ""), "rdmatrace capture --soft --host-id " + host + " --device "
                        + device + (link.role() == OobRole.LISTEN ? " --listen " : " --connect ") + link.endpoint());
    }
}
