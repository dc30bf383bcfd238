package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * build/check-deps.sh against fake machines: a root folder that holds only what a test puts there
 * (RDMATRACE_DEPS_ROOT), a PATH of fake commands (RDMATRACE_DEPS_PATH) and a user id
 * (RDMATRACE_DEPS_UID). The script is the one list the launcher, the Maven build and .ci/run read.
 */
class DependencyCheckTest {
    private static final Path SCRIPT = ReadmeExamples.REPO.resolve("build/check-deps.sh");

    private record Run(int exit, String out, String err) {
    }

    /** A Debian machine with make, gcc, mvn, javac 17 and apt-get, and the given headers. */
    private static Path machine(Path dir, String osId, String... headers) throws IOException {
        Files.createDirectories(dir.resolve("etc"));
        Files.writeString(dir.resolve("etc/os-release"), "NAME=\"Test\"\nID=" + osId + "\n");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String c : List.of("make", "gcc", "mvn", "apt-get")) {
            fake(bin, c, "exit 0");
        }
        fake(bin, "javac", "echo 'javac 17.0.15'");
        for (String h : headers) {
            Path f = dir.resolve("usr/include").resolve(h);
            Files.createDirectories(f.getParent());
            Files.writeString(f, "");
        }
        return dir;
    }

    private static void fake(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        assertThat(f.toFile().setExecutable(true)).isTrue();
    }

    private static Run run(Path machine, int uid, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.remove("JAVA_HOME");
        env.put("RDMATRACE_DEPS_ROOT", machine.toString());
        env.put("RDMATRACE_DEPS_PATH", machine.resolve("bin").toString());
        env.put("RDMATRACE_DEPS_UID", Integer.toString(uid));
        Path out = machine.resolve("out.txt");
        Path err = machine.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("check-deps finished").isTrue();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void notRoot_missingHeaders_oneLineWithTheSudoCommand_exit2(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "debian"), 1000);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("rdmatrace: the build needs infiniband/verbs.h, rdma/rdma_cma.h; "
                + "install them with: sudo apt-get install libibverbs-dev librdmacm-dev\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void root_withApt_dryRunNamesTheInstallItWouldRun(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "ubuntu", "infiniband/verbs.h"), 0, "--dry-run");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEqualTo("rdmatrace: installing librdmacm-dev with apt-get (for rdma/rdma_cma.h)\n");
        assertThat(r.out()).isEqualTo(
                "would run: apt-get update -qq && apt-get install -y -qq --no-install-recommends librdmacm-dev\n");
    }

    @Test
    void root_withApt_installs_oneLineNotAptsOwnOutput(@TempDir Path dir) throws Exception {
        Path machine = machine(dir, "debian", "infiniband/verbs.h");
        Path header = machine.resolve("usr/include/rdma/rdma_cma.h");
        // a talkative apt-get that really provides the header
        fake(machine.resolve("bin"), "apt-get", "echo 'Reading package lists...'; echo 'debconf: delaying' >&2; "
                + "case \"$*\" in *install*) mkdir -p '" + header.getParent() + "' && : > '" + header + "';; esac");
        Run r = run(machine, 0);
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEqualTo("rdmatrace: installing librdmacm-dev with apt-get (for rdma/rdma_cma.h)\n");
        assertThat(r.out()).isEmpty();
        assertThat(header).exists();
    }

    @Test
    void root_aptFails_showsItsLastLinesAndTheCommand_exit2(@TempDir Path dir) throws Exception {
        Path machine = machine(dir, "debian", "infiniband/verbs.h");
        fake(machine.resolve("bin"), "apt-get",
                "case \"$*\" in *install*) echo 'E: Unable to locate package librdmacm-dev'; exit 100;; esac");
        Run r = run(machine, 0);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("rdmatrace: installing librdmacm-dev with apt-get (for rdma/rdma_cma.h)\n"
                + "E: Unable to locate package librdmacm-dev\n"
                + "rdmatrace: apt-get could not install librdmacm-dev; run it yourself: apt-get install librdmacm-dev\n");
    }

    @Test
    void root_noInstall_saysWhatIsMissingWithoutSudo(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "debian"), 0, "--no-install");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).endsWith("install them with: apt-get install libibverbs-dev librdmacm-dev\n");
    }

    @Test
    void fedora_namesItsOwnPackagesOnce(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "fedora"), 1000);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("rdmatrace: the build needs infiniband/verbs.h, rdma/rdma_cma.h; "
                + "install them with: sudo dnf install rdma-core-devel\n");
    }

    @Test
    void everythingPresent_silentExit0(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "debian", "infiniband/verbs.h", "rdma/rdma_cma.h"), 1000);
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
    }

    @Test
    void oldJdk_isNamedWithItsPackage(@TempDir Path dir) throws Exception {
        Path m = machine(dir, "debian", "infiniband/verbs.h", "rdma/rdma_cma.h");
        fake(m.resolve("bin"), "javac", "echo 'javac 11.0.2'");
        Run r = run(m, 1000);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("rdmatrace: the build needs a JDK >= 17; "
                + "install them with: sudo apt-get install openjdk-17-jdk-headless\n");
    }

    @Test
    void tests_addTheTestPrograms(@TempDir Path dir) throws Exception {
        Run r = run(machine(dir, "debian", "infiniband/verbs.h", "rdma/rdma_cma.h"), 1000, "--tests");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("rdmatrace: the build and the tests need ibv_rc_pingpong, tshark, chromium, ")
                .contains("sudo apt-get install ibverbs-utils tshark chromium perftest qperf rdmacm-utils "
                        + "python3-pyverbs ibverbs-providers");
    }
}
