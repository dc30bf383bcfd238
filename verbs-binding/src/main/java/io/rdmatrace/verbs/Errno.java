package io.rdmatrace.verbs;

import java.util.concurrent.atomic.AtomicReferenceArray;

/** Symbolic names and descriptions of errno values, from the C library (strerrorname_np). */
final class Errno {
    private static final int CACHED = 256;
    private static final AtomicReferenceArray<String> NAMES = new AtomicReferenceArray<>(CACHED);

    static {
        JniLibrary.ensureLoaded();
    }

    private Errno() {
    }

    /** "EINVAL" for 22; "" for 0; "E&lt;n&gt;" when the C library has no name. */
    static String name(int errno) {
        if (errno == 0) {
            return "";
        }
        if (errno > 0 && errno < CACHED) {
            String cached = NAMES.get(errno);
            if (cached == null) {
                cached = lookup(errno);
                NAMES.set(errno, cached);
            }
            return cached;
        }
        return lookup(errno);
    }

    static String description(int errno) {
        String text = describe0(errno);
        return text != null ? text : "unknown error " + errno;
    }

    private static String lookup(int errno) {
        String name = name0(errno);
        return name != null ? name : "E" + errno;
    }

    private static native String name0(int errno);

    private static native String describe0(int errno);
}
