package io.rdmatrace.analyzer;

import java.util.List;

/**
 * One connection as the report summarises it: the two QPs (host, QPN), how they were matched,
 * the QP states each side went through and the state each ended in.
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
 * @param finalA    the state side A ended in, or null when unknown
 * @param finalB    the state side B ended in, or null when unknown
 */
public record ConnectionSummary(long pairId, String hostA, long qpA, String hostB, long qpB, String qpType,
        String matchedBy, List<String> statesA, List<String> statesB, QpFinalState finalA, QpFinalState finalB) {
    public ConnectionSummary {
        statesA = List.copyOf(statesA);
        statesB = List.copyOf(statesB);
    }

    /** The states of side A up to the one it ended in (ERR, SQE … when an error came after the last modify). */
    public List<String> pathA() {
        return path(statesA, finalA);
    }

    public List<String> pathB() {
        return path(statesB, finalB);
    }

    private static List<String> path(List<String> states, QpFinalState last) {
        if (last == null || states.isEmpty() || states.get(states.size() - 1).equals(last.state())) {
            return states;
        }
        List<String> path = new java.util.ArrayList<>(states);
        path.add(last.state());
        return List.copyOf(path);
    }
}
