package io.rdmatrace.analyzer;

import java.util.List;

/**
 * One connection as the report summarises it: the two QPs (host, QPN), how they were matched,
 * and the QP states each side went through.
 *
 * @param pairId    the connection_pairs row
 * @param hostA     first host (sorts first)
 * @param qpA       its QPN
 * @param hostB     second host
 * @param qpB       its QPN
 * @param qpType    RC, UC, UD … (of side A, else B), or "?"
 * @param matchedBy "oob", "dest_qp_num" or "dest_qp_num+oob"
 * @param statesA   states side A reached, in order (e.g. RESET, INIT, RTR, RTS)
 * @param statesB   states side B reached
 */
public record ConnectionSummary(long pairId, String hostA, long qpA, String hostB, long qpB, String qpType,
        String matchedBy, List<String> statesA, List<String> statesB) {
    public ConnectionSummary {
        statesA = List.copyOf(statesA);
        statesB = List.copyOf(statesB);
    }
}
