-- needs: 40_calls, 80_rule_helpers

-- _limit_table: the limits a create or modify can exceed, written once: the requested field
-- (the call's in_<field>), the device attribute that bounds it (from the SESSION's device
-- attributes, which the recorder reads itself at the first open) or a bound fixed by the verbs
-- API's field width, and what to call it in a message.
CREATE TABLE _limit_table AS
SELECT * FROM (VALUES
    ('ibv_create_qp', 'max_send_wr', 'max_qp_wr', NULL),
    ('ibv_create_qp', 'max_recv_wr', 'max_qp_wr', NULL),
    ('ibv_create_qp', 'max_send_sge', 'max_sge', NULL),
    ('ibv_create_qp', 'max_recv_sge', 'max_sge', NULL),
    ('ibv_create_qp', 'max_inline_data', 'max_inline_data', NULL),
    ('ibv_create_cq', 'cqe', 'max_cqe', NULL),
    ('ibv_modify_qp', 'max_rd_atomic', 'max_qp_init_rd_atom', NULL),
    ('ibv_modify_qp', 'max_dest_rd_atomic', 'max_qp_rd_atom', NULL),
    ('ibv_modify_qp', 'retry_cnt', '3-bit field', 7),
    ('ibv_modify_qp', 'rnr_retry', '3-bit field', 7),
    ('ibv_modify_qp', 'timeout', '5-bit field', 31)
) t(verb, field, limit_name, fixed_limit);

-- _softverbs_inline: ibv_device_attr has no inline limit; it is the provider's, known here for
-- softverbs: a device with one of its profiles (told by the identity and limits the profile
-- reports) has the profile's, any other softverbs device rxe's 512 (SOFTVERBS.md, Device
-- profiles). The rows follow sv_profile.c; SoftverbsProfileLimitsTest checks they agree.
CREATE TABLE _softverbs_inline AS
SELECT * FROM (VALUES
    ('mlx5', 713, 4123, 32768, 30, 912),
    ('irdma', 32902, 5522, 8127, 6, 101),
    ('bnxt_re', 5348, 5984, 4351, 13, 480)
) t(profile, vendor_id, vendor_part_id, max_qp_wr, max_sge, max_inline);

-- _device_limits: per host, each limit of _limit_table with the device's value.
CREATE TABLE _device_limits AS
WITH d AS (
    SELECT d.host, any_value(d.seq) AS seq, any_value(d.dev_name) AS dev_name, any_value(d.vendor_id) AS vendor_id,
           any_value(d.vendor_part_id) AS vendor_part_id,
           any_value(d.max_qp_wr)::BIGINT AS max_qp_wr, any_value(d.max_sge)::BIGINT AS max_sge,
           any_value(d.max_cqe)::BIGINT AS max_cqe, any_value(d.max_qp_rd_atom)::BIGINT AS max_qp_rd_atom,
           any_value(d.max_qp_init_rd_atom)::BIGINT AS max_qp_init_rd_atom,
           CASE WHEN any_value(s.verbs_lib) LIKE '%softverbs%'
                THEN coalesce(any_value(p.max_inline), 512) END::BIGINT AS max_inline_data,
           any_value(p.profile) AS profile
    FROM _device d LEFT JOIN _session s ON s.host = d.host
    LEFT JOIN _softverbs_inline p ON p.vendor_id = d.vendor_id AND p.vendor_part_id = d.vendor_part_id
         AND p.max_qp_wr = d.max_qp_wr AND p.max_sge = d.max_sge
    GROUP BY d.host),
u AS (UNPIVOT d ON max_qp_wr, max_sge, max_cqe, max_qp_rd_atom, max_qp_init_rd_atom, max_inline_data
      INTO NAME limit_name VALUE limit_value)
SELECT host, seq, limit_name, limit_value,
       coalesce(dev_name, 'the device')
           || coalesce(', vendor 0x' || lpad(lower(hex(vendor_id)), 6, '0') || ' part ' || coalesce(vendor_part_id, 0), '')
           -- a profiled softverbs device says so for every limit; the inline limit is softverbs' own
           || CASE WHEN profile IS NOT NULL THEN ', softverbs profile ' || profile
                   WHEN limit_name = 'max_inline_data' THEN ', softverbs' ELSE '' END AS device
FROM u;

-- _limit_check: every value a failed create/modify requested, against its limit (exceeded
-- true/false; NULL when the limit is unknown); a probe's (_probe_calls) is no request.
CREATE VIEW _limit_check AS
WITH req AS (
    UNPIVOT (SELECT host, seq, verb, qp_num,
                    in_max_send_wr::BIGINT AS max_send_wr, in_max_recv_wr::BIGINT AS max_recv_wr,
                    in_max_send_sge::BIGINT AS max_send_sge, in_max_recv_sge::BIGINT AS max_recv_sge,
                    in_max_inline_data::BIGINT AS max_inline_data, in_cqe::BIGINT AS cqe,
                    in_max_rd_atomic::BIGINT AS max_rd_atomic, in_max_dest_rd_atomic::BIGINT AS max_dest_rd_atomic,
                    in_retry_cnt::BIGINT AS retry_cnt, in_rnr_retry::BIGINT AS rnr_retry, in_timeout::BIGINT AS timeout
             FROM _ctl c WHERE NOT ok AND verb IN (SELECT verb FROM _limit_table)
                  AND NOT EXISTS (SELECT 1 FROM _probe_calls p WHERE p.host = c.host AND p.seq = c.seq))
    ON COLUMNS(* EXCLUDE (host, seq, verb, qp_num)) INTO NAME field VALUE requested)
SELECT r.host, r.seq, r.verb, r.qp_num, r.field, r.requested, t.limit_name,
       coalesce(t.fixed_limit, l.limit_value)::BIGINT AS limit_value,
       r.requested > coalesce(t.fixed_limit, l.limit_value) AS exceeded, t.fixed_limit IS NOT NULL AS fixed,
       CASE WHEN t.fixed_limit IS NOT NULL THEN 'the ' || t.limit_name || ' of ibv_qp_attr' ELSE l.device END AS device
FROM req r
JOIN _limit_table t ON t.verb = r.verb AND t.field = r.field
LEFT JOIN _device_limits l ON l.host = r.host AND l.limit_name = t.limit_name AND t.fixed_limit IS NULL;
