/* Device configuration: SOFTVERBS_DEVICES syntax, errors that name the bad part, defaults,
 * softverbs_configure() and the device list it produces. */
#include <arpa/inet.h>
#include <errno.h>
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

int main(void)
{
    test_valid();
    test_errors_name_the_bad_part();
    test_mtu_mapping();
    test_configure_and_device_list();
    return sv_check_report("test_sv_config");
}
