/*
 * The libibverbs function table ("ibvwrap"): libibverbs is never linked; one dlopen'ed copy
 * (system library, softverbs or any path) is reached only through this struct, so two different
 * libraries can live in one process and an inline helper from verbs.h that needs an exported
 * symbol fails the -z,defs link instead of the JVM.
 */
#ifndef RDMATRACE_IBVWRAP_H
#define RDMATRACE_IBVWRAP_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct ibvwrap {
    void *handle;              /* from dlopen */
    char path[4096];           /* the file ld.so actually mapped */

    /* exported verbs, each looked up with the symbol version rdma-core gives it */
    struct ibv_device **(*get_device_list)(int *num_devices);
    void (*free_device_list)(struct ibv_device **list);
    const char *(*get_device_name)(struct ibv_device *device);
    __be64 (*get_device_guid)(struct ibv_device *device);
    struct ibv_context *(*open_device)(struct ibv_device *device);
    int (*close_device)(struct ibv_context *context);
    int (*query_device)(struct ibv_context *context, struct ibv_device_attr *attr);
    int (*query_port)(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *attr);
    int (*query_gid)(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid);
    int (*query_gid_ex)(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
                        struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size);
    int (*query_pkey)(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey);
    struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
    int (*dealloc_pd)(struct ibv_pd *pd);
    struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access);
    int (*dereg_mr)(struct ibv_mr *mr);
    struct ibv_comp_channel *(*create_comp_channel)(struct ibv_context *context);
    int (*destroy_comp_channel)(struct ibv_comp_channel *channel);
    struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe, void *cq_context,
                                struct ibv_comp_channel *channel, int comp_vector);
    int (*destroy_cq)(struct ibv_cq *cq);
    int (*get_cq_event)(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context);
    void (*ack_cq_events)(struct ibv_cq *cq, unsigned int nevents);
    struct ibv_qp *(*create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
    int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
    int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
                    struct ibv_qp_init_attr *init_attr);
    int (*destroy_qp)(struct ibv_qp *qp);
    struct ibv_ah *(*create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr);
    int (*destroy_ah)(struct ibv_ah *ah);
    int (*get_async_event)(struct ibv_context *context, struct ibv_async_event *event);
    void (*ack_async_event)(struct ibv_async_event *event);

    /* softverbs extras: NULL on any other libibverbs */
    int (*softverbs_configure)(const char *spec);
    const char *(*softverbs_last_error)(void);
    int (*softverbs_query_counters)(struct ibv_context *context, const char **names,
                                    uint64_t *values, int max);
    int (*softverbs_wire)(const char *dir);
};

/*
 * Loads the library at `path` (a file path or a bare soname) and fills a new table.
 * On failure returns NULL with a one-line reason in errbuf.
 */
struct ibvwrap *ibvwrap_open(const char *path, char *errbuf, size_t errlen);

/*
 * A bare soname ("libibverbs.so.1", "librdmacm.so.1") as the file the dynamic linker's search path
 * finds (so dlopen cannot hand back another library already loaded under that soname); a path, or a
 * name no directory has, is copied as it is.
 */
void ibvwrap_resolve_soname(const char *name, char *out, size_t outlen);

/*
 * dlopen()s path (a bare soname resolved as above) with RTLD_NOW | RTLD_LOCAL, so its symbols
 * satisfy nobody else's lookups in the JVM, and writes the file it loaded into loaded (the path
 * itself when the link map does not tell). The handle, or NULL with dlerror()'s text in errbuf.
 */
void *ibvwrap_dlopen_local(const char *path, char *loaded, size_t loadedlen, char *errbuf, size_t errlen);

/* Releases the table and drops this table's dlopen reference. */
void ibvwrap_close(struct ibvwrap *w);

#endif
