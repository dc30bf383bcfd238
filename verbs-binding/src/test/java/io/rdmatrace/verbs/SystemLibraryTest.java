package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

/**
 * The real system libibverbs on a machine without RDMA (this one: no kernel support), and
 * libraries that cannot be loaded at all.
 */
class SystemLibraryTest {

    private static final Path SYSTEM_LIB = Paths.get("/usr/lib/x86_64-linux-gnu/libibverbs.so.1");

    @Test
    void systemLibrary_withoutKernelRdma_isUnavailableWithEnosys() {
        assumeThat(Files.exists(SYSTEM_LIB)).as("needs the system libibverbs1 package").isTrue();
        assumeThat(Files.isDirectory(Paths.get("/sys/class/infiniband_verbs")))
                .as("this test is about a kernel without RDMA; this machine has /sys/class/infiniband_verbs")
                .isFalse();
        try (Verbs verbs = Verbs.open(VerbsLibrary.system())) {
            assertThat(verbs.loadedPath()).endsWith("libibverbs.so.1");
            assertThat(verbs.isSoftverbs()).isFalse();

            Outcome<DeviceList> raw = verbs.tryGetDeviceList();
            assertThat(raw).isInstanceOf(Outcome.Failed.class);
            assertThat(raw.status().errno()).isEqualTo(38);
            assertThat(raw.status().errnoName()).isEqualTo("ENOSYS");
            assertThat(raw.status().ret()).isEqualTo(-1);
            assertThat(raw.status().durationNanos()).isPositive();

            assertThatThrownBy(verbs::getDeviceList)
                    .isInstanceOfSatisfying(VerbsUnavailableException.class, e -> {
                        assertThat(e.reason()).isEqualTo(VerbsUnavailableException.Reason.NO_DEVICE_LIST);
                        assertThat(e.errno()).isEqualTo(38);
                        assertThat(e.getMessage())
                                .contains("no RDMA devices")
                                .contains("ENOSYS")
                                .contains("--soft")
                                .doesNotContain("\n");
                    });
        }
    }

    @Test
    void systemSoname_isNotShadowedBySoftverbsLoadedEarlier() {
        assumeThat(Files.exists(SYSTEM_LIB)).as("needs the system libibverbs1 package").isTrue();
        assumeThat(SystemLibraryTest.class.getResource("/" + NativeResources.SOFTVERBS_LIBRARY))
                .as("softverbs is not built").isNotNull();
        // softverbs' soname is libibverbs.so.1 too; a plain dlopen of the soname would return it
        try (Verbs soft = Verbs.open(VerbsLibrary.bundledSoftverbs());
             Verbs system = Verbs.open(VerbsLibrary.system())) {
            assertThat(soft.isSoftverbs()).isTrue();
            assertThat(system.isSoftverbs()).isFalse();
            assertThat(system.loadedPath()).isNotEqualTo(soft.loadedPath());
        }
    }

    @Test
    void nonexistentPath_isUnavailableNamingThePath() {
        Path missing = Paths.get("/nonexistent/libibverbs.so.1");
        assertThatThrownBy(() -> Verbs.open(VerbsLibrary.path(missing)))
                .isInstanceOfSatisfying(VerbsUnavailableException.class, e -> {
                    assertThat(e.reason()).isEqualTo(VerbsUnavailableException.Reason.LIBRARY_NOT_LOADED);
                    assertThat(e.library()).isEqualTo(missing.toString());
                    assertThat(e.getMessage())
                            .contains("/nonexistent/libibverbs.so.1")
                            .contains("No such file or directory")
                            .contains("--soft");
                });
    }

    @Test
    void libraryWithoutVerbs_isRefusedAsNotALibibverbs() {
        // libc loads fine but exports no ibv_get_device_list
        assertThatThrownBy(() -> Verbs.open(VerbsLibrary.path(Paths.get("libc.so.6"))))
                .isInstanceOfSatisfying(VerbsUnavailableException.class, e ->
                        assertThat(e.getMessage()).contains("does not export ibv_get_device_list"));
    }
}
