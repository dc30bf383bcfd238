package io.rdmatrace.analyzer.timeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rdmatrace.analyzer.timeline.Timeline.Lane;

/** Puts the two ends of each connection on adjacent lanes. */
final class LaneOrder {

    private LaneOrder() {
    }

    /**
     * The QP lanes ordered by connection: each QP followed by its peer (the QP on another host
     * whose number is this QP's dest_qp_num and whose dest_qp_num is this QP's number).
     */
    static List<Lane> byConnection(List<Lane> qpLanes, Map<String, Integer> destOf) {
        Map<String, Lane> byHostAndQpn = new HashMap<>();
        for (Lane l : qpLanes) {
            if (l.qpNum() != null) {
                byHostAndQpn.putIfAbsent(l.hostIndex() + "/" + l.qpNum(), l);
            }
        }
        Map<Integer, List<Integer>> hostsOfQpn = new HashMap<>();
        for (Lane l : qpLanes) {
            if (l.qpNum() != null) {
                hostsOfQpn.computeIfAbsent(l.qpNum(), k -> new ArrayList<>()).add(l.hostIndex());
            }
        }
        Map<String, String> peer = new HashMap<>();
        for (Lane l : qpLanes) {
            Integer dest = destOf.get(l.id());
            if (dest == null || peer.containsKey(l.id())) {
                continue;
            }
            for (int h : hostsOfQpn.getOrDefault(dest, List.of())) {
                Lane other = byHostAndQpn.get(h + "/" + dest);
                if (other != null && h != l.hostIndex() && l.qpNum() != null
                        && l.qpNum().equals(destOf.get(other.id())) && !peer.containsKey(other.id())) {
                    peer.put(l.id(), other.id());
                    peer.put(other.id(), l.id());
                    break;
                }
            }
        }
        Map<String, Lane> byId = new LinkedHashMap<>();
        for (Lane l : qpLanes) {
            byId.put(l.id(), l.withPeer(peer.get(l.id())));
        }
        List<Lane> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (Lane l : byId.values()) {
            if (placed.add(l.id())) {
                ordered.add(l);
                String p = l.peer();
                if (p != null && placed.add(p)) {
                    ordered.add(byId.get(p));
                }
            }
        }
        return ordered;
    }
}
