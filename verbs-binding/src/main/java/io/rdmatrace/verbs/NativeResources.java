package io.rdmatrace.verbs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns a native library on the class path into a file dlopen can load. A plain file (tests,
 * {@code target/classes}) is used where it is; a library inside a jar is extracted once into
 * {@code $XDG_CACHE_HOME/rdmatrace/<version>-<hash>/} (else {@code ~/.cache/...}, else a
 * private folder in the temp dir), written to a temp file and renamed atomically so two
 * processes starting at once never see a half-written library.
 */
public final class NativeResources {
    /** Where every native module puts its libraries in its jar (build/native.mk). */
    public static final String PLATFORM_DIR = "io/rdmatrace/native/linux-x86_64/";
    static final String JNI_LIBRARY = PLATFORM_DIR + "librdmatrace-jni.so";
    static final String SOFTVERBS_LIBRARY = PLATFORM_DIR + "softverbs/libibverbs.so.1";
    public static final String SOFTVERBS_RDMACM = PLATFORM_DIR + "softverbs/librdmacm.so.1";

    private NativeResources() {
    }

    /** The file for a class-path resource such as {@link #JNI_LIBRARY}. */
    public static Path materialize(String resource) throws IOException {
        URL url = NativeResources.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IOException("native resource " + resource + " is not on the class path; build it with "
                    + "`mvn -pl cli -am compile` (needs gcc and the libibverbs-dev headers)");
        }
        return materialize(url, resource, cacheBases());
    }

    /** {@link #materialize(String)} for a resolved URL, trying {@code bases} in order. */
    static Path materialize(URL url, String resource, List<Path> bases) throws IOException {
        if ("file".equals(url.getProtocol())) {
            try {
                return Paths.get(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException("bad resource URL " + url, e);
            }
        }
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        }
        String folder = version() + "-" + sha256(bytes).substring(0, 16);
        String relative = resource.substring(PLATFORM_DIR.length());
        List<IOException> failures = new ArrayList<>();
        for (Path base : bases) {
            try {
                return extract(base.resolve(folder), relative, bytes);
            } catch (IOException e) {
                failures.add(e);
            }
        }
        IOException all = new IOException("cannot extract " + resource + " to any cache folder " + bases);
        failures.forEach(all::addSuppressed);
        throw all;
    }

    private static Path extract(Path dir, String relative, byte[] bytes) throws IOException {
        Path target = dir.resolve(relative);
        if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), bytes)) {
            return target;
        }
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempFile(target.getParent(), ".extract-", ".tmp");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return target;
    }

    /** The user's cache home first; a private folder under java.io.tmpdir last. */
    private static List<Path> cacheBases() {
        List<Path> bases = new ArrayList<>();
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            bases.add(Paths.get(xdg, "rdmatrace"));
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank()) {
            bases.add(Paths.get(home, ".cache", "rdmatrace"));
        }
        bases.add(privateTempBase());
        return bases;
    }

    /** A temp folder only this user may write: another user must not be able to plant a library. */
    private static Path privateTempBase() {
        Path base = Paths.get(System.getProperty("java.io.tmpdir"), "rdmatrace-" + System.getProperty("user.name"));
        try {
            if (!Files.isDirectory(base)) {
                Files.createDirectories(base, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException | UnsupportedOperationException ignored) {
            // extract() reports the real failure if this folder is unusable
        }
        return base;
    }

    private static String version() {
        String v = NativeResources.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
