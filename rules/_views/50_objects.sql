-- needs: 00_macros, 40_calls

-- _object_verb: which verb creates and which destroys each kind of verbs object.
CREATE TABLE _object_verb (object_kind VARCHAR, create_verb VARCHAR, destroy_verb VARCHAR);
INSERT INTO _object_verb VALUES
    ('device_list', 'ibv_get_device_list', 'ibv_free_device_list'),
    ('context', 'ibv_open_device', 'ibv_close_device'),
    ('pd', 'ibv_alloc_pd', 'ibv_dealloc_pd'),
    ('mr', 'ibv_reg_mr', 'ibv_dereg_mr'),
    ('comp_channel', 'ibv_create_comp_channel', 'ibv_destroy_comp_channel'),
    ('cq', 'ibv_create_cq', 'ibv_destroy_cq'),
    ('qp', 'ibv_create_qp', 'ibv_destroy_qp'),
    ('ah', 'ibv_create_ah', 'ibv_destroy_ah'),
    ('srq', 'ibv_create_srq', 'ibv_destroy_srq');

-- objects: every verbs object a create call returned, with its lifetime: the first successful
-- destroy of the same handle after it (NULL when never destroyed). Failed creations are listed
-- too (created = false, handle 0).
CREATE TABLE objects AS
WITH created AS (
    SELECT c.host, o.object_kind, c.handle, c.seq AS create_seq, c.ts_ns AS create_ts_ns, c.ok AS created,
           c.qp_num, o.destroy_verb
    FROM _ctl c JOIN _object_verb o ON o.create_verb = c.verb),
destroyed AS (
    SELECT c.host, o.object_kind, c.handle, c.seq AS destroy_seq, c.ts_ns AS destroy_ts_ns, c.ok
    FROM _ctl c JOIN _object_verb o ON o.destroy_verb = c.verb),
-- each destroy belongs to the latest creation of its handle before it
owned AS (
    SELECT d.*, cr.create_seq
    FROM destroyed d ASOF JOIN created cr
      ON cr.host = d.host AND cr.object_kind = d.object_kind AND cr.handle = d.handle AND d.destroy_seq > cr.create_seq
    WHERE cr.created)
SELECT cr.host, cr.object_kind, cr.handle, cr.create_seq, cr.create_ts_ns, cr.created, cr.qp_num,
       min(o.destroy_seq) FILTER (WHERE o.ok) AS destroy_seq,
       min(o.destroy_ts_ns) FILTER (WHERE o.ok) AS destroy_ts_ns,
       count(o.destroy_seq) AS destroy_attempts,
       min(o.destroy_ts_ns) FILTER (WHERE o.ok) - any_value(cr.create_ts_ns) AS lifetime_ns
FROM created cr
LEFT JOIN owned o ON o.host = cr.host AND o.object_kind = cr.object_kind AND o.handle = cr.handle
                 AND o.create_seq = cr.create_seq
GROUP BY cr.host, cr.object_kind, cr.handle, cr.create_seq, cr.create_ts_ns, cr.created, cr.qp_num;

-- qps: one row per created QP with what was asked for and what was granted.
CREATE TABLE qps AS
SELECT o.host, o.handle, o.qp_num, o.create_seq, o.destroy_seq,
       c.in_qp_type AS qp_type, qp_type_name(c.in_qp_type) AS qp_type_name,
       c.in_pd AS pd, c.in_send_cq AS send_cq, c.in_recv_cq AS recv_cq, c.in_srq AS srq,
       c.in_sq_sig_all AS sq_sig_all,
       c.in_max_send_wr AS req_max_send_wr, coalesce(c.out_max_send_wr, c.in_max_send_wr) AS max_send_wr,
       c.in_max_recv_wr AS req_max_recv_wr, coalesce(c.out_max_recv_wr, c.in_max_recv_wr) AS max_recv_wr,
       coalesce(c.out_max_send_sge, c.in_max_send_sge) AS max_send_sge,
       coalesce(c.out_max_recv_sge, c.in_max_recv_sge) AS max_recv_sge,
       coalesce(c.out_max_inline_data, c.in_max_inline_data) AS max_inline_data
FROM objects o JOIN _ctl c ON c.host = o.host AND c.seq = o.create_seq
WHERE o.object_kind = 'qp' AND o.created;

-- cqs: one row per created CQ: requested and granted depth.
CREATE TABLE cqs AS
SELECT o.host, o.handle, o.create_seq, o.destroy_seq,
       c.in_cqe AS req_cqe, coalesce(c.out_cqe, c.in_cqe) AS cqe, c.in_comp_vector AS comp_vector
FROM objects o JOIN _ctl c ON c.host = o.host AND c.seq = o.create_seq
WHERE o.object_kind = 'cq' AND o.created;

-- mrs: one row per registered MR with its access rights and keys.
CREATE TABLE mrs AS
SELECT o.host, o.handle, o.create_seq, o.destroy_seq,
       c.in_pd AS pd, c.in_addr AS addr, c.in_length AS length,
       c.in_access AS access, flags_access(c.in_access) AS access_names,
       c.out_lkey AS lkey, c.out_rkey AS rkey
FROM objects o JOIN _ctl c ON c.host = o.host AND c.seq = o.create_seq
WHERE o.object_kind = 'mr' AND o.created;
