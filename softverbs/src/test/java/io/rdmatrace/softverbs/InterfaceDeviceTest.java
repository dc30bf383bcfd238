package io.rdmatrace.softverbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A softverbs device bound to a network interface (NAME@IFNAME), in the two namespace hosts of
 * softverbs-hosts.sh: its GID table and ndev_ifindex as ibv_query_gid_ex returns them to an unmodified
 * client (pyverbs), the sysfs facts UCX reads, the rdma_cm mapping of any address the interface carries,
 * UCX's and libfabric's verbs transports offered on it, and the helper cleaning up its namespaces and
 * processes however it ends. About 20 s.
 */
class InterfaceDeviceTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** pyverbs' own query of every GID entry, the way a program reads them: index, GID, type, netdev. */
    private static final String GID_DUMP = String.join("\n",
            "import sys",
            "from pyverbs.device import Context",
            "ctx = Context(name=sys.argv[1])",
            "i = 0",
            "while True:",
            "    try:",
            "        e = ctx.query_gid_ex(1, i)",
            "    except Exception as err:",
            "        print('end', i, err)",
            "        break",
            "    print('gid', e.gid_index, e.gid_str(), e.gid_type, e.ndev_ifindex)",
            "    i += 1",
            "");
    private static final Pattern GID_ROW = Pattern.compile("(?m)^gid (\\d+) (\\S+) (\\d+) (\\d+)$");
    private static final Pattern FACT = Pattern.compile("(?m)^(\\w+)=(.*)$");

    /** One GID entry as pyverbs printed it (type: 1 RoCE v1, 2 RoCE v2, as ibv_gid_type). */
    record Gid(int index, String gid, int type, int ifindex) {
    }

    @Test
    void gidTable_isTheInterfaces_withItsIfindex_andTheSysfsFactsAgree(@TempDir Path work) throws IOException {
        TwoHosts.assumeNamespaces(work);
        Path python = Path.of("/usr/bin/python3");
        assertThat(python).as("Debian's python3 (pyverbs is a Debian package)").exists();
        assertThat(Path.of("/usr/lib/python3/dist-packages/pyverbs"))
                .as("python3-pyverbs (build/deps.txt; .ci/run installs it)").exists();
        Path script = Files.writeString(work.resolve("gids.py"), GID_DUMP);
        String port = "/sys/class/infiniband/$SV_DEVICE/ports/1";
        String a = String.join("; ",
                python + " " + script + " $SV_DEVICE",
                "echo ifindex=$(cat /sys/class/net/$SV_IFNAME/ifindex)",
                "echo mac=$(cat /sys/class/net/$SV_IFNAME/address)",
                "echo ifname=$SV_IFNAME",
                "for f in " + port + "/gid_attrs/ndevs/*; do echo ndev${f##*/}=$(cat $f); done",
                "for f in " + port + "/gid_attrs/types/*; do echo type${f##*/}=$(cat $f | tr ' ' _); done",
                "echo mtu=$(ibv_devinfo -d $SV_DEVICE | sed -n 's/.*active_mtu:[[:space:]]*\\([0-9]*\\).*/\\1/p')",
                "echo uverbs=$(ls /dev/infiniband | tr '\\n' ' ')");
        TwoHosts.Run run = TwoHosts.run(work, List.of("--mtu", "9000"), a, "true", DEADLINE);
        assertThat(run.exit()).as(run.describe()).isZero();

        List<Gid> gids = new ArrayList<>();
        Matcher m = GID_ROW.matcher(run.a());
        while (m.find()) {
            gids.add(new Gid(Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)),
                    Integer.parseInt(m.group(4))));
        }
        Map<String, String> facts = new HashMap<>();
        Matcher f = FACT.matcher(run.a());
        while (f.find()) {
            facts.put(f.group(1), f.group(2).strip());
        }
        int ifindex = Integer.parseInt(facts.get("ifindex"));
        String linkLocal = "fe80:0000:0000:0000:" + eui64(facts.get("mac"));
        // the interface's addresses, each as RoCE v1 then v2, as the kernel's GID cache orders them
        assertThat(gids).as(run.describe()).extracting(Gid::gid, Gid::type).containsExactly(
                tuple(linkLocal, 1), tuple(linkLocal, 2),
                tuple("0000:0000:0000:0000:0000:ffff:0a1d:0001", 1),
                tuple("0000:0000:0000:0000:0000:ffff:0a1d:0001", 2),
                tuple("fd29:0000:0000:0000:0000:0000:0000:0001", 1),
                tuple("fd29:0000:0000:0000:0000:0000:0000:0001", 2));
        assertThat(gids).as("every GID's netdev is the interface (ifindex %d)", ifindex)
                .allSatisfy(g -> assertThat(g.ifindex()).isEqualTo(ifindex));
        assertThat(run.a()).as("the entry after the table is empty").contains("end " + gids.size());
        for (Gid g : gids) {
            assertThat(facts.get("ndev" + g.index())).as("gid_attrs/ndevs/%d", g.index()).isEqualTo(facts.get("ifname"));
            assertThat(facts.get("type" + g.index())).as("gid_attrs/types/%d", g.index())
                    .isEqualTo(g.type() == 2 ? "RoCE_v2" : "IB/RoCE_v1");
        }
        assertThat(facts.get("mtu")).as("a 9000-byte link carries 4096-byte RoCE packets").isEqualTo("4096");
        assertThat(facts.get("uverbs")).as("the uverbs node UCX and libfabric look for").contains("uverbs");
    }

    @Test
    void rdmaCm_mapsTheInterfacesAddress_toTheDevice(@TempDir Path work) {
        TwoHosts.assumeNamespaces(work);
        Path rping = SoftverbsEnv.requireTool("rping", "rdmacm-utils");
        // rdma_bind_addr/rdma_resolve_addr on the veth's own address, as libfabric's verbs provider does
        String opts = " -p 7471 -C 3 -V -v";
        String a = rping + " -s -a $SV_IP" + opts;
        String b = "for i in $(seq 50); do " + rping + " -c -a $SV_PEER" + opts + " && exit 0; sleep 0.2; done; exit 1";
        TwoHosts.Run run = TwoHosts.run(work, List.of("--timeout", "60"), a, b, DEADLINE);
        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.b()).as(run.describe()).contains("ping data: rdma-ping-2");
        assertThat(run.a()).as(run.describe()).contains("server DISCONNECT EVENT");
    }

    @Test
    void ucxAndLibfabric_offerTheirVerbsTransports_onTheDevice(@TempDir Path work) {
        TwoHosts.assumeNamespaces(work);
        Path ucxInfo = SoftverbsEnv.requireTool("ucx_info", "ucx-utils");
        Path fiInfo = SoftverbsEnv.requireTool("fi_info", "libfabric-bin");
        // what each library offers once it has looked at the device (sysfs, GIDs, the CM's address map)
        String a = ucxInfo + " -d | grep -E 'Transport|Device'; " + fiInfo + " -p verbs -n $SV_IP | grep -E 'provider|domain|type'";
        TwoHosts.Run run = TwoHosts.run(work, List.of("--timeout", "60"), a, "true", DEADLINE);
        assertThat(run.exit()).as(run.describe()).isZero();
        String out = run.a().replaceAll("[ \t]+", " ");
        assertThat(out).as(run.describe()).contains("Transport: rc_verbs\n# Device: sv_a:1")
                .contains("Transport: ud_verbs\n# Device: sv_a:1")
                .contains("provider: verbs\n domain: sv_a\n type: FI_EP_MSG")
                .contains("provider: verbs;ofi_rxm\n domain: sv_a\n type: FI_EP_RDM")
                .doesNotContain("rc_mlx5");
    }

    @Test
    void hosts_endEverything_onTimeout_andOnSigterm(@TempDir Path work) throws Exception {
        TwoHosts.assumeNamespaces(work);
        String hold = "ip netns identify; echo pid=$$; exec sleep 600";
        TwoHosts.Run timedOut = TwoHosts.run(work.resolve("timeout"), List.of("--timeout", "3"), hold, hold, DEADLINE);
        assertThat(timedOut.exit()).as(timedOut.describe()).isEqualTo(1);
        assertThat(timedOut.helper()).contains("timed out after 3s");
        assertGone(timedOut.a() + timedOut.b());

        Path w = work.resolve("sigterm");
        try (ChildProcess helper = TwoHosts.start(w, List.of("--timeout", "300"), hold, hold)) {
            for (int i = 0; i < 600 && !(TwoHosts.log(w, "a").contains("pid=") && TwoHosts.log(w, "b").contains("pid="));
                    i++) {
                Thread.sleep(100);
            }
            TwoHosts.Run stopped = TwoHosts.result(w, helper.terminate(Duration.ofSeconds(30)));
            assertThat(stopped.timedOut()).as(stopped.describe()).isFalse();
            assertThat(stopped.exit()).as(stopped.describe()).isNotZero();
            assertGone(stopped.a() + stopped.b());
        }
    }

    /** The namespaces named in the hosts' output are gone, and so are the processes. */
    private static void assertGone(String hostsOutput) throws Exception {
        List<String> names = Pattern.compile("(?m)^(svh\\d+-[ab])$").matcher(hostsOutput).results()
                .map(r -> r.group(1)).toList();
        List<Long> pids = Pattern.compile("(?m)^pid=(\\d+)$").matcher(hostsOutput).results()
                .map(r -> Long.parseLong(r.group(1))).toList();
        assertThat(names).as(hostsOutput).hasSize(2);
        assertThat(pids).as(hostsOutput).hasSize(2);
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String netns = new String(list.getInputStream().readAllBytes());
        list.waitFor();
        for (String name : names) {
            assertThat(netns).as("ip netns list").doesNotContain(name);
        }
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("host process %d", pid).isEmpty();
        }
    }

    /** The interface id of a MAC's link-local address (RFC 4291 modified EUI-64), as pyverbs prints it. */
    static String eui64(String mac) {
        byte[] b = HexFormat.ofDelimiter(":").parseHex(mac);
        byte[] id = {(byte) (b[0] ^ 0x02), b[1], b[2], (byte) 0xff, (byte) 0xfe, b[3], b[4], b[5]};
        String hex = HexFormat.of().formatHex(id).toLowerCase(Locale.ROOT);
        return hex.substring(0, 4) + ":" + hex.substring(4, 8) + ":" + hex.substring(8, 12) + ":" + hex.substring(12);
    }
}
