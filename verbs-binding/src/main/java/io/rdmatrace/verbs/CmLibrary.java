package io.rdmatrace.verbs;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Which librdmacm {@link RdmaCm#open} loads: softverbs' (bundled, for {@code --soft}), a file
 * ({@code --cm-lib}), or the system's {@value #SYSTEM_SONAME}. It is dlopen'ed by absolute path and
 * binds, by soname, to the libibverbs the binding loaded first, so pick the one that serves it
 * (softverbs' librdmacm works only with softverbs, the system's needs the kernel's rdma_cm).
 */
public record CmLibrary(VerbsLibrary.Kind kind, String location) {
    public static final String SYSTEM_SONAME = "librdmacm.so.1";

    public CmLibrary {
        if (kind == null || location == null || location.isBlank()) {
            throw new IllegalArgumentException("a librdmacm needs a kind and a location");
        }
    }

    /** The CLI's choice: softverbs' with {@code --soft}, else {@code --cm-lib} (may be null), else the system's. */
    public static CmLibrary select(boolean soft, Path explicit) {
        if (explicit != null) {
            return new CmLibrary(VerbsLibrary.Kind.PATH, explicit.toAbsolutePath().toString());
        }
        if (soft) {
            return new CmLibrary(VerbsLibrary.Kind.BUNDLED_SOFTVERBS, NativeResources.SOFTVERBS_RDMACM);
        }
        return new CmLibrary(VerbsLibrary.Kind.SYSTEM, SYSTEM_SONAME);
    }

    String resolveForDlopen() throws IOException {
        if (kind == VerbsLibrary.Kind.BUNDLED_SOFTVERBS) {
            return NativeResources.materialize(location).toAbsolutePath().toString();
        }
        return location;
    }

    public String describe() {
        return switch (kind) {
            case SYSTEM -> location + " (system)";
            case PATH -> location;
            case BUNDLED_SOFTVERBS -> "softverbs' librdmacm (bundled)";
        };
    }
}
