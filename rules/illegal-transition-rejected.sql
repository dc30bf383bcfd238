-- id: illegal-transition-rejected
-- severity: info
-- role: cause
-- title: An illegal QP state transition was attempted and refused
-- explanation: The application asked for a (current, next) pair that is not in the transition
--   table and the device refused it, as it must. Inside scenario step TC02 this is the
--   deliberate probe; elsewhere it is an application bug that explains the EINVAL.
-- fix: Walk the states in order (RESET->INIT->RTR->RTS; any state -> RESET or ERR) and check
--   the current state with ibv_query_qp before modifying.
SELECT host, qp_num::BIGINT AS qp,
       list_filter([ev(host, seq), ev(host, query_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       'ibv_modify_qp ' || from_state_name || '->' || to_state_name || ' on ' || qp_type_name || ' QP '
           || hex24(qp_num) || ' was refused with ' || errno_name
           || CASE WHEN queried THEN ' and the QP stayed ' || state_after_name ELSE '' END
           || CASE WHEN probe THEN ' (the TC02 probe: expected)' ELSE '' END AS message,
       probe AS expected
FROM _modify_check
WHERE NOT legal AND NOT ok
