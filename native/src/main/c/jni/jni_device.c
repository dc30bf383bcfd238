/* Devices and contexts: describe/open a device, close it, query device/port/GID/P_Key, counters. */
#include <endian.h>
#include <string.h>

#include "jni_util.h"

enum { DEVICE_NODE_TYPE, DEVICE_TRANSPORT_TYPE, DEVICE_GUID }; /* payload slots of describe0 */

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Device_describe0(JNIEnv *env, jclass cls, jlong lib,
                                                                   jlong device, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_device *dev = check_handle(env, device, "device");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || dev == NULL || s == NULL) {
        return NULL;
    }
    int64_t *out = s + CALL_PAYLOAD;
    out[DEVICE_NODE_TYPE] = dev->node_type;
    out[DEVICE_TRANSPORT_TYPE] = dev->transport_type;
    out[DEVICE_GUID] = w->get_device_guid != NULL ? (int64_t)be64toh(w->get_device_guid(dev)) : 0;
    const char *name = w->get_device_name(dev);
    return (*env)->NewStringUTF(env, name != NULL ? name : dev->name);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Device_ibdevPath0(JNIEnv *env, jclass cls, jlong device)
{
    struct ibv_device *dev = check_handle(env, device, "device");
    return dev != NULL ? (*env)->NewStringUTF(env, dev->ibdev_path) : NULL;
}

JNIEXPORT jlong JNICALL Java_io_rdmatrace_verbs_Device_open0(JNIEnv *env, jclass cls, jlong lib, jlong device,
                                                             jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_device *dev = check_handle(env, device, "device");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || dev == NULL || s == NULL) {
        return 0;
    }
    errno = 0;
    int64_t t0 = now_ns();
    struct ibv_context *ctx = w->open_device(dev);
    int64_t t1 = now_ns();
    status_from_pointer(s, ctx, errno, t1 - t0);
    return to_handle(ctx);
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_close0(JNIEnv *env, jclass cls, jlong lib, jlong context,
                                                              jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL) {
        return;
    }
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->close_device(ctx);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
}

JNIEXPORT jstring JNICALL Java_io_rdmatrace_verbs_Context_queryDevice0(JNIEnv *env, jclass cls, jlong lib,
                                                                       jlong context, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_device, "ibv_query_device")) {
        return NULL;
    }
    struct ibv_device_attr a;
    memset(&a, 0, sizeof(a));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_device(ctx, &a);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    if (ret != 0) {
        return NULL;
    }
    int64_t *o = s + CALL_PAYLOAD;
    o[DA_NODE_GUID] = (int64_t)be64toh(a.node_guid);
    o[DA_SYS_IMAGE_GUID] = (int64_t)be64toh(a.sys_image_guid);
    o[DA_MAX_MR_SIZE] = (int64_t)a.max_mr_size;
    o[DA_PAGE_SIZE_CAP] = (int64_t)a.page_size_cap;
    o[DA_VENDOR_ID] = a.vendor_id;
    o[DA_VENDOR_PART_ID] = a.vendor_part_id;
    o[DA_HW_VER] = a.hw_ver;
    o[DA_MAX_QP] = a.max_qp;
    o[DA_MAX_QP_WR] = a.max_qp_wr;
    o[DA_DEVICE_CAP_FLAGS] = a.device_cap_flags;
    o[DA_MAX_SGE] = a.max_sge;
    o[DA_MAX_SGE_RD] = a.max_sge_rd;
    o[DA_MAX_CQ] = a.max_cq;
    o[DA_MAX_CQE] = a.max_cqe;
    o[DA_MAX_MR] = a.max_mr;
    o[DA_MAX_PD] = a.max_pd;
    o[DA_MAX_QP_RD_ATOM] = a.max_qp_rd_atom;
    o[DA_MAX_EE_RD_ATOM] = a.max_ee_rd_atom;
    o[DA_MAX_RES_RD_ATOM] = a.max_res_rd_atom;
    o[DA_MAX_QP_INIT_RD_ATOM] = a.max_qp_init_rd_atom;
    o[DA_MAX_EE_INIT_RD_ATOM] = a.max_ee_init_rd_atom;
    o[DA_ATOMIC_CAP] = a.atomic_cap;
    o[DA_MAX_EE] = a.max_ee;
    o[DA_MAX_RDD] = a.max_rdd;
    o[DA_MAX_MW] = a.max_mw;
    o[DA_MAX_RAW_IPV6_QP] = a.max_raw_ipv6_qp;
    o[DA_MAX_RAW_ETHY_QP] = a.max_raw_ethy_qp;
    o[DA_MAX_MCAST_GRP] = a.max_mcast_grp;
    o[DA_MAX_MCAST_QP_ATTACH] = a.max_mcast_qp_attach;
    o[DA_MAX_TOTAL_MCAST_QP_ATTACH] = a.max_total_mcast_qp_attach;
    o[DA_MAX_AH] = a.max_ah;
    o[DA_MAX_FMR] = a.max_fmr;
    o[DA_MAX_MAP_PER_FMR] = a.max_map_per_fmr;
    o[DA_MAX_SRQ] = a.max_srq;
    o[DA_MAX_SRQ_WR] = a.max_srq_wr;
    o[DA_MAX_SRQ_SGE] = a.max_srq_sge;
    o[DA_MAX_PKEYS] = a.max_pkeys;
    o[DA_LOCAL_CA_ACK_DELAY] = a.local_ca_ack_delay;
    o[DA_PHYS_PORT_CNT] = a.phys_port_cnt;
    char fw[sizeof(a.fw_ver) + 1];
    memcpy(fw, a.fw_ver, sizeof(a.fw_ver));
    fw[sizeof(a.fw_ver)] = '\0';
    return (*env)->NewStringUTF(env, fw);
}

/* The inline ___ibv_query_port of verbs.h, with its fallback going through the table. */
static int query_port_inline(const struct ibvwrap *w, struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr)
{
    struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);
    if (vctx == NULL) {
        memset(attr, 0, sizeof(*attr));
        return w->query_port(ctx, port, (struct _compat_ibv_port_attr *)attr);
    }
    return vctx->query_port(ctx, port, attr, sizeof(*attr));
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryPort0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong context, jint port, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_port, "ibv_query_port")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    struct ibv_port_attr a;
    memset(&a, 0, sizeof(a));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = query_port_inline(w, ctx, (uint8_t)port, &a);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    if (ret != 0) {
        return;
    }
    int64_t *o = s + CALL_PAYLOAD;
    o[PA_STATE] = a.state;
    o[PA_MAX_MTU] = a.max_mtu;
    o[PA_ACTIVE_MTU] = a.active_mtu;
    o[PA_GID_TBL_LEN] = a.gid_tbl_len;
    o[PA_PORT_CAP_FLAGS] = a.port_cap_flags;
    o[PA_MAX_MSG_SZ] = a.max_msg_sz;
    o[PA_BAD_PKEY_CNTR] = a.bad_pkey_cntr;
    o[PA_QKEY_VIOL_CNTR] = a.qkey_viol_cntr;
    o[PA_PKEY_TBL_LEN] = a.pkey_tbl_len;
    o[PA_LID] = a.lid;
    o[PA_SM_LID] = a.sm_lid;
    o[PA_LMC] = a.lmc;
    o[PA_MAX_VL_NUM] = a.max_vl_num;
    o[PA_SM_SL] = a.sm_sl;
    o[PA_SUBNET_TIMEOUT] = a.subnet_timeout;
    o[PA_INIT_TYPE_REPLY] = a.init_type_reply;
    o[PA_ACTIVE_WIDTH] = a.active_width;
    o[PA_ACTIVE_SPEED] = a.active_speed;
    o[PA_PHYS_STATE] = a.phys_state;
    o[PA_LINK_LAYER] = a.link_layer;
    o[PA_FLAGS] = a.flags;
    o[PA_PORT_CAP_FLAGS2] = a.port_cap_flags2;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryGid0(JNIEnv *env, jclass cls, jlong lib,
                                                                 jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_gid, "ibv_query_gid")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    union ibv_gid gid;
    memset(&gid, 0, sizeof(gid));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_gid(ctx, (uint8_t)port, index, &gid);
    int64_t t1 = now_ns();
    /* ibv_query_gid returns -1 with errno set; the helper also accepts a positive errno */
    status_from_errno_ret(s, ret, errno, t1 - t0);
    memcpy(s + CALL_PAYLOAD + GE_GID_0, gid.raw, sizeof(gid.raw));
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryGidEx0(JNIEnv *env, jclass cls, jlong lib,
                                                                   jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_gid_ex, "_ibv_query_gid_ex")) {
        return;
    }
    if (port < 0 || index < 0) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port %d / GID index %d must not be negative", port, index);
        return;
    }
    struct ibv_gid_entry e;
    memset(&e, 0, sizeof(e));
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_gid_ex(ctx, (uint32_t)port, (uint32_t)index, &e, 0, sizeof(e));
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    int64_t *o = s + CALL_PAYLOAD;
    memcpy(o + GE_GID_0, e.gid.raw, sizeof(e.gid.raw));
    o[GE_GID_INDEX] = e.gid_index;
    o[GE_PORT_NUM] = e.port_num;
    o[GE_GID_TYPE] = e.gid_type;
    o[GE_NDEV_IFINDEX] = e.ndev_ifindex;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_Context_queryPkey0(JNIEnv *env, jclass cls, jlong lib,
                                                                  jlong context, jint port, jint index, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL || !require_symbol(env, w, w->query_pkey, "ibv_query_pkey")) {
        return;
    }
    if (port < 0 || port > 255) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "port number %d is outside 0..255", port);
        return;
    }
    __be16 pkey = 0;
    errno = 0;
    int64_t t0 = now_ns();
    int ret = w->query_pkey(ctx, (uint8_t)port, index, &pkey);
    int64_t t1 = now_ns();
    status_from_errno_ret(s, ret, errno, t1 - t0);
    s[CALL_PAYLOAD] = be16toh(pkey);
}

/* softverbs counters; names are the library's static strings, copied into Java. */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_Context_queryCounters0(JNIEnv *env, jclass cls, jlong lib,
                                                                      jlong context, jobjectArray names_out,
                                                                      jlongArray values_out, jlong io)
{
    struct ibvwrap *w = check_lib(env, lib);
    struct ibv_context *ctx = check_handle(env, context, "context");
    int64_t *s = check_slots(env, io, "call");
    if (w == NULL || ctx == NULL || s == NULL
        || !require_symbol(env, w, w->softverbs_query_counters, "softverbs_query_counters")) {
        return 0;
    }
    if (names_out == NULL || values_out == NULL) {
        jni_throw(env, EXC_ILLEGAL_ARGUMENT, "counter output arrays are null");
        return 0;
    }
    enum { MAX_COUNTERS = 256 };
    jsize max = (*env)->GetArrayLength(env, names_out);
    if ((*env)->GetArrayLength(env, values_out) < max) {
        max = (*env)->GetArrayLength(env, values_out);
    }
    if (max > MAX_COUNTERS) {
        max = MAX_COUNTERS;
    }
    const char *names[MAX_COUNTERS];
    uint64_t values[MAX_COUNTERS];
    memset(names, 0, sizeof(names));
    errno = 0;
    int64_t t0 = now_ns();
    int n = w->softverbs_query_counters(ctx, names, values, max);
    int64_t t1 = now_ns();
    status_from_count(s, n, errno, t1 - t0);
    if (n < 0) {
        return n;
    }
    if (n > max) {
        n = max; /* the library has more than we asked for */
    }
    for (int i = 0; i < n; i++) {
        jstring name = (*env)->NewStringUTF(env, names[i] != NULL ? names[i] : "?");
        if (name == NULL) {
            return -1;
        }
        (*env)->SetObjectArrayElement(env, names_out, i, name);
        (*env)->DeleteLocalRef(env, name);
    }
    (*env)->SetLongArrayRegion(env, values_out, 0, n, (const jlong *)values);
    return n;
}
