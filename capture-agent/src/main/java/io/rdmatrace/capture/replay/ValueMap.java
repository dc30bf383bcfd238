package io.rdmatrace.capture.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the recorded numbers are called on the device being replayed on: QPNs, GIDs, keys and
 * buffer addresses, local (learnt from the calls replayed here) and remote (learnt from the
 * peer's freshly exchanged parameters). A value that was never learnt maps to itself, so a
 * single-host trace (loopback, no peer) replays with its own numbers where nothing better is known.
 */
final class ValueMap {
    private final Map<Long, Long> localQpn = new HashMap<>();
    private final Map<Long, Long> remoteQpn = new HashMap<>();
    private final Map<String, String> localGid = new HashMap<>();
    private final Map<String, String> remoteGid = new HashMap<>();
    private final Map<Long, Long> localKey = new HashMap<>();
    private final Map<Long, Long> remoteKey = new HashMap<>();
    private final List<Region> localRegions = new ArrayList<>();
    private final List<Region> remoteRegions = new ArrayList<>();

    /** A buffer: where it was in the recording, how long, where it is now. */
    private record Region(long recorded, long length, long fresh) {
        boolean holds(long address) {
            return Long.compareUnsigned(address, recorded) >= 0
                    && Long.compareUnsigned(address - recorded, Math.max(1, length)) < 0;
        }
    }

    void localQpn(long recorded, long fresh) {
        localQpn.put(recorded, fresh);
    }

    void remoteQpn(long recorded, long fresh) {
        remoteQpn.put(recorded, fresh);
    }

    void localGid(String recorded, String fresh) {
        if (recorded != null && fresh != null) {
            localGid.put(recorded, fresh);
        }
    }

    void remoteGid(String recorded, String fresh) {
        if (recorded != null && fresh != null) {
            remoteGid.put(recorded, fresh);
        }
    }

    void localKey(long recorded, long fresh) {
        localKey.put(recorded, fresh);
    }

    void remoteKey(long recorded, long fresh) {
        remoteKey.put(recorded, fresh);
    }

    void localRegion(long recorded, long length, long fresh) {
        localRegions.add(0, new Region(recorded, length, fresh)); // newest first: a reused address means the new MR
    }

    void remoteRegion(long recorded, long length, long fresh) {
        remoteRegions.add(0, new Region(recorded, length, fresh));
    }

    /** A local QPN (created here). */
    long localQpn(long recorded) {
        return localQpn.getOrDefault(recorded, recorded);
    }

    boolean knowsLocalQpn(long recorded) {
        return localQpn.containsKey(recorded);
    }

    /** A QPN told by the peer, or a local one (a loopback connection), or itself. */
    long peerQpn(long recorded) {
        Long fresh = remoteQpn.get(recorded);
        return fresh != null ? fresh : localQpn.getOrDefault(recorded, recorded);
    }

    boolean knowsPeerQpn(long recorded) {
        return remoteQpn.containsKey(recorded) || localQpn.containsKey(recorded);
    }

    String localGid(String recorded) {
        return localGid.getOrDefault(recorded, recorded);
    }

    /** A GID told by the peer, or a local one, or itself. */
    String peerGid(String recorded) {
        String fresh = remoteGid.get(recorded);
        return fresh != null ? fresh : localGid.getOrDefault(recorded, recorded);
    }

    boolean knowsPeerGid(String recorded) {
        return remoteGid.containsKey(recorded) || localGid.containsKey(recorded);
    }

    long localKey(long recorded) {
        return localKey.getOrDefault(recorded, recorded);
    }

    /** An rkey told by the peer, or a local one (loopback), or itself. */
    long peerKey(long recorded) {
        Long fresh = remoteKey.get(recorded);
        return fresh != null ? fresh : localKey.getOrDefault(recorded, recorded);
    }

    /** An address inside a local buffer, moved to where that buffer is now. */
    long localAddress(long recorded) {
        return move(localRegions, recorded, recorded);
    }

    /** An address inside the peer's buffer (or a local one for loopback), moved likewise. */
    long peerAddress(long recorded) {
        long moved = move(remoteRegions, recorded, Long.MIN_VALUE);
        return moved != Long.MIN_VALUE ? moved : move(localRegions, recorded, recorded);
    }

    private static long move(List<Region> regions, long recorded, long otherwise) {
        for (Region r : regions) {
            if (r.holds(recorded)) {
                return r.fresh + (recorded - r.recorded);
            }
        }
        return otherwise;
    }
}
