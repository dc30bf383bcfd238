package io.rdmatrace.verbs;

/** {@code struct ibv_global_route}: the GRH part of an address vector (required on RoCE). */
public record GlobalRoute(Gid dgid, int flowLabel, int sgidIndex, int hopLimit, int trafficClass) {
    public static final GlobalRoute NONE = new GlobalRoute(Gid.ZERO, 0, 0, 0, 0);

    public GlobalRoute {
        if (dgid == null) {
            throw new IllegalArgumentException("dgid must not be null (use Gid.ZERO)");
        }
    }
}
