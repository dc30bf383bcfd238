package io.rdmatrace.tracer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tracing libibverbs exports exactly the symbols and versions of the system's libibverbs.so.1
 * (default and old versions, the IBVERBS_PRIVATE_* entry points providers need), so any program or
 * provider that links against the real one binds to it (issue 10).
 */
class TracerSymbolsTest {
    private static final Path TRACER = Path.of("target/classes/io/rdmatrace/native/linux-x86_64/tracer/libibverbs.so.1");

    @Test
    void exports_matchSystemLibibverbs() throws Exception {
        Path system = Stream.of("/lib/x86_64-linux-gnu/libibverbs.so.1", "/usr/lib/x86_64-linux-gnu/libibverbs.so.1",
                "/usr/lib64/libibverbs.so.1").map(Path::of).filter(Files::isRegularFile).findFirst().orElse(null);
        assumeTrue(system != null, "no system libibverbs.so.1 (Debian package libibverbs1) to compare the tracer with");
        assumeTrue(onPath("objdump"), "objdump is not installed (Debian package binutils)");
        assertThat(TRACER).exists();
        assertThat(Files.isSymbolicLink(TRACER.resolveSibling("libibverbs.so"))).isTrue();

        Set<String> all = exports(TRACER);
        Set<String> theirs = exports(system);
        // beyond rdma-core's: softverbs' extras (forwarded, for softverbs' librdmacm with --soft) and the
        // ring entry points the tracing librdmacm writes through
        Set<String> ours = new TreeSet<>(all);
        ours.removeIf(s -> s.endsWith(" SOFTVERBS_1.0") || s.endsWith(" RDMATRACE_PRIVATE_1.0"));
        assertThat(all).contains("softverbs_gsi_attach SOFTVERBS_1.0", "rdmatrace_ring_reserve RDMATRACE_PRIVATE_1.0");
        assertThat(ours).containsExactlyElementsOf(theirs);
        assertThat(ours).contains("ibv_create_cq (IBVERBS_1.0)", "ibv_create_cq IBVERBS_1.1",
                "verbs_register_driver_34 IBVERBS_PRIVATE_34", "ibv_cmd_create_qp IBVERBS_PRIVATE_34");
    }

    /** "name version" per exported symbol; an old (non-default) version is in parentheses, as objdump prints it. */
    private static Set<String> exports(Path lib) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("objdump", "-T", lib.toString()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(text).isZero();
        Set<String> out = new TreeSet<>();
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 6 && (line.contains(" DF ") || line.contains(" DO ")) && !line.contains("*UND*")) {
                out.add(f[f.length - 1] + " " + f[f.length - 2]);
            }
        }
        return out;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
