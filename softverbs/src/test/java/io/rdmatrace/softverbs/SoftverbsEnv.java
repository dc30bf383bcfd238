package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where the built softverbs library and the external tools (ibverbs-utils, tshark) are, and the
 * environment a process needs to run on softverbs devices.
 */
final class SoftverbsEnv {
    /** Resource path of the library inside the module's classes (see softverbs/Makefile). */
    static final String LIBRARY_RESOURCE = "/io/rdmatrace/native/linux-x86_64/softverbs/libibverbs.so.1";

    /** Two "hosts": the server's and the client's device, each bound to its own loopback address. */
    record Hosts(String serverDevice, String serverIp, String clientDevice, String clientIp) {
        /** The pair the issue names: a@127.0.0.1 serves, b@127.0.0.2 connects. */
        static final Hosts DEFAULT = new Hosts("a", "127.0.0.1", "b", "127.0.0.2");

        String serverDevices() {
            return serverDevice + "@" + serverIp;
        }

        String clientDevices() {
            return clientDevice + "@" + clientIp;
        }
    }

    private SoftverbsEnv() {
    }

    /** Directory holding softverbs' libibverbs.so.1, found on the test classpath (target/classes). */
    static Path libraryDir() {
        URL url = SoftverbsEnv.class.getResource(LIBRARY_RESOURCE);
        assertThat(url)
                .as("softverbs library %s on the test classpath; build it with `make -C softverbs softverbs` "
                        + "(Maven's compile phase does)", LIBRARY_RESOURCE)
                .isNotNull();
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("library URL is not a file: " + url, e);
        }
    }

    /** Environment for a child process that should see exactly the given softverbs devices. */
    static Map<String, String> processEnv(String devices) {
        Map<String, String> env = new HashMap<>();
        env.put("LD_LIBRARY_PATH", libraryDir().toString());
        env.put("SOFTVERBS_DEVICES", devices);
        return env;
    }

    /** Absolute path of an executable on PATH, if any. */
    static Optional<Path> findTool(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The tool, or the test is skipped with a message saying which package provides it. */
    static Path requireTool(String name, String debianPackage) {
        Optional<Path> tool = findTool(name);
        assumeTrue(tool.isPresent(), () -> name + " is not installed (Debian package " + debianPackage
                + "); this test runs in CI, which installs it");
        return tool.get();
    }
}
