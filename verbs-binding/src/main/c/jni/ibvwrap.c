/* Loader for the libibverbs function table: dlopen + dlvsym with the version rdma-core exports. */
#include "ibvwrap.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One row per exported verb: where it goes in the table and the version rdma-core binds it at. */
struct symbol_row {
    const char *name;
    const char *version;
    size_t offset;
    int required;
};

#define ROW(field, name, version, required) { name, version, offsetof(struct ibvwrap, field), required }

static const struct symbol_row symbol_rows[] = {
    ROW(get_device_list,      "ibv_get_device_list",      "IBVERBS_1.1",  1),
    ROW(free_device_list,     "ibv_free_device_list",     "IBVERBS_1.1",  1),
    ROW(get_device_name,      "ibv_get_device_name",      "IBVERBS_1.1",  1),
    ROW(get_device_guid,      "ibv_get_device_guid",      "IBVERBS_1.1",  0),
    ROW(open_device,          "ibv_open_device",          "IBVERBS_1.1",  1),
    ROW(close_device,         "ibv_close_device",         "IBVERBS_1.1",  1),
    ROW(query_device,         "ibv_query_device",         "IBVERBS_1.1",  0),
    ROW(query_port,           "ibv_query_port",           "IBVERBS_1.1",  0),
    ROW(query_gid,            "ibv_query_gid",            "IBVERBS_1.1",  0),
    ROW(query_gid_ex,         "_ibv_query_gid_ex",        "IBVERBS_1.11", 0),
    ROW(query_pkey,           "ibv_query_pkey",           "IBVERBS_1.1",  0),
    ROW(alloc_pd,             "ibv_alloc_pd",             "IBVERBS_1.1",  0),
    ROW(dealloc_pd,           "ibv_dealloc_pd",           "IBVERBS_1.1",  0),
    ROW(reg_mr,               "ibv_reg_mr",               "IBVERBS_1.1",  0),
    ROW(dereg_mr,             "ibv_dereg_mr",             "IBVERBS_1.1",  0),
    ROW(create_comp_channel,  "ibv_create_comp_channel",  "IBVERBS_1.0",  0),
    ROW(destroy_comp_channel, "ibv_destroy_comp_channel", "IBVERBS_1.0",  0),
    ROW(create_cq,            "ibv_create_cq",            "IBVERBS_1.1",  0),
    ROW(destroy_cq,           "ibv_destroy_cq",           "IBVERBS_1.1",  0),
    ROW(get_cq_event,         "ibv_get_cq_event",         "IBVERBS_1.1",  0),
    ROW(ack_cq_events,        "ibv_ack_cq_events",        "IBVERBS_1.1",  0),
    ROW(create_qp,            "ibv_create_qp",            "IBVERBS_1.1",  0),
    ROW(modify_qp,            "ibv_modify_qp",            "IBVERBS_1.1",  0),
    ROW(query_qp,             "ibv_query_qp",             "IBVERBS_1.1",  0),
    ROW(destroy_qp,           "ibv_destroy_qp",           "IBVERBS_1.1",  0),
    ROW(create_ah,            "ibv_create_ah",            "IBVERBS_1.1",  0),
    ROW(destroy_ah,           "ibv_destroy_ah",           "IBVERBS_1.1",  0),
    ROW(get_async_event,      "ibv_get_async_event",      "IBVERBS_1.1",  0),
    ROW(ack_async_event,      "ibv_ack_async_event",      "IBVERBS_1.1",  0),
    /* softverbs' own extras (version node SOFTVERBS_1.0); absent from any other libibverbs */
    ROW(softverbs_configure,      "softverbs_configure",      "SOFTVERBS_1.0", 0),
    ROW(softverbs_last_error,     "softverbs_last_error",     "SOFTVERBS_1.0", 0),
    ROW(softverbs_query_counters, "softverbs_query_counters", "SOFTVERBS_1.0", 0),
    ROW(softverbs_wire,           "softverbs_wire",           "SOFTVERBS_1.0", 0),
};

/* The versioned definition first; an unversioned library (a test stub) only has the plain name. */
static void *lookup(void *handle, const char *name, const char *version)
{
    void *sym = NULL;
    if (version != NULL) {
        sym = dlvsym(handle, name, version);
    }
    if (sym == NULL) {
        sym = dlsym(handle, name);
    }
    return sym;
}

/*
 * A bare soname ("libibverbs.so.1") is looked up along the dynamic linker's search path
 * ourselves: dlopen would otherwise hand back any library already loaded with that soname,
 * e.g. softverbs, whose soname is also libibverbs.so.1. Falls back to the bare name (so
 * ld.so.cache still applies) when no search directory has it.
 */
void ibvwrap_resolve_soname(const char *name, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s", name);
    if (strchr(name, '/') != NULL) {
        return;
    }
    void *self = dlopen(NULL, RTLD_NOW);
    Dl_serinfo size;
    if (self == NULL) {
        return;
    }
    if (dlinfo(self, RTLD_DI_SERINFOSIZE, &size) != 0) {
        dlclose(self);
        return;
    }
    Dl_serinfo *info = malloc(size.dls_size);
    if (info != NULL && dlinfo(self, RTLD_DI_SERINFOSIZE, info) == 0 && dlinfo(self, RTLD_DI_SERINFO, info) == 0) {
        for (unsigned int i = 0; i < info->dls_cnt; i++) {
            char candidate[4096];
            snprintf(candidate, sizeof(candidate), "%s/%s", info->dls_serpath[i].dls_name, name);
            if (access(candidate, R_OK) == 0) {
                snprintf(out, outlen, "%s", candidate);
                break;
            }
        }
    }
    free(info);
    dlclose(self);
}

void *ibvwrap_dlopen_local(const char *path, char *loaded, size_t loadedlen, char *errbuf, size_t errlen)
{
    char resolved[4096];
    ibvwrap_resolve_soname(path, resolved, sizeof(resolved));
    void *handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(errbuf, errlen, "%s", why != NULL ? why : "dlopen failed");
        return NULL;
    }
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL && map->l_name[0] != '\0')
        snprintf(loaded, loadedlen, "%s", map->l_name);
    else
        snprintf(loaded, loadedlen, "%s", path);
    return handle;
}

struct ibvwrap *ibvwrap_open(const char *path, char *errbuf, size_t errlen)
{
    if (path == NULL || path[0] == '\0') {
        snprintf(errbuf, errlen, "no libibverbs path given");
        return NULL;
    }
    struct ibvwrap *w = calloc(1, sizeof(*w));
    if (w == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    w->handle = ibvwrap_dlopen_local(path, w->path, sizeof(w->path), errbuf, errlen);
    if (w->handle == NULL) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(symbol_rows) / sizeof(symbol_rows[0]); i++) {
        const struct symbol_row *row = &symbol_rows[i];
        void *sym = lookup(w->handle, row->name, row->version);
        if (sym == NULL && row->required) {
            snprintf(errbuf, errlen, "%s does not export %s, so it is not a libibverbs", w->path, row->name);
            dlclose(w->handle);
            free(w);
            return NULL;
        }
        memcpy((char *)w + row->offset, &sym, sizeof(sym));
    }
    return w;
}

void ibvwrap_close(struct ibvwrap *w)
{
    if (w == NULL) {
        return;
    }
    dlclose(w->handle);
    free(w);
}
