-- needs:

-- The Linux modify-QP transition table (drivers/infiniband/core/verbs.c qp_state_table, as
-- restated in shared/reference/rdma-facts.md section 1.3): for each QP type, the legal
-- (from, to) pairs and the attribute-mask bits each one requires and allows besides
-- IBV_QP_STATE, which is always allowed. A pair not listed here is illegal.
CREATE TABLE qp_transition (qp_type VARCHAR, from_state VARCHAR, to_state VARCHAR, required VARCHAR[], optional VARCHAR[]);
INSERT INTO qp_transition VALUES
    ('RC', 'RESET', 'RESET', [], []),
    ('RC', 'RESET', 'INIT', ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'], []),
    ('RC', 'INIT', 'RESET', [], []),
    ('RC', 'INIT', 'INIT', [], ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS']),
    ('RC', 'INIT', 'RTR', ['AV', 'PATH_MTU', 'DEST_QPN', 'RQ_PSN', 'MAX_DEST_RD_ATOMIC', 'MIN_RNR_TIMER'],
                          ['ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX']),
    ('RC', 'INIT', 'ERR', [], []),
    ('RC', 'RTR', 'RESET', [], []),
    ('RC', 'RTR', 'RTS', ['TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'SQ_PSN', 'MAX_QP_RD_ATOMIC'],
                         ['CUR_STATE', 'ALT_PATH', 'ACCESS_FLAGS', 'MIN_RNR_TIMER', 'PATH_MIG_STATE']),
    ('RC', 'RTR', 'ERR', [], []),
    ('RC', 'RTS', 'RESET', [], []),
    ('RC', 'RTS', 'RTS', [], ['CUR_STATE', 'ACCESS_FLAGS', 'ALT_PATH', 'PATH_MIG_STATE', 'MIN_RNR_TIMER']),
    ('RC', 'RTS', 'SQD', [], ['EN_SQD_ASYNC_NOTIFY']),
    ('RC', 'RTS', 'ERR', [], []),
    ('RC', 'SQD', 'RESET', [], []),
    ('RC', 'SQD', 'RTS', [], ['CUR_STATE', 'ALT_PATH', 'ACCESS_FLAGS', 'MIN_RNR_TIMER', 'PATH_MIG_STATE']),
    ('RC', 'SQD', 'SQD', [], ['PORT', 'AV', 'TIMEOUT', 'RETRY_CNT', 'RNR_RETRY', 'MAX_QP_RD_ATOMIC', 'MAX_DEST_RD_ATOMIC',
                              'ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX', 'MIN_RNR_TIMER', 'PATH_MIG_STATE']),
    ('RC', 'SQD', 'ERR', [], []),
    ('RC', 'SQE', 'RESET', [], []),
    ('RC', 'SQE', 'RTS', [], []),
    ('RC', 'SQE', 'ERR', [], []),
    ('RC', 'ERR', 'RESET', [], []),
    ('RC', 'ERR', 'ERR', [], []),

    ('UC', 'RESET', 'RESET', [], []),
    ('UC', 'RESET', 'INIT', ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'], []),
    ('UC', 'INIT', 'RESET', [], []),
    ('UC', 'INIT', 'INIT', [], ['PKEY_INDEX', 'PORT', 'ACCESS_FLAGS']),
    ('UC', 'INIT', 'RTR', ['AV', 'PATH_MTU', 'DEST_QPN', 'RQ_PSN'], ['ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX']),
    ('UC', 'INIT', 'ERR', [], []),
    ('UC', 'RTR', 'RESET', [], []),
    ('UC', 'RTR', 'RTS', ['SQ_PSN'], ['CUR_STATE', 'ALT_PATH', 'ACCESS_FLAGS', 'PATH_MIG_STATE']),
    ('UC', 'RTR', 'ERR', [], []),
    ('UC', 'RTS', 'RESET', [], []),
    ('UC', 'RTS', 'RTS', [], ['CUR_STATE', 'ACCESS_FLAGS', 'ALT_PATH', 'PATH_MIG_STATE']),
    ('UC', 'RTS', 'SQD', [], ['EN_SQD_ASYNC_NOTIFY']),
    ('UC', 'RTS', 'ERR', [], []),
    ('UC', 'SQD', 'RESET', [], []),
    ('UC', 'SQD', 'RTS', [], ['CUR_STATE', 'ALT_PATH', 'ACCESS_FLAGS', 'PATH_MIG_STATE']),
    ('UC', 'SQD', 'SQD', [], ['AV', 'ALT_PATH', 'ACCESS_FLAGS', 'PKEY_INDEX', 'PATH_MIG_STATE']),
    ('UC', 'SQD', 'ERR', [], []),
    ('UC', 'SQE', 'RESET', [], []),
    ('UC', 'SQE', 'RTS', [], ['CUR_STATE', 'ACCESS_FLAGS']),
    ('UC', 'SQE', 'ERR', [], []),
    ('UC', 'ERR', 'RESET', [], []),
    ('UC', 'ERR', 'ERR', [], []),

    ('UD', 'RESET', 'RESET', [], []),
    ('UD', 'RESET', 'INIT', ['PKEY_INDEX', 'PORT', 'QKEY'], []),
    ('UD', 'INIT', 'RESET', [], []),
    ('UD', 'INIT', 'INIT', [], ['PKEY_INDEX', 'PORT', 'QKEY']),
    ('UD', 'INIT', 'RTR', [], ['PKEY_INDEX', 'QKEY']),
    ('UD', 'INIT', 'ERR', [], []),
    ('UD', 'RTR', 'RESET', [], []),
    ('UD', 'RTR', 'RTS', ['SQ_PSN'], ['CUR_STATE', 'QKEY']),
    ('UD', 'RTR', 'ERR', [], []),
    ('UD', 'RTS', 'RESET', [], []),
    ('UD', 'RTS', 'RTS', [], ['CUR_STATE', 'QKEY']),
    ('UD', 'RTS', 'SQD', [], ['EN_SQD_ASYNC_NOTIFY']),
    ('UD', 'RTS', 'ERR', [], []),
    ('UD', 'SQD', 'RESET', [], []),
    ('UD', 'SQD', 'RTS', [], ['CUR_STATE', 'QKEY']),
    ('UD', 'SQD', 'SQD', [], ['PKEY_INDEX', 'QKEY']),
    ('UD', 'SQD', 'ERR', [], []),
    ('UD', 'SQE', 'RESET', [], []),
    ('UD', 'SQE', 'RTS', [], ['CUR_STATE', 'QKEY']),
    ('UD', 'SQE', 'ERR', [], []),
    ('UD', 'ERR', 'RESET', [], []),
    ('UD', 'ERR', 'ERR', [], []);

-- The same table with the masks as numbers (IBV_QP_STATE is added to allowed_mask).
CREATE TABLE qp_transition_mask AS
SELECT t.qp_type, t.from_state, t.to_state, t.required, t.optional,
       coalesce((SELECT bit_or(value) FROM _value_name WHERE attr = 'attr_mask'
                 AND list_contains(t.required, replace(name, 'IBV_QP_', ''))), 0) AS required_mask,
       1 | coalesce((SELECT bit_or(value) FROM _value_name WHERE attr = 'attr_mask'
                     AND (list_contains(t.required, replace(name, 'IBV_QP_', ''))
                          OR list_contains(t.optional, replace(name, 'IBV_QP_', '')))), 0) AS allowed_mask
FROM qp_transition t;
