package io.rdmatrace.verbs;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Loads {@code librdmatrace-jni.so} once per class loader (it does not load libibverbs; that is
 * {@link Verbs#open}) and checks that its slot layouts match Java's.
 */
final class JniLibrary {
    private JniLibrary() {
    }

    private static final class Holder {
        static final Path PATH = load();
    }

    static void ensureLoaded() {
        Holder.PATH.getClass();
    }

    /** Where the JNI library was loaded from. */
    static Path path() {
        return Holder.PATH;
    }

    private static Path load() {
        Path path;
        try {
            path = NativeResources.materialize(NativeResources.JNI_LIBRARY);
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("rdmatrace JNI library unavailable: " + e.getMessage());
            error.initCause(e);
            throw error;
        }
        System.load(path.toAbsolutePath().toString());
        NativeLayout.verifyAll();
        return path;
    }
}
