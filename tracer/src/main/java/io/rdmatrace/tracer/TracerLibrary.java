package io.rdmatrace.tracer;

import io.rdmatrace.verbs.NativeResources;
import io.rdmatrace.verbs.VerbsLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;

/**
 * The tracing libibverbs ({@code tracer/src/main/c/tracer}) and the real library it forwards to,
 * as files a recorded program can load: the tracer's folder goes first on the program's
 * {@code LD_LIBRARY_PATH}, the real library's absolute path into {@code RDMATRACE_REAL_VERBS}.
 */
public final class TracerLibrary {
    private static final String LIBRARY = NativeResources.PLATFORM_DIR + "tracer/libibverbs.so.1";

    /** Where the system's libibverbs.so.1 is looked for when the loader cache does not say. */
    private static final List<String> STANDARD_DIRS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib64", "/usr/lib64", "/usr/lib", "/lib");

    private TracerLibrary() {
    }

    /**
     * The folder holding the tracer as {@code libibverbs.so.1} and {@code libibverbs.so} (the name
     * programs such as NCCL dlopen); extracted from the jar when needed.
     */
    public static Path directory() throws IOException {
        Path lib = NativeResources.materialize(LIBRARY);
        Path dir = lib.getParent();
        Path dev = dir.resolve("libibverbs.so");
        if (!Files.exists(dev, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createSymbolicLink(dev, lib.getFileName());
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another process made it first
            }
        }
        beside(dir, NativeResources.PLATFORM_DIR + "tracer/librdmacm.so.1");
        return dir;
    }

    /**
     * Makes the library {@code resource} (a librdmacm) reachable as its own file name in {@code dir}:
     * a jar extracts each library into a folder of its own, the loader finds it beside the other.
     * Nothing when the build has no such library.
     */
    private static void beside(Path dir, String resource) throws IOException {
        if (TracerLibrary.class.getClassLoader().getResource(resource) == null) {
            return;
        }
        link(dir, NativeResources.materialize(resource).toAbsolutePath());
    }

    /** A symbolic link {@code dir/NAME} to {@code lib} (its file NAME), unless lib is there or the link is. */
    static void link(Path dir, Path lib) throws IOException {
        Path link = dir.resolve(lib.getFileName());
        if (lib.getParent().equals(dir.toAbsolutePath())) {
            return;
        }
        if (Files.isSymbolicLink(link) && Files.readSymbolicLink(link).equals(lib)) {
            return;
        }
        // absent, or left by a build whose librdmacm differed while this libibverbs (which names the
        // folder) did not: a new link renamed over it, so a concurrent loader sees the old or the new one
        Path tmp = dir.resolve(".link-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Files.createSymbolicLink(tmp, lib);
        try {
            Files.move(tmp, link, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The real library's absolute path: softverbs (extracted), the given file, or the system's
     * libibverbs.so.1 (empty when the system has none).
     */
    public static Optional<Path> realLibrary(VerbsLibrary choice) throws IOException {
        switch (choice.kind()) {
            case BUNDLED_SOFTVERBS: {
                Path soft = NativeResources.materialize(choice.location()).toAbsolutePath();
                beside(soft.getParent(), NativeResources.SOFTVERBS_RDMACM);
                return Optional.of(soft);
            }
            case PATH:
                Path p = Paths.get(choice.location()).toAbsolutePath();
                return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
            default:
                for (String dir : STANDARD_DIRS) {
                    Path candidate = Paths.get(dir, VerbsLibrary.SYSTEM_SONAME);
                    if (Files.isRegularFile(candidate)) {
                        return Optional.of(candidate.toRealPath());
                    }
                }
                return Optional.empty();
        }
    }
}
