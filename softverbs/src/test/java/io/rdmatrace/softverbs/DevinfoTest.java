package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unmodified ibv_devinfo lists the configured softverbs devices like RoCE NICs. */
class DevinfoTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final Pattern GID = Pattern.compile("GID\\[\\s*(\\d+)\\]:\\s+(\\S+), (RoCE v[12])");

    private static ChildProcess.Result devinfo(String devices, Path work, String... args) {
        Path tool = SoftverbsEnv.requireTool("ibv_devinfo", "ibverbs-utils");
        List<String> command = new ArrayList<>(List.of(tool.toString()));
        command.addAll(List.of(args));
        try (ChildProcess p = ChildProcess.start("ibv_devinfo", command, SoftverbsEnv.processEnv(devices), work)) {
            return p.await(DEADLINE);
        }
    }

    /** The text of each "hca_id:" block, keyed by device name, in output order. */
    private static Map<String, String> devices(String stdout) {
        Map<String, String> blocks = new LinkedHashMap<>();
        for (String block : stdout.split("(?m)^hca_id:")) {
            if (!block.isBlank()) {
                blocks.put(block.strip().split("\\s+", 2)[0], block);
            }
        }
        return blocks;
    }

    private static String field(String block, String name) {
        Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(name) + ":\\s*(.+?)\\s*$").matcher(block);
        return m.find() ? m.group(1) : null;
    }

    private static Map<Integer, String> gids(String block) {
        Map<Integer, String> gids = new LinkedHashMap<>();
        Matcher m = GID.matcher(block);
        while (m.find()) {
            gids.put(Integer.parseInt(m.group(1)), m.group(2) + ", " + m.group(3));
        }
        return gids;
    }

    @Test
    void devinfoVerbose_listsConfiguredDevices(@TempDir Path work) {
        ChildProcess.Result r = devinfo("a@127.0.0.1,b@127.0.0.2:mtu=9000:fw=2.1.0", work, "-v");

        assertThat(r.timedOut()).as(r.describe()).isFalse();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        Map<String, String> devices = devices(r.stdout());
        assertThat(devices.keySet()).as(r.describe()).containsExactly("a", "b");

        String a = devices.get("a");
        String b = devices.get("b");
        assertThat(field(a, "fw_ver")).as(a).isNotBlank();
        assertThat(field(b, "fw_ver")).as(b).isEqualTo("2.1.0");
        assertThat(field(a, "phys_port_cnt")).isEqualTo("1");
        assertThat(field(a, "state")).isEqualTo("PORT_ACTIVE (4)");
        assertThat(field(a, "link_layer")).isEqualTo("Ethernet");
        assertThat(field(a, "max_mtu")).isEqualTo("4096 (5)");
        assertThat(field(a, "active_mtu")).as("link MTU 1500 -> 1024").isEqualTo("1024 (3)");
        assertThat(field(b, "active_mtu")).as("link MTU 9000 -> 4096").isEqualTo("4096 (5)");

        // RoCE GID table: link-local v1/v2, then IPv4-mapped v1/v2 (index 3 = what -g 3 uses)
        Map<Integer, String> ga = gids(a);
        assertThat(ga).as(a).containsKeys(0, 1, 2, 3);
        assertThat(ga.get(0)).startsWith("fe80:").endsWith("RoCE v1");
        assertThat(ga.get(1)).startsWith("fe80::").endsWith("RoCE v2");
        assertThat(ga.get(2)).isEqualTo("0000:0000:0000:0000:0000:ffff:7f00:0001, RoCE v1");
        assertThat(ga.get(3)).isEqualTo("::ffff:127.0.0.1, RoCE v2");
        assertThat(gids(b).get(3)).isEqualTo("::ffff:127.0.0.2, RoCE v2");
    }

    /**
     * profile=NAME: ibv_devinfo -v shows the published identity and limits of the NIC the profile
     * models (SOFTVERBS.md, "Device profiles"), and its GID table layout.
     */
    @Test
    void devinfoVerbose_showsEachProfilesLimits(@TempDir Path work) {
        SoftverbsEnv.Hosts h = RdmaCmPair.randomHosts();
        ChildProcess.Result r = devinfo("cx@" + h.serverIp() + ":profile=mlx5,e8@" + h.clientIp() + ":profile=irdma",
                work, "-v");

        assertThat(r.exitCode()).as(r.describe()).isZero();
        Map<String, String> devices = devices(r.stdout());
        assertThat(devices.keySet()).as(r.describe()).containsExactly("cx", "e8");
        Map<String, String> mlx5 = Map.of("vendor_id", "0x02c9", "vendor_part_id", "4123", "max_qp_wr", "32768",
                "max_sge", "30", "max_cqe", "4194303", "max_qp_rd_atom", "16", "max_res_rd_atom", "4194304",
                "max_qp_init_rd_atom", "16", "gid_tbl_len", "256");
        Map<String, String> irdma = Map.of("vendor_id", "0x8086", "vendor_part_id", "5522", "hw_ver", "0x2",
                "max_qp_wr", "8127", "max_sge", "6", "max_cqe", "1048574", "max_qp_rd_atom", "8",
                "max_res_rd_atom", "0", "max_qp_init_rd_atom", "8", "gid_tbl_len", "32");
        mlx5.forEach((k, v) -> assertThat(field(devices.get("cx"), k)).as("mlx5 " + k).isEqualTo(v));
        irdma.forEach((k, v) -> assertThat(field(devices.get("e8"), k)).as("irdma " + k).isEqualTo(v));
        // mlx5: RoCE v1 and v2 per address (index 3 = IPv4 v2); irdma: RoCE v2 only (index 1)
        assertThat(gids(devices.get("cx")).get(3)).isEqualTo("::ffff:" + h.serverIp() + ", RoCE v2");
        assertThat(gids(devices.get("e8"))).hasSize(2);
        assertThat(gids(devices.get("e8")).get(1)).isEqualTo("::ffff:" + h.clientIp() + ", RoCE v2");
    }

    @Test
    void devinfo_defaultDevice_whenUnconfigured(@TempDir Path work) {
        Path tool = SoftverbsEnv.requireTool("ibv_devinfo", "ibverbs-utils");
        Map<String, String> env = SoftverbsEnv.processEnv("");
        env.put("SOFTVERBS_DEVICES", null);
        ChildProcess.Result r;
        try (ChildProcess p = ChildProcess.start("ibv_devinfo-l", List.of(tool.toString(), "-l"), env, work)) {
            r = p.await(DEADLINE);
        }
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.stdout()).as(r.describe()).contains("1 HCA found:").contains("soft0");
    }

    @Test
    void devinfo_malformedConfiguration_isRefusedNamingTheBadPart(@TempDir Path work) {
        ChildProcess.Result r = devinfo("a@127.0.0.1,b@300.1.2.3", work, "-l");

        assertThat(r.exitCode()).as(r.describe()).isNotZero();
        assertThat(r.stdout() + r.stderr()).as(r.describe()).contains("300.1.2.3");
    }
}
