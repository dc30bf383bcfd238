-- id: illegal-attr-mask
-- severity: error
-- role: cause
-- title: ibv_modify_qp was called with an attribute mask the transition does not allow
-- explanation: Every legal transition has, per QP type, a set of attribute-mask bits it
--   requires and a set it allows (IBV_QP_STATE is always allowed). A missing required bit or
--   a bit outside both sets makes the kernel refuse the modify with EINVAL and nothing
--   changes; a device that accepts it runs with attributes it never validated.
-- fix: Pass exactly the required bits of the transition (e.g. RC INIT->RTR: STATE, AV,
--   PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER) plus only allowed optional
--   ones; see rules/README.md "qp_transition".
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, query_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       'ibv_modify_qp ' || from_state_name || '->' || to_state_name || ' on ' || qp_type_name || ' QP '
           || hex24(qp_num) || ' with mask ' || mask_names
           || CASE WHEN missing_mask <> 0 THEN ' lacks required ' || flags_attr_mask(missing_mask) ELSE '' END
           || CASE WHEN missing_mask <> 0 AND forbidden_mask <> 0 THEN ' and' ELSE '' END
           || CASE WHEN forbidden_mask <> 0 THEN ' sets ' || flags_attr_mask(forbidden_mask)
                   || ', not allowed for ' || from_state_name || '->' || to_state_name || ' on ' || qp_type_name ELSE '' END
           || override_note(host, '--modify-in-rts')
           || CASE WHEN ok THEN ': accepted (the device does not check masks)' ELSE ': refused with ' || errno_name END
           AS message
FROM _modify_check
WHERE legal AND (missing_mask <> 0 OR forbidden_mask <> 0)
