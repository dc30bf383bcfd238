package io.rdmatrace.verbs;

/** {@code struct ibv_ah_attr}: an address vector (QP path or address handle). */
public record AhAttr(GlobalRoute grh, int dlid, int sl, int srcPathBits, int staticRate, boolean isGlobal,
                     int portNum) {
    public static final AhAttr NONE = new AhAttr(GlobalRoute.NONE, 0, 0, 0, 0, false, 0);

    public AhAttr {
        if (grh == null) {
            throw new IllegalArgumentException("grh must not be null (use GlobalRoute.NONE)");
        }
    }

    /** A RoCE destination: GRH with {@code dgid} from local GID {@code sgidIndex}, hop limit 1. */
    public static AhAttr roce(Gid dgid, int sgidIndex, int portNum) {
        return new AhAttr(new GlobalRoute(dgid, 0, sgidIndex, 1, 0), 0, 0, 0, 0, true, portNum);
    }
}
