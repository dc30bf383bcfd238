-- Helper macros every view and rule may use. Public ones are documented in rules/README.md
-- ("Macros"); names starting with '_' are private.

-- An evidence reference: one event of one host. Rules return a list of these.
CREATE MACRO ev(ev_host, ev_seq) AS struct_pack(host := ev_host, seq := ev_seq::BIGINT);

-- The libibverbs name of an enum value of an attribute ('qp_state', 3) -> 'IBV_QPS_RTS'.
CREATE MACRO value_name(vn_attr, vn_value) AS
    CASE WHEN vn_value IS NULL THEN NULL
         ELSE coalesce((SELECT name FROM _value_name WHERE attr = vn_attr AND value = vn_value AND NOT is_flag),
                       'UNKNOWN(' || vn_value || ')') END;

-- The names of the bits set in a flags attribute ('access', 3) -> 'IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE';
-- 0 -> '0'; bits without a name are appended in hex.
CREATE MACRO flag_names(fn_attr, fn_value) AS
    CASE WHEN fn_value IS NULL THEN NULL
         WHEN fn_value = 0 THEN '0'
         ELSE (SELECT concat_ws('|',
                    nullif(string_agg(name, '|' ORDER BY value) FILTER (WHERE (fn_value & value) <> 0), ''),
                    CASE WHEN fn_value & ~coalesce(bit_or(value), 0) <> 0
                         THEN '0x' || lower(hex(fn_value & ~coalesce(bit_or(value), 0))) END)
               FROM _value_name WHERE attr = fn_attr AND is_flag) END;

-- Short QP state name: 3 -> 'RTS'.
CREATE MACRO qp_state_name(s) AS replace(value_name('qp_state', s), 'IBV_QPS_', '');

-- Short QP type name: 2 -> 'RC'.
CREATE MACRO qp_type_name(t) AS replace(value_name('qp_type', t), 'IBV_QPT_', '');

-- enum ibv_mtu -> bytes (1 -> 256 ... 5 -> 4096), NULL when out of range.
CREATE MACRO mtu_bytes(m) AS CASE WHEN m BETWEEN 1 AND 5 THEN (1 << (m + 7))::INTEGER END;

-- The errno symbol: 22 -> 'EINVAL'.
CREATE MACRO errno_name(e) AS
    CASE WHEN e IS NULL THEN NULL
         ELSE coalesce((SELECT name FROM _errno WHERE errno = e), 'errno ' || e) END;

-- A 24-bit number (PSN, QPN) as 0x%06x.
CREATE MACRO hex24(x) AS CASE WHEN x IS NULL THEN NULL ELSE printf('0x%06x', x) END;

-- Signed distance a - b between two 24-bit PSNs, in (-2^23, 2^23]: positive means a is after b.
CREATE MACRO psn_diff(a, b) AS ((((a - b + 8388608) % 16777216) + 16777216) % 16777216) - 8388608;

-- min_rnr_timer / RNR NAK timer code -> milliseconds (code 0 is the longest: 655.36 ms).
CREATE MACRO rnr_timer_ms(code) AS
    [655.36, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16, 0.24, 0.32, 0.48, 0.64, 0.96, 1.28, 1.92,
     2.56, 3.84, 5.12, 7.68, 10.24, 15.36, 20.48, 30.72, 40.96, 61.44, 81.92, 122.88, 163.84, 245.76,
     327.68, 491.52][code + 1];

-- Local ACK timeout code -> milliseconds (4.096 us * 2^timeout); NULL for 0 (no retransmit timer).
CREATE MACRO ack_timeout_ms(t) AS CASE WHEN t BETWEEN 1 AND 31 THEN 0.004096 * (2.0 ** t) END;

-- True when the bit(s) of a named ibv_qp_attr_mask flag are set: has_mask_bit(attr_mask, 'AV').
CREATE MACRO has_mask_bit(mask, bit_name) AS
    (mask & (SELECT value FROM _value_name WHERE attr = 'attr_mask' AND name = 'IBV_QP_' || bit_name)) <> 0;
