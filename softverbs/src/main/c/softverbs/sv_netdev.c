/* A device bound to a network interface (SOFTVERBS_DEVICES NAME@IFNAME, or NAME@IP:netdev=IFNAME):
 * the interface's index, MAC, link state, MTU and addresses, read with getifaddrs each time the
 * configuration is read - as a RoCE NIC's GID cache follows its netdev's addresses. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sv_loc.h"

bool sv_netdev_valid_name(const char *s)
{
    /* the kernel's dev_valid_name: 1-15 bytes, not . or .., no '/', ':' or white space */
    size_t n = strlen(s);
    if (n == 0 || n >= IF_NAMESIZE || !strcmp(s, ".") || !strcmp(s, ".."))
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == ':' || s[i] == ',' || s[i] <= ' ' || s[i] == 0x7F)
            return false;
    return true;
}

static uint32_t read_mtu(const char *ifname)
{
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
    uint32_t mtu = ioctl(fd, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu > 0 ? (uint32_t)ifr.ifr_mtu : 0;
    close(fd);
    return mtu;
}

static bool in_prefix(uint32_t a_be, uint32_t net_be, uint32_t mask_be)
{
    return (a_be & mask_be) == (net_be & mask_be);
}

/* Collects the interface's addresses in getifaddrs' (the kernel's) order. */
static void collect(const struct ifaddrs *list, const char *ifname, struct sv_netdev *nd,
                    uint32_t want_ip_be, bool *want_found, bool *loopback)
{
    for (const struct ifaddrs *ifa = list; ifa; ifa = ifa->ifa_next) {
        if (!ifa->ifa_addr || strcmp(ifa->ifa_name, ifname) != 0)
            continue;
        int family = ifa->ifa_addr->sa_family;
        if (family == AF_PACKET) {
            const struct sockaddr_ll *ll = (const struct sockaddr_ll *)ifa->ifa_addr;
            if (ll->sll_halen == 6)
                memcpy(nd->mac, ll->sll_addr, 6);
            nd->up = (ifa->ifa_flags & IFF_UP) && (ifa->ifa_flags & IFF_RUNNING);
            *loopback = (ifa->ifa_flags & IFF_LOOPBACK) != 0;
        } else if (family == AF_INET) {
            uint32_t a = ((const struct sockaddr_in *)ifa->ifa_addr)->sin_addr.s_addr;
            uint32_t m = ifa->ifa_netmask ? ((const struct sockaddr_in *)ifa->ifa_netmask)->sin_addr.s_addr
                                          : 0xFFFFFFFFu;
            *loopback |= (ifa->ifa_flags & IFF_LOOPBACK) != 0;
            if (want_ip_be == a || (*loopback && want_ip_be && in_prefix(want_ip_be, a, m)))
                *want_found = true;
            if (a != want_ip_be && nd->n_ipv4 < SV_NETDEV_MAX_ADDRS)
                nd->ipv4_be[nd->n_ipv4++] = a;
        } else if (family == AF_INET6 && nd->n_ipv6 < SV_NETDEV_MAX_ADDRS) {
            nd->ipv6[nd->n_ipv6++] = ((const struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr;
        }
    }
}

int sv_netdev_read(const char *ifname, uint32_t want_ip_be, struct sv_netdev *nd, char *why, size_t whylen)
{
    if (!ifname || !nd || !why) {
        if (why)
            snprintf(why, whylen, "no interface given");
        return EINVAL;
    }
    memset(nd, 0, sizeof *nd);
    if (!sv_netdev_valid_name(ifname)) {
        snprintf(why, whylen, "bad interface name '%s' (1-15 characters, no '/', ':', ',' or spaces)", ifname);
        return EINVAL;
    }
    snprintf(nd->name, sizeof nd->name, "%s", ifname);
    nd->ifindex = if_nametoindex(ifname);
    if (nd->ifindex == 0) {
        snprintf(why, whylen, "no network interface '%s' (in this network namespace)", ifname);
        return EINVAL;
    }
    struct ifaddrs *list;
    if (getifaddrs(&list) != 0) {
        snprintf(why, whylen, "cannot read the addresses of '%s': %s", ifname, strerror(errno));
        return EINVAL;
    }
    /* the device's own address goes first, the others follow in the interface's order */
    if (want_ip_be)
        nd->ipv4_be[nd->n_ipv4++] = want_ip_be;
    bool want_found = false, loopback = false;
    collect(list, ifname, nd, want_ip_be, &want_found, &loopback);
    freeifaddrs(list);
    nd->mtu = read_mtu(ifname);
    char ip[INET_ADDRSTRLEN];
    if (want_ip_be && !want_found) {
        inet_ntop(AF_INET, &want_ip_be, ip, sizeof ip);
        snprintf(why, whylen, "%s is not an address of interface '%s'%s", ip, ifname,
                 nd->n_ipv4 > 1 ? "" : " (it has no IPv4 address)");
        return EINVAL;
    }
    if (nd->n_ipv4 == 0) {
        snprintf(why, whylen, "interface '%s' has no IPv4 address (softverbs carries RoCE v2 over IPv4; "
                 "e.g. ip addr add 10.0.0.1/24 dev %s)", ifname, ifname);
        return EINVAL;
    }
    return 0;
}
