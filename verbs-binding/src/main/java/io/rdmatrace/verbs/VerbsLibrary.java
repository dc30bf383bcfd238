package io.rdmatrace.verbs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which libibverbs to load. Precedence of {@link #select}: the bundled softverbs when asked
 * for, an explicit path, the {@value #ENV_VAR} environment variable, then the system's
 * {@value #SYSTEM_SONAME}.
 *
 * @param kind     where the choice came from
 * @param location a path or soname for dlopen; for {@link Kind#BUNDLED_SOFTVERBS} the class-path
 *                 resource
 */
public record VerbsLibrary(Kind kind, String location) {

    public static final String ENV_VAR = "RDMATRACE_VERBS_LIB";
    public static final String SYSTEM_SONAME = "libibverbs.so.1";

    public enum Kind {
        /** The system's libibverbs.so.1, found by the dynamic linker. */
        SYSTEM,
        /** A file given with --verbs-lib or the environment variable. */
        PATH,
        /** softverbs packed in the rdmatrace jar (--soft). */
        BUNDLED_SOFTVERBS
    }

    public VerbsLibrary {
        if (kind == null || location == null || location.isBlank()) {
            throw new IllegalArgumentException("a verbs library needs a kind and a location");
        }
    }

    public static VerbsLibrary system() {
        return new VerbsLibrary(Kind.SYSTEM, SYSTEM_SONAME);
    }

    public static VerbsLibrary path(Path path) {
        return new VerbsLibrary(Kind.PATH, path.toString());
    }

    public static VerbsLibrary bundledSoftverbs() {
        return new VerbsLibrary(Kind.BUNDLED_SOFTVERBS, NativeResources.SOFTVERBS_LIBRARY);
    }

    /** The CLI's choice: {@code --soft}, then {@code --verbs-lib} (may be null), then env, then system. */
    public static VerbsLibrary select(boolean soft, Path explicit, Map<String, String> env) {
        if (soft) {
            return bundledSoftverbs();
        }
        if (explicit != null) {
            return path(explicit);
        }
        String fromEnv = env.get(ENV_VAR);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return new VerbsLibrary(Kind.PATH, fromEnv);
        }
        return system();
    }

    /** What dlopen is given; extracts the bundled softverbs from the jar if needed. */
    String resolveForDlopen() throws IOException {
        if (kind == Kind.BUNDLED_SOFTVERBS) {
            return NativeResources.materialize(location).toAbsolutePath().toString();
        }
        return location;
    }

    /** "softverbs (bundled)", "/opt/x/libibverbs.so.1", "libibverbs.so.1 (system)". */
    public String describe() {
        return switch (kind) {
            case SYSTEM -> location + " (system)";
            case PATH -> location;
            case BUNDLED_SOFTVERBS -> "softverbs (bundled)";
        };
    }
}
