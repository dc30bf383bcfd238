/* Device configuration: SOFTVERBS_DEVICES syntax, errors that name the bad part, defaults,
 * softverbs_configure() and the device list it produces. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>

#include "softverbs.h"
#include "sv_check.h"
#include "sv_loc.h"

static void check_bad(const char *spec, const char *needle)
{
    struct sv_devcfg_list l;
    char err[512] = "";
    CHECK_EQ(sv_config_parse(spec, &l, err, sizeof err), EINVAL);
    CHECK_EQ(l.count, 0);
    CHECK_CONTAINS(err, needle);
}

static void test_valid(void)
{
    struct sv_devcfg_list l;
    char err[512] = "";
    CHECK_EQ(sv_config_parse("softA@127.0.0.1:mtu=9000,softB@127.0.0.2:mtu=1500:fw=2.1.0", &l, err, sizeof err), 0);
    CHECK_EQ(l.count, 2);
    CHECK(!strcmp(l.dev[0].name, "softA"));
    CHECK_EQ(l.dev[0].link_mtu, 9000);
    CHECK_EQ(l.dev[0].ip_be, inet_addr("127.0.0.1"));
    CHECK(!strcmp(l.dev[0].fw_ver, "0.0.0"));
    CHECK_EQ(l.dev[0].vendor_id, 0xFFFFFF);
    CHECK(!strcmp(l.dev[1].fw_ver, "2.1.0"));
    CHECK_EQ(l.dev[1].link_mtu, 1500);

    CHECK_EQ(sv_config_parse(" x@127.0.0.9:vendor_id=0x02c9:vendor_part=4119:hw_ver=3:quirk=caps-pow2"
                             ":quirk=vendor-err=0x81:quirk=accept-reset-to-rts:quirk=retry7-infinite ",
                             &l, err, sizeof err), 0);
    CHECK_EQ(l.count, 1);
    CHECK_EQ(l.dev[0].vendor_id, 0x02c9);
    CHECK_EQ(l.dev[0].vendor_part_id, 4119);
    CHECK_EQ(l.dev[0].hw_ver, 3);
    CHECK_EQ(l.dev[0].quirks, SV_QUIRK_CAPS_POW2 | SV_QUIRK_VENDOR_ERR | SV_QUIRK_ACCEPT_RESET_TO_RTS |
                                  SV_QUIRK_RETRY7_INFINITE);
    CHECK_EQ(l.dev[0].vendor_err, 0x81);

    CHECK_EQ(sv_config_parse("", &l, err, sizeof err), 0);   /* valid: no devices */
    CHECK_EQ(l.count, 0);
}

static void test_errors_name_the_bad_part(void)
{
    check_bad("softA", "device 1 'softA': expected NAME@IPV4");
    check_bad("a@127.0.0.1,b@127.0.0.300", "device 2 'b@127.0.0.300': bad IPv4 address '127.0.0.300'");
    check_bad("a b@127.0.0.1", "bad device name 'a b'");
    check_bad("@127.0.0.1", "bad device name ''");
    check_bad("a@127.0.0.1:mtu=100", "bad mtu '100'");
    check_bad("a@127.0.0.1:mtu=15x", "bad mtu '15x'");
    check_bad("a@127.0.0.1:mtu", "option 'mtu' is not KEY=VALUE");
    check_bad("a@127.0.0.1:colour=red", "unknown option 'colour'");
    check_bad("a@127.0.0.1:quirk=fast", "unknown quirk 'fast'");
    check_bad("a@127.0.0.1:quirk=vendor-err=zz", "bad vendor-err value 'zz'");
    check_bad("a@127.0.0.1:vendor_id=0x1000000", "bad vendor_id '0x1000000'");
    check_bad("a@127.0.0.1,a@127.0.0.2", "name 'a' is used twice");
    check_bad("a@127.0.0.1,b@127.0.0.1", "address is already used by 'a'");
    check_bad("a@127.0.0.1,,b@127.0.0.2", "device 2 is empty");
    check_bad("a@0.0.0.0", "not a unicast host address");
    check_bad("a@224.0.0.1", "not a unicast host address");
}

static void test_mtu_mapping(void)
{
    /* RoCE: largest IB MTU <= link MTU - RoCE overhead */
    CHECK_EQ(sv_mtu_from_link(1500), IBV_MTU_1024);
    CHECK_EQ(sv_mtu_from_link(9000), IBV_MTU_4096);
    CHECK_EQ(sv_mtu_from_link(4200), IBV_MTU_4096);
    CHECK_EQ(sv_mtu_from_link(4100), IBV_MTU_2048);
    CHECK_EQ(sv_mtu_from_link(576), IBV_MTU_256);
    CHECK_EQ(sv_mtu_bytes(IBV_MTU_1024), 1024);
}

static void test_configure_and_device_list(void)
{
    int n = -1;
    unsetenv("SOFTVERBS_DEVICES");
    struct ibv_device **list = ibv_get_device_list(&n);
    CHECK(list != NULL);
    CHECK_EQ(n, 1);
    if (list && n == 1) {
        CHECK(!strcmp(ibv_get_device_name(list[0]), "soft0"));   /* the default device */
        CHECK(!strcmp(list[0]->ibdev_path, "/sys/class/infiniband/soft0"));
    }
    ibv_free_device_list(list);

    setenv("SOFTVERBS_DEVICES", "e1@127.0.0.1,e2@127.0.0.2", 1);   /* re-read at every call */
    list = ibv_get_device_list(&n);
    CHECK_EQ(n, 2);
    if (list && n == 2) {
        CHECK(!strcmp(list[1]->name, "e2"));
        CHECK_EQ(ibv_get_device_index(list[1]), 1);
        /* node GUID = modified EUI-64 of 02:00:7f:00:00:02 */
        uint64_t guid = ibv_get_device_guid(list[1]);
        const uint8_t *g = (const uint8_t *)&guid;
        CHECK(g[0] == 0x00 && g[1] == 0x00 && g[2] == 0x7f && g[3] == 0xff && g[4] == 0xfe && g[7] == 0x02);
    }
    ibv_free_device_list(list);

    setenv("SOFTVERBS_DEVICES", "e1@127.0.0.999", 1);
    errno = 0;
    list = ibv_get_device_list(&n);
    CHECK(list == NULL);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(n, 0);
    CHECK_CONTAINS(softverbs_last_error(), "SOFTVERBS_DEVICES: device 1 'e1@127.0.0.999': bad IPv4 address");

    /* softverbs_configure overrides the environment until reset with NULL */
    CHECK_EQ(softverbs_configure("c1@127.0.0.5:fw=9.9.9"), 0);
    list = ibv_get_device_list(&n);
    CHECK_EQ(n, 1);
    if (list && n == 1)
        CHECK(!strcmp(list[0]->name, "c1"));
    ibv_free_device_list(list);
    CHECK_EQ(softverbs_configure("c1@"), EINVAL);
    CHECK_CONTAINS(softverbs_last_error(), "softverbs_configure: device 1 'c1@': bad IPv4 address ''");
    list = ibv_get_device_list(&n);   /* a refused configure changes nothing */
    CHECK_EQ(n, 1);
    ibv_free_device_list(list);
    CHECK_EQ(softverbs_configure(NULL), 0);
    setenv("SOFTVERBS_DEVICES", "back@127.0.0.1", 1);
    list = ibv_get_device_list(&n);
    CHECK_EQ(n, 1);
    if (list && n == 1)
        CHECK(!strcmp(list[0]->name, "back"));
    ibv_free_device_list(list);
    unsetenv("SOFTVERBS_DEVICES");
}

/* NAME@IFNAME and netdev=: the interface's addresses, MTU and index, read as they are now (lo is
 * the one interface every host has; 127/8 is all lo's, so any 127.x address is one of its own). */
static void test_netdev(void)
{
    struct sv_devcfg_list l;
    char err[512] = "";
    CHECK_EQ(sv_config_parse("x@lo", &l, err, sizeof err), 0);
    CHECK_EQ(l.count, 1);
    CHECK(!strcmp(l.dev[0].netdev.name, "lo"));
    CHECK_EQ(l.dev[0].netdev.ifindex, if_nametoindex("lo"));
    CHECK_EQ(ntohl(l.dev[0].ip_be) >> 24, 127);              /* lo's first IPv4 address */
    CHECK_EQ(l.dev[0].ip_be, l.dev[0].netdev.ipv4_be[0]);
    CHECK_EQ(l.dev[0].link_mtu, 9216);                       /* lo's 65536, at the jumbo ceiling */

    CHECK_EQ(sv_config_parse("y@127.51.3.9:netdev=lo:mtu=1500,z@127.51.3.10", &l, err, sizeof err), 0);
    CHECK_EQ(l.count, 2);
    CHECK_EQ(l.dev[0].ip_be, inet_addr("127.51.3.9"));
    CHECK_EQ(l.dev[0].netdev.ipv4_be[0], inet_addr("127.51.3.9"));
    CHECK_EQ(l.dev[0].link_mtu, 1500);                       /* mtu= wins over the interface's */
    CHECK(l.dev[1].netdev.name[0] == '\0');                  /* a bare address as before */

    check_bad("x@nosuchif0", "device 1 'x@nosuchif0': no network interface 'nosuchif0'");
    check_bad("x@10.99.99.99:netdev=lo", "10.99.99.99 is not an address of interface 'lo'");
    check_bad("x@lo:netdev=lo", "netdev given twice");
    check_bad("x@127.0.0.1:netdev=a/b", "bad netdev 'a/b'");
    check_bad("x@lo,y@lo", "device 2 'y@lo': interface 'lo' already carries 'x'");
    check_bad("x@averyveryverylongifname", "bad address 'averyveryverylongifname'");
}

/* A bound device's GID table, ndev_ifindex and sysfs netdev, through the verbs a program calls. */
static void test_netdev_gids(void)
{
    CHECK_EQ(softverbs_configure("g@127.51.3.9:netdev=lo"), 0);
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    CHECK_EQ(n, 1);
    struct ibv_context *ctx = list && n == 1 ? ibv_open_device(list[0]) : NULL;
    CHECK(ctx != NULL);
    if (ctx) {
        struct ibv_gid_entry e;
        CHECK_EQ(ibv_query_gid_ex(ctx, 1, 3, &e, 0), 0);
        CHECK_EQ(e.gid_type, IBV_GID_TYPE_ROCE_V2);
        CHECK_EQ(e.ndev_ifindex, if_nametoindex("lo"));
        uint32_t ip;
        memcpy(&ip, e.gid.raw + 12, 4);
        CHECK_EQ(ip, inet_addr("127.51.3.9"));               /* the device's own address at 3 */
        CHECK_EQ(e.gid.raw[10], 0xFF);
        CHECK_EQ(ibv_query_gid_ex(ctx, 1, 0, &e, 0), 0);
        CHECK_EQ(e.gid.raw[0], 0xFE);                        /* the default GID first */
        CHECK_EQ(e.gid_type, IBV_GID_TYPE_ROCE_V1);
        /* every entry carries lo; past the populated ones ENODATA */
        int used = 0;
        while (used < 64 && ibv_query_gid_ex(ctx, 1, (uint32_t)used, &e, 0) == 0) {
            CHECK_EQ(e.ndev_ifindex, if_nametoindex("lo"));
            used++;
        }
        CHECK(used >= 4 && used % 2 == 0);
        CHECK_EQ(ibv_query_gid_ex(ctx, 1, (uint32_t)used, &e, 0), ENODATA);
        char buf[32] = "";
        CHECK(ibv_read_sysfs_file(list[0]->ibdev_path, "ports/1/gid_attrs/ndevs/3", buf, sizeof buf) > 0);
        CHECK(!strcmp(buf, "lo"));
        CHECK(ibv_read_sysfs_file(list[0]->ibdev_path, "ports/1/gid_attrs/types/3", buf, sizeof buf) > 0);
        CHECK(!strcmp(buf, "RoCE v2"));
        ibv_close_device(ctx);
    }
    ibv_free_device_list(list);
    CHECK_EQ(softverbs_configure(NULL), 0);
}

int main(void)
{
    test_netdev();
    test_netdev_gids();
    test_valid();
    test_errors_name_the_bad_part();
    test_mtu_mapping();
    test_configure_and_device_list();
    return sv_check_report("test_sv_config");
}
