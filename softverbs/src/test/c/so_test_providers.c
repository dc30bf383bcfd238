/* Provider libraries next to softverbs: Debian's libmlx5.so.1 and libefa.so.1 (ibverbs-providers)
 * load against the built libibverbs.so.1 (their constructors register through
 * verbs_register_driver_34), and their direct-verbs calls on a softverbs device or context
 * answer "not mine" (false / EOPNOTSUPP / NULL) instead of crashing: a softverbs device carries
 * the verbs_device layout with softverbs' own ops, which is what providers compare. A provider
 * library that is not installed is a visible skip; one that fails to load is a failure. */
#include <dlfcn.h>
#include <infiniband/efadv.h>
#include <infiniband/mlx5dv.h>

#include "sv_check.h"
#include "sv_testdev.h"

/* dlopen of a provider: the handle, NULL with a skip line when it is not installed. */
static void *open_provider(const char *soname)
{
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (h)
        return h;
    const char *err = dlerror();
    if (err && strstr(err, "cannot open shared object file")) {
        printf("SKIPPED %s checks: %s is not installed (Debian package ibverbs-providers)\n", soname, soname);
        return NULL;
    }
    fprintf(stderr, "dlopen(%s) failed: %s\n", soname, err ? err : "?");
    CHECK(!"provider library loads against softverbs");
    return NULL;
}

static void test_mlx5(struct ibv_device *dev, struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq)
{
    void *h = open_provider("libmlx5.so.1");
    if (!h)
        return;
    bool (*is_supported)(struct ibv_device *) = (bool (*)(struct ibv_device *))dlsym(h, "mlx5dv_is_supported");
    int (*query_device)(struct ibv_context *, struct mlx5dv_context *) =
        (int (*)(struct ibv_context *, struct mlx5dv_context *))dlsym(h, "mlx5dv_query_device");
    struct ibv_context *(*open_device)(struct ibv_device *, struct mlx5dv_context_attr *) =
        (struct ibv_context * (*)(struct ibv_device *, struct mlx5dv_context_attr *)) dlsym(h, "mlx5dv_open_device");
    int (*init_obj)(struct mlx5dv_obj *, uint64_t) =
        (int (*)(struct mlx5dv_obj *, uint64_t))dlvsym(h, "mlx5dv_init_obj", "MLX5_1.2");
    CHECK(is_supported && query_device && open_device && init_obj);
    if (!is_supported || !query_device || !open_device || !init_obj)
        return;

    CHECK(!is_supported(dev));
    struct mlx5dv_context attrs = {.comp_mask = 0};
    CHECK_EQ(query_device(ctx, &attrs), EOPNOTSUPP);
    struct mlx5dv_context_attr oattr = {.flags = MLX5DV_CONTEXT_FLAGS_DEVX};
    errno = 0;
    CHECK(open_device(dev, &oattr) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
    struct mlx5dv_cq out;
    struct mlx5dv_obj obj = {.cq = {.in = cq, .out = &out}};
    CHECK_EQ(init_obj(&obj, MLX5DV_OBJ_CQ), EOPNOTSUPP);
    (void)pd;
    /* the provider stays loaded: its registration must not touch softverbs devices */
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    CHECK_EQ(n, 1);
    ibv_free_device_list(list);
}

static void test_efa(struct ibv_context *ctx, struct ibv_pd *pd, const char *ip)
{
    void *h = open_provider("libefa.so.1");
    if (!h)
        return;
    int (*query_device)(struct ibv_context *, struct efadv_device_attr *, uint32_t) =
        (int (*)(struct ibv_context *, struct efadv_device_attr *, uint32_t))dlsym(h, "efadv_query_device");
    int (*query_ah)(struct ibv_ah *, struct efadv_ah_attr *, uint32_t) =
        (int (*)(struct ibv_ah *, struct efadv_ah_attr *, uint32_t))dlsym(h, "efadv_query_ah");
    struct ibv_qp *(*create_qp_ex)(struct ibv_context *, struct ibv_qp_init_attr_ex *, struct efadv_qp_init_attr *,
                                   uint32_t) =
        (struct ibv_qp * (*)(struct ibv_context *, struct ibv_qp_init_attr_ex *, struct efadv_qp_init_attr *,
                             uint32_t)) dlsym(h, "efadv_create_qp_ex");
    CHECK(query_device && query_ah && create_qp_ex);
    if (!query_device || !query_ah || !create_qp_ex)
        return;

    struct efadv_device_attr attr;
    memset(&attr, 0, sizeof attr);
    CHECK_EQ(query_device(ctx, &attr, sizeof attr), EOPNOTSUPP);

    struct ibv_ah_attr av = {.is_global = 1, .port_num = 1, .grh = {.sgid_index = 3, .hop_limit = 1}};
    sv_test_gid(&av.grh.dgid, ip);
    struct ibv_ah *ah = ibv_create_ah(pd, &av);
    CHECK(ah != NULL);
    if (ah) {
        struct efadv_ah_attr aattr;
        CHECK_EQ(query_ah(ah, &aattr, sizeof aattr), EOPNOTSUPP);
        CHECK_EQ(ibv_destroy_ah(ah), 0);
    }
    struct ibv_qp_init_attr_ex qattr = {.qp_type = IBV_QPT_DRIVER, .pd = pd, .comp_mask = IBV_QP_INIT_ATTR_PD};
    struct efadv_qp_init_attr eattr = {.driver_qp_type = EFADV_QP_DRIVER_TYPE_SRD};
    errno = 0;
    CHECK(create_qp_ex(ctx, &qattr, &eattr, sizeof eattr) == NULL);
    CHECK_EQ(errno, EOPNOTSUPP);
}

/* The system librdmacm (not softverbs' own, which sits next to softverbs' libibverbs) binds
 * every libibverbs symbol it imports, ibv_copy_*_from_kern included, at load (RTLD_NOW). */
static void test_system_librdmacm(void)
{
    static const char *const paths[] = {"/lib/x86_64-linux-gnu/librdmacm.so.1",
                                        "/usr/lib/x86_64-linux-gnu/librdmacm.so.1", "/usr/lib64/librdmacm.so.1"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        if (access(paths[i], R_OK) != 0)
            continue;
        void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (!h)
            fprintf(stderr, "dlopen(%s) failed: %s\n", paths[i], dlerror());
        CHECK(h != NULL);
        CHECK(h && dlsym(h, "rdma_create_event_channel") != NULL);
        return;
    }
    printf("SKIPPED system librdmacm check: librdmacm.so.1 is not installed (Debian package librdmacm1)\n");
}

int main(void)
{
    test_system_librdmacm();
    char ip[32], spec[64];
    sv_test_ip(ip, sizeof ip, 1);
    snprintf(spec, sizeof spec, "dev@%s", ip);
    struct ibv_context *ctx = sv_test_open(spec, "dev");
    CHECK(ctx != NULL);
    if (!ctx)
        return sv_check_report("so_test_providers");
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
    CHECK(pd && cq);
    if (pd && cq) {
        test_mlx5(ctx->device, ctx, pd, cq);
        test_efa(ctx, pd, ip);
        /* softverbs itself still works with the providers loaded */
        struct ibv_device_attr da;
        CHECK_EQ(ibv_query_device(ctx, &da), 0);
        CHECK_EQ(da.phys_port_cnt, 1);
    }
    if (cq)
        CHECK_EQ(ibv_destroy_cq(cq), 0);
    if (pd)
        CHECK_EQ(ibv_dealloc_pd(pd), 0);
    CHECK_EQ(ibv_close_device(ctx), 0);
    return sv_check_report("so_test_providers");
}
