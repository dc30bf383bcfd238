-- id: rd-atomic-mismatch
-- severity: error
-- role: cause
-- title: A requester may have more RDMA READs/atomics outstanding than its peer accepts
-- explanation: max_rd_atomic (set at RTR->RTS) is how many RDMA READ and atomic requests a QP
--   keeps in flight; the peer's max_dest_rd_atomic (set at INIT->RTR) is how many it holds
--   responder resources for. When the requester's depth is larger, the responder refuses the
--   excess (NAK invalid request: IBV_WC_REM_INV_REQ_ERR at the requester), perftest#114. Judged
--   only for QPs that posted an RDMA READ or atomic.
-- fix: Set max_rd_atomic to at most the peer's max_dest_rd_atomic (exchange them with the QPN;
--   perftest -o, rdma_cm's initiator_depth/responder_resources).
-- when: SELECT 1 FROM _post_stats WHERE queue = 'send' AND ok AND opcode IN (4, 5, 6) LIMIT 1
SELECT p.host, p.qp_num::BIGINT AS qp,
       list_filter([ev(p.host, p.rts_seq), ev(p.p_host, p.p_rtr_seq)], lambda e: e.seq IS NOT NULL) AS evidence,
       p.host || ' QP ' || hex24(p.qp_num) || ' may have ' || p.max_rd_atomic
           || ' RDMA READ/atomic requests outstanding (max_rd_atomic) but its peer ' || p.p_host || ' QP '
           || hex24(p.p_qp_num) || ' accepts ' || p.p_max_dest_rd_atomic
           || ' (max_dest_rd_atomic); requests beyond ' || p.p_max_dest_rd_atomic
           || ' are refused with NAK invalid request' AS message
FROM _pair p
WHERE p.max_rd_atomic > p.p_max_dest_rd_atomic
  AND EXISTS (SELECT 1 FROM _post_stats s WHERE s.host = p.host AND s.qp_num = p.qp_num AND s.queue = 'send'
              AND s.ok AND s.opcode IN (4, 5, 6))
