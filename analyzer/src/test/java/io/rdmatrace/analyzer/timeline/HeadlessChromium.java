package io.rdmatrace.analyzer.timeline;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Debian's chromium headless on a local file (no network, no sandbox, throw-away profile),
 * to dump the DOM after the page's scripts ran or to take a screenshot. Every run is bounded by a
 * timeout; on timeout the browser and its helper processes (all started here) are killed.
 */
final class HeadlessChromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");
    private static final long TIMEOUT_SECONDS = 90;

    private final Path binary;

    private HeadlessChromium(Path binary) {
        this.binary = binary;
    }

    /** The browser on PATH, if there is one. */
    static Optional<HeadlessChromium> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            for (String name : NAMES) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(new HeadlessChromium(p));
                }
            }
        }
        return Optional.empty();
    }

    /** The page's DOM after its scripts ran ({@code --dump-dom}). */
    String dumpDom(Path page, Path scratch) throws IOException, InterruptedException {
        Path out = scratch.resolve("dom.html");
        run(List.of("--dump-dom", page.toUri().toString()), scratch, out);
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Saves a PNG of the page at the given window size. */
    void screenshot(Path page, Path png, int width, int height, Path scratch) throws IOException, InterruptedException {
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height,
                "--hide-scrollbars", page.toUri().toString()), scratch, scratch.resolve("screenshot.log"));
        if (!Files.isRegularFile(png)) {
            throw new IOException("chromium wrote no screenshot " + png + "; see " + scratch.resolve("stderr.log"));
        }
    }

    private void run(List<String> args, Path scratch, Path stdout) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-dev-shm-usage", "--user-data-dir=" + scratch.resolve("profile").toAbsolutePath()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile())
                .redirectError(scratch.resolve("stderr.log").toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new IOException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + String.join(" ", cmd));
        }
        if (p.exitValue() != 0) {
            throw new IOException("chromium exited with " + p.exitValue() + ": "
                    + Files.readString(scratch.resolve("stderr.log")));
        }
    }
}
