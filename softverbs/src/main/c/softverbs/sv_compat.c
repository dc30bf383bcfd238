/* The rest of the libibverbs ABI: fork support (nothing to do - softverbs pins nothing), the
 * sysfs helpers (softverbs devices have a virtual sysfs, see sv_counters.c), and verbs that
 * softverbs does not implement, each failing the way libibverbs does for a provider without
 * them (EOPNOTSUPP / NULL). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sv_loc.h"

int ibv_fork_init(void)
{
    return 0;
}

enum ibv_fork_status ibv_is_fork_initialized(void)
{
    return IBV_FORK_UNNEEDED;   /* no pinned pages: a fork cannot corrupt registrations */
}

int ibv_dontfork_range(void *base, size_t size)
{
    return 0;
}

int ibv_dofork_range(void *base, size_t size)
{
    return 0;
}

const char *ibv_get_sysfs_path(void)
{
    return "/sys";
}

int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)
{
    if (!dir || !file || !buf || size == 0) {
        errno = EINVAL;
        return -1;
    }
    int n = sv_sysfs_read(dir, file, buf, size);
    if (n >= 0 || errno != ENOENT)
        return n;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t len = read(fd, buf, size);
    close(fd);
    if (len <= 0)
        return -1;
    if ((size_t)len < size)
        buf[len] = '\0';
    else
        buf[size - 1] = '\0';
    if (len > 0 && buf[len - 1] == '\n')
        buf[--len] = '\0';
    return (int)len;
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
    return EOPNOTSUPP;   /* max_mcast_grp is 0 */
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
    return EOPNOTSUPP;
}

int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)
{
    return 1;   /* packets are placed in PSN order */
}

struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)
{
    errno = EOPNOTSUPP;
    return NULL;
}

void ibv_unimport_dm(struct ibv_dm *dm)
{
}

int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
    return EOPNOTSUPP;
}

int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
    return EOPNOTSUPP;
}
