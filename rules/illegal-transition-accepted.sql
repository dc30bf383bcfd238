-- id: illegal-transition-accepted
-- severity: error
-- role: cause
-- title: The device accepted a QP state transition the verbs state machine forbids
-- explanation: ibv_modify_qp must refuse any (current, next) pair that is not in the IBTA /
--   Linux transition table (ib_modify_qp_is_ok), e.g. RESET->RTS. Accepting it means the
--   driver or firmware does not check transitions: the QP may now run with attributes it
--   never received (no destination, no PSNs).
-- fix: A device/driver bug: make modify_qp check the transition table before applying
--   anything (check, then apply). On the application side, walk RESET->INIT->RTR->RTS.
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, query_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       'ibv_modify_qp ' || from_state_name || '->' || to_state_name || ' on ' || qp_type_name || ' QP '
           || hex24(qp_num) || ' returned 0'
           || CASE WHEN queried THEN ' and the QP is now ' || state_after_name ELSE '' END
           || '; ' || from_state_name || '->' || to_state_name || ' is not a legal transition' AS message
FROM _modify_check
WHERE NOT legal AND ok
