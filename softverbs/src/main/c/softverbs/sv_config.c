/* Device configuration: the SOFTVERBS_DEVICES syntax, softverbs_configure() and
 * softverbs_last_error().
 *
 *   SOFTVERBS_DEVICES = DEVICE[,DEVICE...]
 *   DEVICE            = NAME@IPV4[:KEY=VALUE...] | NAME@IFNAME[:KEY=VALUE...]
 *   KEY               = mtu | fw | vendor_id | vendor_part | hw_ver | gid | quirk | netdev | profile
 *
 * NAME@IFNAME (or NAME@IPV4:netdev=IFNAME) binds the device to a network interface: its
 * address, MTU, MAC and GID table come from the interface (sv_netdev.c). profile=NAME
 * (sv_profile.c) is applied before the other keys, so they override its identity.
 *
 * The config is re-read at every ibv_get_device_list; a malformed one is refused as a whole
 * with a message naming the bad part. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "softverbs.h"
#include "sv_loc.h"
#include "verbs_abi.h"   /* IBV_MTU_BYTES: generated from verbs-abi's MTU table */

#define SV_DEFAULT_SPEC   "soft0@127.0.0.1"
#define SV_MIN_LINK_MTU   576      /* smallest IPv4 MTU every host must accept */
#define SV_MAX_LINK_MTU   9216     /* common jumbo-frame ceiling */
#define SV_ERR_LEN        512

/* The config set by softverbs_configure (replaces SOFTVERBS_DEVICES until reset with NULL)
 * and the last error; process-wide because the libibverbs ABI has no handle to hang them on. */
static pthread_mutex_t g_config_lock = PTHREAD_MUTEX_INITIALIZER;
static bool g_have_override;
static struct sv_devcfg_list g_override;
static char g_last_error[SV_ERR_LEN];
static char g_last_env_error[SV_ERR_LEN];   /* printed to stderr once, not on every call */
static _Thread_local char t_error_copy[SV_ERR_LEN];

void sv_error_set(const char *fmt, ...)
{
    char msg[SV_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&g_config_lock);
    memcpy(g_last_error, msg, sizeof msg);
    pthread_mutex_unlock(&g_config_lock);
}

const char *softverbs_last_error(void)
{
    pthread_mutex_lock(&g_config_lock);
    memcpy(t_error_copy, g_last_error, sizeof t_error_copy);
    pthread_mutex_unlock(&g_config_lock);
    return t_error_copy;
}

enum ibv_mtu sv_mtu_from_link(uint32_t link_mtu)
{
    /* rxe: netdev MTU minus the RoCE headers, rounded down to an IB MTU, clamped to 256..4096 */
    uint32_t ib = link_mtu > SV_ROCE_OVERHEAD ? link_mtu - SV_ROCE_OVERHEAD : 0;
    for (enum ibv_mtu m = IBV_MTU_4096; m > IBV_MTU_256; m--)
        if (sv_mtu_bytes(m) <= ib)
            return m;
    return IBV_MTU_256;
}

uint32_t sv_mtu_bytes(enum ibv_mtu mtu)
{
    switch (mtu) {
#define SV_MTU_CASE_(name, bytes) case name: return bytes;
    IBV_MTU_BYTES(SV_MTU_CASE_)
#undef SV_MTU_CASE_
    }
    return 0;
}

static void cfg_defaults(struct sv_devcfg *d)
{
    memset(d, 0, sizeof *d);
    d->link_mtu = 1500;
    snprintf(d->fw_ver, sizeof d->fw_ver, "0.0.0");   /* what rxe reports */
    d->vendor_id = 0xFFFFFF;                            /* current rxe: IBTA "no OUI" */
    sv_profile_default_limits(&d->lim);
}

static bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
    if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v > max)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= IBV_SYSFS_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
            return false;
    return true;
}

static bool valid_fw(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isgraph((unsigned char)s[i]))
            return false;
    return true;
}

static int parse_quirk(struct sv_devcfg *d, const char *v, char *why, size_t whylen)
{
    if (!strcmp(v, "accept-reset-to-rts")) {
        d->quirks |= SV_QUIRK_ACCEPT_RESET_TO_RTS;
    } else if (!strcmp(v, "caps-pow2")) {
        d->quirks |= SV_QUIRK_CAPS_POW2;
    } else if (!strcmp(v, "retry7-infinite")) {
        d->quirks |= SV_QUIRK_RETRY7_INFINITE;
    } else if (!strncmp(v, "vendor-err=", 11)) {
        if (!parse_u32(v + 11, UINT32_MAX, &d->vendor_err)) {
            snprintf(why, whylen, "bad vendor-err value '%s' (a number such as 0x81)", v + 11);
            return EINVAL;
        }
        d->quirks |= SV_QUIRK_VENDOR_ERR;
    } else {
        snprintf(why, whylen, "unknown quirk '%s' (known: accept-reset-to-rts, caps-pow2, "
                 "vendor-err=N, retry7-infinite)", v);
        return EINVAL;
    }
    return 0;
}

static int parse_option(struct sv_devcfg *d, char *opt, char *why, size_t whylen)
{
    char *eq = strchr(opt, '=');
    if (!eq || eq == opt || !eq[1]) {
        snprintf(why, whylen, "option '%s' is not KEY=VALUE", opt);
        return EINVAL;
    }
    *eq = '\0';
    const char *k = opt, *v = eq + 1;
    if (!strcmp(k, "mtu")) {
        if (!parse_u32(v, SV_MAX_LINK_MTU, &d->link_mtu) || d->link_mtu < SV_MIN_LINK_MTU) {
            snprintf(why, whylen, "bad mtu '%s' (link MTU in bytes, %d..%d)", v,
                     SV_MIN_LINK_MTU, SV_MAX_LINK_MTU);
            return EINVAL;
        }
        d->mtu_given = true;
    } else if (!strcmp(k, "netdev")) {
        if (d->netdev.name[0]) {
            snprintf(why, whylen, "netdev given twice (NAME@IFNAME already names the interface)");
            return EINVAL;
        }
        if (!sv_netdev_valid_name(v)) {
            snprintf(why, whylen, "bad netdev '%s' (an interface name, 1-15 characters)", v);
            return EINVAL;
        }
        snprintf(d->netdev.name, sizeof d->netdev.name, "%s", v);
    } else if (!strcmp(k, "fw")) {
        if (!valid_fw(v)) {
            snprintf(why, whylen, "bad fw '%s' (1-63 printable characters, no spaces)", v);
            return EINVAL;
        }
        snprintf(d->fw_ver, sizeof d->fw_ver, "%s", v);
    } else if (!strcmp(k, "vendor_id")) {
        if (!parse_u32(v, 0xFFFFFF, &d->vendor_id)) {
            snprintf(why, whylen, "bad vendor_id '%s' (24-bit OUI such as 0x02c9)", v);
            return EINVAL;
        }
    } else if (!strcmp(k, "vendor_part") || !strcmp(k, "vendor_part_id")) {
        if (!parse_u32(v, UINT32_MAX, &d->vendor_part_id)) {
            snprintf(why, whylen, "bad vendor_part '%s' (a number)", v);
            return EINVAL;
        }
    } else if (!strcmp(k, "hw_ver")) {
        if (!parse_u32(v, UINT32_MAX, &d->hw_ver)) {
            snprintf(why, whylen, "bad hw_ver '%s' (a number)", v);
            return EINVAL;
        }
    } else if (!strcmp(k, "gid")) {
        if (!strcmp(v, "mlx5")) {
            d->gid_layout = SV_GID_LAYOUT_MLX5;
        } else if (!strcmp(v, "rxe")) {
            d->gid_layout = SV_GID_LAYOUT_RXE;
        } else {
            snprintf(why, whylen, "bad gid '%s' (GID table layout: mlx5 or rxe)", v);
            return EINVAL;
        }
    } else if (!strcmp(k, "quirk")) {
        return parse_quirk(d, v, why, whylen);
    } else if (!strcmp(k, "profile")) {
        if (d->profile[0]) {
            snprintf(why, whylen, "profile given twice");
            return EINVAL;
        }
        return sv_profile_apply(d, v, why, whylen);
    } else {
        snprintf(why, whylen, "unknown option '%s' (known: mtu, fw, vendor_id, vendor_part, "
                 "hw_ver, gid, quirk, netdev, profile)", k);
        return EINVAL;
    }
    return 0;
}

/* An address part of only digits and dots (or none) is meant as IPv4, and refused as such. */
static bool looks_like_ipv4(const char *s)
{
    return strspn(s, "0123456789.") == strlen(s);
}

static int parse_address(struct sv_devcfg *d, const char *ip, char *why, size_t whylen)
{
    struct in_addr a;
    if (inet_pton(AF_INET, ip, &a) != 1) {
        snprintf(why, whylen, "bad IPv4 address '%s'", ip);
        return EINVAL;
    }
    uint32_t host = ntohl(a.s_addr);
    if (host == 0 || host == 0xFFFFFFFFu || (host >> 28) == 0xE) {
        snprintf(why, whylen, "IPv4 address '%s' is not a unicast host address", ip);
        return EINVAL;
    }
    d->ip_be = a.s_addr;
    return 0;
}

/* A bound device: address, MTU and GID sources from the interface as it is now. */
static int bind_netdev(struct sv_devcfg *d, char *why, size_t whylen)
{
    char ifname[IF_NAMESIZE];
    snprintf(ifname, sizeof ifname, "%s", d->netdev.name);
    int rc = sv_netdev_read(ifname, d->ip_be, &d->netdev, why, whylen);
    if (rc)
        return rc;
    d->ip_be = d->netdev.ipv4_be[0];
    if (!d->mtu_given) {   /* a RoCE port's MTU follows its netdev's (lo's 65536 is past any IB MTU) */
        uint32_t m = d->netdev.mtu;
        d->link_mtu = m > SV_MAX_LINK_MTU ? SV_MAX_LINK_MTU : m < SV_MIN_LINK_MTU ? SV_MIN_LINK_MTU : m;
    }
    return 0;
}

static int parse_device(struct sv_devcfg *d, char *item, char *why, size_t whylen)
{
    cfg_defaults(d);
    char *at = strchr(item, '@');
    if (!at) {
        snprintf(why, whylen, "expected NAME@IPV4[:KEY=VALUE...] or NAME@IFNAME[:KEY=VALUE...]");
        return EINVAL;
    }
    *at = '\0';
    if (!valid_name(item)) {
        snprintf(why, whylen, "bad device name '%s' (1-63 of A-Z a-z 0-9 _ - .)", item);
        return EINVAL;
    }
    snprintf(d->name, sizeof d->name, "%s", item);

    char *addr = at + 1;
    char *opts = strchr(addr, ':');
    if (opts)
        *opts++ = '\0';
    if (looks_like_ipv4(addr)) {
        int rc = parse_address(d, addr, why, whylen);
        if (rc)
            return rc;
    } else if (sv_netdev_valid_name(addr)) {
        snprintf(d->netdev.name, sizeof d->netdev.name, "%s", addr);
    } else {
        snprintf(why, whylen, "bad address '%s' (an IPv4 address or an interface name)", addr);
        return EINVAL;
    }

    /* profile= first (it sets identity and limits), then the rest in order */
    char *opt[32];
    bool first[32];
    int n = 0;
    while (opts) {
        if (n == (int)SV_ARRAY_SIZE(opt)) {
            snprintf(why, whylen, "more than %d options", n);
            return EINVAL;
        }
        first[n] = strncmp(opts, "profile=", 8) == 0;
        opt[n++] = opts;
        opts = strchr(opts, ':');
        if (opts)
            *opts++ = '\0';
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            if (first[i] != (pass == 0))
                continue;
            int rc = parse_option(d, opt[i], why, whylen);
            if (rc)
                return rc;
        }
    }
    return d->netdev.name[0] ? bind_netdev(d, why, whylen) : 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int sv_config_parse(const char *spec, struct sv_devcfg_list *out, char *err, size_t errlen)
{
    if (!spec || !out) {
        snprintf(err, errlen, "no device spec given");
        return EINVAL;
    }
    memset(out, 0, sizeof *out);
    char *copy = strdup(spec);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return ENOMEM;
    }
    int rc = 0;
    char *s = trim(copy);
    if (*s == '\0')
        goto done;   /* an empty spec is a valid "no devices" */
    int pos = 0;
    for (char *item = s; item; pos++) {
        char *next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        item = trim(item);
        char shown[128];
        snprintf(shown, sizeof shown, "%s", item);
        char why[256] = "";
        if (out->count == SV_MAX_DEVICES) {
            snprintf(err, errlen, "more than %d devices", SV_MAX_DEVICES);
            rc = EINVAL;
            goto done;
        }
        struct sv_devcfg *d = &out->dev[out->count];
        if (*item == '\0') {
            snprintf(err, errlen, "device %d is empty (stray ',')", pos + 1);
            rc = EINVAL;
            goto done;
        }
        if (parse_device(d, item, why, sizeof why)) {
            snprintf(err, errlen, "device %d '%s': %s", pos + 1, shown, why);
            rc = EINVAL;
            goto done;
        }
        for (int i = 0; i < out->count; i++) {
            if (!strcmp(out->dev[i].name, d->name)) {
                snprintf(err, errlen, "device %d '%s': name '%s' is used twice", pos + 1, shown, d->name);
                rc = EINVAL;
                goto done;
            }
            if (d->netdev.name[0] && !strcmp(out->dev[i].netdev.name, d->netdev.name)) {
                snprintf(err, errlen, "device %d '%s': interface '%s' already carries '%s' "
                         "(one RoCE device per interface)", pos + 1, shown, d->netdev.name, out->dev[i].name);
                rc = EINVAL;
                goto done;
            }
            if (out->dev[i].ip_be == d->ip_be) {
                snprintf(err, errlen, "device %d '%s': address is already used by '%s' "
                         "(one device per IPv4 address)", pos + 1, shown, out->dev[i].name);
                rc = EINVAL;
                goto done;
            }
        }
        out->count++;
        item = next;
    }
done:
    free(copy);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

int sv_config_current(struct sv_devcfg_list *out)
{
    pthread_mutex_lock(&g_config_lock);
    bool have = g_have_override;
    if (have)
        *out = g_override;
    pthread_mutex_unlock(&g_config_lock);
    if (have)
        return 0;

    const char *env = getenv("SOFTVERBS_DEVICES");
    char err[SV_ERR_LEN - 64];
    int rc = sv_config_parse(env ? env : SV_DEFAULT_SPEC, out, err, sizeof err);
    if (rc) {
        char msg[SV_ERR_LEN];
        snprintf(msg, sizeof msg, "SOFTVERBS_DEVICES: %s", err);
        sv_error_set("%s", msg);
        /* unmodified tools only print strerror(EINVAL); say once what is wrong */
        pthread_mutex_lock(&g_config_lock);
        bool fresh = strcmp(g_last_env_error, msg) != 0;
        if (fresh)
            memcpy(g_last_env_error, msg, sizeof msg);
        pthread_mutex_unlock(&g_config_lock);
        if (fresh)
            fprintf(stderr, "softverbs: %s\n", msg);
    }
    return rc;
}

int softverbs_configure(const char *spec)
{
    if (!spec) {   /* back to SOFTVERBS_DEVICES */
        pthread_mutex_lock(&g_config_lock);
        g_have_override = false;
        pthread_mutex_unlock(&g_config_lock);
        return 0;
    }
    struct sv_devcfg_list parsed;
    char err[SV_ERR_LEN - 64];
    int rc = sv_config_parse(spec, &parsed, err, sizeof err);
    if (rc) {
        sv_error_set("softverbs_configure: %s", err);
        return EINVAL;
    }
    pthread_mutex_lock(&g_config_lock);
    g_override = parsed;
    g_have_override = true;
    pthread_mutex_unlock(&g_config_lock);
    return 0;
}
