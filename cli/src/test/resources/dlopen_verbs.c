/* A program that, like NCCL, finds libibverbs with dlopen and its verbs with dlvsym, and links
 * nothing of it: `rdmatrace record` must still see its calls (the tracer is found by soname). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

struct ibv_device;
struct ibv_context;
struct ibv_pd;

int main(void)
{
    void *h = dlopen("libibverbs.so.1", RTLD_NOW);
    if (h == NULL) {
        fprintf(stderr, "dlopen_verbs: %s\n", dlerror());
        return 1;
    }
    struct ibv_device **(*get_list)(int *) = dlvsym(h, "ibv_get_device_list", "IBVERBS_1.1");
    void (*free_list)(struct ibv_device **) = dlvsym(h, "ibv_free_device_list", "IBVERBS_1.1");
    struct ibv_context *(*open_dev)(struct ibv_device *) = dlvsym(h, "ibv_open_device", "IBVERBS_1.1");
    int (*close_dev)(struct ibv_context *) = dlvsym(h, "ibv_close_device", "IBVERBS_1.1");
    struct ibv_pd *(*alloc_pd)(struct ibv_context *) = dlvsym(h, "ibv_alloc_pd", "IBVERBS_1.1");
    int (*dealloc_pd)(struct ibv_pd *) = dlvsym(h, "ibv_dealloc_pd", "IBVERBS_1.1");
    if (!get_list || !free_list || !open_dev || !close_dev || !alloc_pd || !dealloc_pd) {
        fprintf(stderr, "dlopen_verbs: a verb is missing\n");
        return 1;
    }
    int n = 0;
    struct ibv_device **list = get_list(&n);
    if (list == NULL || n < 1) {
        fprintf(stderr, "dlopen_verbs: no device\n");
        return 1;
    }
    struct ibv_context *ctx = open_dev(list[0]);
    struct ibv_pd *pd = ctx != NULL ? alloc_pd(ctx) : NULL;
    int ok = pd != NULL && dealloc_pd(pd) == 0 && close_dev(ctx) == 0;
    free_list(list);
    printf("dlopen_verbs: %s\n", ok ? "ok" : "failed");
    return ok ? 0 : 1;
}
