/* Loader for the librdmacm function table: dlopen by path + the symbols the capture agent calls. */
#include "cmwrap.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibvwrap.h"

struct cm_row {
    const char *name;
    size_t offset;
};

#define ROW(field, name) { name, offsetof(struct cmwrap, field) }

/* All required: a library missing one is not a librdmacm the agent can drive. Looked up at their
 * default version (rdma-core spreads them over RDMACM_1.0 .. 1.3). */
static const struct cm_row cm_rows[] = {
    ROW(create_event_channel,  "rdma_create_event_channel"),
    ROW(destroy_event_channel, "rdma_destroy_event_channel"),
    ROW(create_id,             "rdma_create_id"),
    ROW(destroy_id,            "rdma_destroy_id"),
    ROW(bind_addr,             "rdma_bind_addr"),
    ROW(resolve_addr,          "rdma_resolve_addr"),
    ROW(resolve_route,         "rdma_resolve_route"),
    ROW(listen,                "rdma_listen"),
    ROW(connect,               "rdma_connect"),
    ROW(accept,                "rdma_accept"),
    ROW(reject,                "rdma_reject"),
    ROW(establish,             "rdma_establish"),
    ROW(disconnect,            "rdma_disconnect"),
    ROW(get_cm_event,          "rdma_get_cm_event"),
    ROW(ack_cm_event,          "rdma_ack_cm_event"),
    ROW(init_qp_attr,          "rdma_init_qp_attr"),
};

struct cmwrap *cmwrap_open(const char *path, char *errbuf, size_t errlen)
{
    if (path == NULL || path[0] == '\0') {
        snprintf(errbuf, errlen, "no librdmacm path given");
        return NULL;
    }
    struct cmwrap *w = calloc(1, sizeof(*w));
    if (w == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    w->handle = ibvwrap_dlopen_local(path, w->path, sizeof(w->path), errbuf, errlen);
    if (w->handle == NULL) {
        free(w);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(cm_rows) / sizeof(cm_rows[0]); i++) {
        void *sym = dlsym(w->handle, cm_rows[i].name);
        if (sym == NULL) {
            snprintf(errbuf, errlen, "%s does not export %s, so it is not a librdmacm", w->path, cm_rows[i].name);
            dlclose(w->handle);
            free(w);
            return NULL;
        }
        memcpy((char *)w + cm_rows[i].offset, &sym, sizeof(sym));
    }
    return w;
}
