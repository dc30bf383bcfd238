package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import java.util.Map;

import org.junit.jupiter.api.Test;

class VerbsLibraryTest {

    @Test
    void soft_winsOverEverything() {
        VerbsLibrary lib = VerbsLibrary.select(true, Paths.get("/x/libibverbs.so.1"),
                Map.of(VerbsLibrary.ENV_VAR, "/y/libibverbs.so.1"));
        assertThat(lib.kind()).isEqualTo(VerbsLibrary.Kind.BUNDLED_SOFTVERBS);
        assertThat(lib.describe()).isEqualTo("softverbs (bundled)");
    }

    @Test
    void explicitPath_winsOverEnvironment() {
        VerbsLibrary lib = VerbsLibrary.select(false, Paths.get("/x/libibverbs.so.1"),
                Map.of(VerbsLibrary.ENV_VAR, "/y/libibverbs.so.1"));
        assertThat(lib).isEqualTo(new VerbsLibrary(VerbsLibrary.Kind.PATH, "/x/libibverbs.so.1"));
    }

    @Test
    void environment_winsOverSystem() {
        assertThat(VerbsLibrary.select(false, null, Map.of(VerbsLibrary.ENV_VAR, "/y/libibverbs.so.1")).location())
                .isEqualTo("/y/libibverbs.so.1");
        assertThat(VerbsLibrary.select(false, null, Map.of(VerbsLibrary.ENV_VAR, "  "))).isEqualTo(VerbsLibrary.system());
    }

    @Test
    void default_isTheSystemSoname() {
        VerbsLibrary lib = VerbsLibrary.select(false, null, Map.of());
        assertThat(lib.kind()).isEqualTo(VerbsLibrary.Kind.SYSTEM);
        assertThat(lib.location()).isEqualTo("libibverbs.so.1");
        assertThat(lib.describe()).isEqualTo("libibverbs.so.1 (system)");
    }
}
