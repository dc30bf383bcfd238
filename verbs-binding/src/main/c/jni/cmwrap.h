/*
 * The librdmacm function table ("cmwrap"), as ibvwrap is for libibverbs: librdmacm is never linked;
 * one dlopen'ed copy (softverbs' librdmacm, the system's, or any path) is reached only through this
 * struct. Its own libibverbs dependency binds, by soname, to the libibverbs the binding loaded first,
 * so the CM's ids and the binding's verbs objects live on one device.
 */
#ifndef RDMATRACE_CMWRAP_H
#define RDMATRACE_CMWRAP_H

#include <rdma/rdma_cma.h>

struct cmwrap {
    void *handle;              /* from dlopen */
    char path[4096];           /* the file ld.so actually mapped */

    struct rdma_event_channel *(*create_event_channel)(void);
    void (*destroy_event_channel)(struct rdma_event_channel *channel);
    int (*create_id)(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context,
                     enum rdma_port_space ps);
    int (*destroy_id)(struct rdma_cm_id *id);
    int (*bind_addr)(struct rdma_cm_id *id, struct sockaddr *addr);
    int (*resolve_addr)(struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst, int timeout_ms);
    int (*resolve_route)(struct rdma_cm_id *id, int timeout_ms);
    int (*listen)(struct rdma_cm_id *id, int backlog);
    int (*connect)(struct rdma_cm_id *id, struct rdma_conn_param *param);
    int (*accept)(struct rdma_cm_id *id, struct rdma_conn_param *param);
    int (*reject)(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len);
    int (*establish)(struct rdma_cm_id *id);
    int (*disconnect)(struct rdma_cm_id *id);
    int (*get_cm_event)(struct rdma_event_channel *channel, struct rdma_cm_event **event);
    int (*ack_cm_event)(struct rdma_cm_event *event);
    int (*init_qp_attr)(struct rdma_cm_id *id, struct ibv_qp_attr *attr, int *mask);
};

/*
 * Loads the librdmacm at `path` (a file path or a bare soname); NULL with a one-line reason. There is
 * no close: a librdmacm keeps a thread and the devices it opened for the life of the process (softverbs'
 * CM timer thread, the kernel's ucma event thread), and unloading its code under them crashes.
 */
struct cmwrap *cmwrap_open(const char *path, char *errbuf, size_t errlen);

#endif
