package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Paths;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmatrace.verbs.Verbs;
import io.rdmatrace.verbs.VerbsLibrary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** `rdmatrace devices`, in-process: no library, no devices, and softverbs in text and JSON. */
class DevicesCommandTest {
    private static final String SYSTEM_LIB = "/usr/lib/x86_64-linux-gnu/libibverbs.so.1";

    /** softverbs' configuration is process-wide: set here, the command's own handle sees it. */
    private static Verbs soft;
    private static String ip;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @BeforeAll
    static void softDevice() {
        soft = Verbs.open(VerbsLibrary.bundledSoftverbs());
        long pid = ProcessHandle.current().pid();
        // an address of this JVM's own, so a concurrent demo on 127.0.0.1 does not collide
        ip = "127." + (150 + (int) (pid % 50)) + "." + (int) ((pid / 50) % 250 + 1) + ".1";
        soft.configureSoftverbs("dv0@" + ip);
    }

    @AfterAll
    static void release() {
        soft.configureSoftverbs(null);
        soft.close();
    }

    @Test
    void missingLibrary_isOneSentenceAndExit2() {
        Run run = run("devices", "--verbs-lib", "/nonexistent/libibverbs.so.1");
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().strip()).startsWith("rdmatrace devices: cannot load libibverbs /nonexistent/libibverbs.so.1")
                .contains("--soft")
                .doesNotContain("\n")
                .doesNotContain("Exception");
    }

    @Test
    void systemLibraryWithoutRdma_saysThereAreNoDevicesAndExit2() {
        assumeThat(Files.exists(Paths.get(SYSTEM_LIB))).as("needs the libibverbs1 package").isTrue();
        assumeThat(Files.isDirectory(Paths.get("/sys/class/infiniband_verbs")))
                .as("this machine has RDMA devices; the no-device message cannot be shown").isFalse();
        Run run = run("devices", "--verbs-lib", SYSTEM_LIB);
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).startsWith("rdmatrace devices: no RDMA devices: " + SYSTEM_LIB)
                .contains("ENOSYS")
                .contains("run with --soft")
                .doesNotContain("\n");
    }

    @Test
    void defaultLibrary_isTheSystemOne() {
        assumeThat(System.getenv(VerbsLibrary.ENV_VAR)).as("RDMATRACE_VERBS_LIB is set in this environment").isNull();
        assumeThat(Files.isDirectory(Paths.get("/sys/class/infiniband_verbs"))).isFalse();
        Run run = run("devices");
        assertThat(run.code()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("libibverbs.so.1 (system) returned no device list");
    }

    @Test
    void soft_text_showsDevicePortAndGidTable() {
        Run run = run("devices", "--soft");
        assertThat(run.err()).isEmpty();
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out())
                .startsWith("library: softverbs (bundled) -> ")
                .contains("hca_id: dv0")
                .containsPattern("fw_ver:\\s+0\\.0\\.0")
                .containsPattern("node_guid:\\s+[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}")
                .containsPattern("vendor_id:\\s+0xffffff")
                .containsPattern("phys_port_cnt:\\s+1")
                .contains("port: 1")
                .containsPattern("state:\\s+PORT_ACTIVE \\(4\\)")
                .containsPattern("max_mtu:\\s+4096 \\(5\\)")
                .containsPattern("active_mtu:\\s+1024 \\(3\\)")
                .containsPattern("link_layer:\\s+Ethernet")
                .containsPattern("GID\\[\\s*\\d+\\]:\\s+0000:0000:0000:0000:0000:ffff:[0-9a-f:]+, RoCE v2 \\("
                        + ip.replace(".", "\\.") + "\\)")
                .contains("RoCE v1");
    }

    @Test
    void soft_json_followsTheSchema() throws Exception {
        Run run = run("devices", "--soft", "--json");
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("schema").asText()).isEqualTo("rdmatrace.devices/1");
        assertThat(root.at("/library/softverbs").asBoolean()).isTrue();
        assertThat(root.at("/library/requested").asText()).isEqualTo("softverbs (bundled)");
        JsonNode dev = root.at("/devices/0");
        assertThat(root.get("devices")).hasSize(1);
        assertThat(dev.get("name").asText()).isEqualTo("dv0");
        assertThat(dev.get("error").isNull()).isTrue();
        assertThat(dev.get("fw_ver").asText()).isEqualTo("0.0.0");
        assertThat(dev.get("vendor_id").asLong()).isEqualTo(0xFFFFFF);
        assertThat(dev.get("node_guid").asText()).matches("[0-9a-f]{4}(:[0-9a-f]{4}){3}");
        assertThat(dev.at("/limits/max_mr_size").isBigInteger() || dev.at("/limits/max_mr_size").canConvertToLong())
                .isTrue();
        JsonNode port = dev.at("/ports/0");
        assertThat(port.get("port").asInt()).isEqualTo(1);
        assertThat(port.get("state").asText()).isEqualTo("ACTIVE");
        assertThat(port.get("max_mtu").asInt()).isEqualTo(4096);
        assertThat(port.get("active_mtu").asInt()).isEqualTo(1024);
        assertThat(port.get("link_layer").asText()).isEqualTo("Ethernet");
        assertThat(port.get("gids")).anySatisfy(g -> {
            assertThat(g.get("type").asText()).isEqualTo("RoCE v2");
            assertThat(g.get("ipv4").asText()).isEqualTo(ip);
        });
    }

    @Test
    void softAndVerbsLib_areListedInHelp() {
        Run run = run("devices", "--help");
        assertThat(run.code()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("--soft").contains("--verbs-lib").contains("--json").contains("Example usage:");
    }
}
