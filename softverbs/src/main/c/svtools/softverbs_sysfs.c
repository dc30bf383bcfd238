/* softverbs-sysfs: writes the softverbs devices' sysfs facts as files, for a mount namespace to
 * show at /sys/class/infiniband and /dev/infiniband (softverbs/src/main/sh/softverbs-hosts.sh does).
 * Middleware reads these files itself instead of asking libibverbs: UCX stats
 * /dev/infiniband/<dev_name> before it offers a device and reads the GID types and netdevs from
 * /sys/class/infiniband/<dev>/ports/1/gid_attrs/. The contents come from the library's own
 * virtual sysfs (ibv_read_sysfs_file), so the files and the verbs answers cannot differ.
 *
 *   softverbs-sysfs CLASS_DIR DEV_DIR   (e.g. a tmpfs later shown as /sys/class/infiniband and
 *                                        /dev/infiniband; the devices of SOFTVERBS_DEVICES)
 * Exit 0, 1 when a file could not be written, 2 usage or no device list. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* libibverbs' sysfs reader (infiniband/driver.h, IBVERBS_1.0); softverbs answers it itself */
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

static const char *const device_files[] = {"node_type", "fw_ver", "node_guid", "sys_image_guid", "node_desc"};
static const char *const port_files[] = {"state", "phys_state", "link_layer", "pkeys/0"};
static const char *const gid_files[] = {"gids/%d", "gid_attrs/types/%d", "gid_attrs/ndevs/%d"};

static int mkdirs(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    }
    return mkdir(p, 0755) && errno != EEXIST ? -1 : 0;
}

static int write_file(const char *path, const char *text)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
        if (mkdirs(dir))
            return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = fprintf(f, "%s\n", text) < 0 ? -1 : 0;   /* sysfs attributes end in a newline */
    return fclose(f) || rc ? -1 : 0;
}

/* Copies one attribute; a file the library does not have is skipped (0). */
static int copy_attr(struct ibv_device *d, const char *cls, const char *file)
{
    char buf[256], path[4096];
    if (ibv_read_sysfs_file(d->ibdev_path, file, buf, sizeof buf) < 0)
        return 0;
    buf[strcspn(buf, "\n")] = '\0';
    snprintf(path, sizeof path, "%s/%s/%s", cls, d->name, file);
    if (write_file(path, buf)) {
        fprintf(stderr, "softverbs-sysfs: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int export_device(struct ibv_device *d, const char *cls, const char *devdir)
{
    int bad = 0;
    char file[64], path[4096];
    for (size_t i = 0; i < sizeof device_files / sizeof *device_files; i++)
        bad |= copy_attr(d, cls, device_files[i]);
    for (size_t i = 0; i < sizeof port_files / sizeof *port_files; i++) {
        snprintf(file, sizeof file, "ports/1/%s", port_files[i]);
        bad |= copy_attr(d, cls, file);
    }
    /* populated GIDs: those with a type (the kernel has none for an empty slot); no open, so a
     * device another process holds is exported too */
    int n = 0;
    char buf[64];
    while (n < 1024) {
        snprintf(file, sizeof file, "ports/1/gid_attrs/types/%d", n);
        if (ibv_read_sysfs_file(d->ibdev_path, file, buf, sizeof buf) < 0)
            break;
        n++;
    }
    for (int g = 0; g < n; g++)
        for (size_t i = 0; i < sizeof gid_files / sizeof *gid_files; i++) {
            char rel[48];
            snprintf(rel, sizeof rel, gid_files[i], g);
            snprintf(file, sizeof file, "ports/1/%s", rel);
            bad |= copy_attr(d, cls, file);
        }
    /* UCX offers a device only if /dev/infiniband/<dev_name> is a character device it may read
     * and write. The node gets the kernel's uverbs numbers (major 231, minor 192 + index); with no
     * uverbs driver behind it an open fails with ENXIO - and nothing opens it on softverbs. */
    snprintf(path, sizeof path, "%s/%s", devdir, d->dev_name);
    unsigned idx = 0;
    sscanf(d->dev_name, "uverbs%u", &idx);
    if (mkdirs(devdir) || ((mknod(path, S_IFCHR | 0666, makedev(231, 192 + idx)) || chmod(path, 0666)) &&
                           errno != EEXIST)) {
        fprintf(stderr, "softverbs-sysfs: cannot make the character device %s: %s\n", path, strerror(errno));
        return -1;
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 3 || !*argv[1] || !*argv[2]) {
        fprintf(stderr, "usage: softverbs-sysfs CLASS_DIR DEV_DIR\n"
                        "writes the sysfs files of the SOFTVERBS_DEVICES devices into CLASS_DIR/<device>/ and an\n"
                        "uverbs character device per device into DEV_DIR (shown at /sys/class/infiniband and\n"
                        "/dev/infiniband in a mount namespace)\n");
        return 2;
    }
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list) {
        fprintf(stderr, "softverbs-sysfs: no device list: %s\n", strerror(errno));
        return 2;
    }
    int bad = mkdirs(argv[1]) ? -1 : 0;
    for (int i = 0; i < n; i++)
        bad |= export_device(list[i], argv[1], argv[2]);
    ibv_free_device_list(list);
    return bad ? 1 : 0;
}
