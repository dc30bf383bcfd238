package io.rdmatrace.capture.replay;

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
import io.rdmatrace.capture.run.CaptureReport;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;

/**
 * A real two-host capture for tests: two capture agents (listener host-a, connector host-b), each
 * on its own softverbs device at a random loopback address, run the built-in bring-up in this JVM.
 * {@code options} (e.g. {@code ":quirk=accept-reset-to-rts"}) give both devices a firmware personality.
 */
final class SoftverbsCapture {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private SoftverbsCapture() {
    }

    static void run(Path out, String options) throws Exception {
        String net = "127." + ThreadLocalRandom.current().nextInt(100, 200) + "." + ThreadLocalRandom.current().nextInt(1, 255);
        VerbsLibrary soft = VerbsLibrary.bundledSoftverbs();
        try (Verbs holder = Verbs.open(soft)) { // keeps the library, and so its configuration, loaded
            holder.configureSoftverbs("capA@" + net + ".1" + options + ",capB@" + net + ".2" + options);
            CompletableFuture<String> bound = new CompletableFuture<>();
            CaptureConfig a = config("host-a", "capA", out, new PeerLink(OobRole.LISTEN, "127.0.0.1:0", Optional.empty(),
                    true, WAIT, WAIT));
            CompletableFuture<CaptureReport> listener = CompletableFuture.supplyAsync(() -> {
                try {
                    return new CaptureAgent(a, soft, "test", line -> {
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
            CaptureConfig b = config("host-b", "capB", out, new PeerLink(OobRole.CONNECT, address, Optional.empty(),
                    true, WAIT, WAIT));
            new CaptureAgent(b, soft, "test", line -> { }).run();
            listener.get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static CaptureConfig config(String host, String device, Path out, PeerLink link) {
        return new CaptureConfig(host, out, device, 1, link, Workload.defaults(), QpKnobs.defaults(), null,
                Duration.ofSeconds(5), Map.of(), "rdmatrace capture --soft (test " + host + ")");
    }
}
