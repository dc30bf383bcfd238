package io.rdmatrace.verbs;

/** {@code struct ibv_device_attr}, every field; GUIDs in host order (as ibv_devinfo prints them). */
public record DeviceAttr(String fwVer, long nodeGuid, long sysImageGuid, long maxMrSize, long pageSizeCap,
                         int vendorId, int vendorPartId, int hwVer, int maxQp, int maxQpWr, int deviceCapFlags,
                         int maxSge, int maxSgeRd, int maxCq, int maxCqe, int maxMr, int maxPd, int maxQpRdAtom,
                         int maxEeRdAtom, int maxResRdAtom, int maxQpInitRdAtom, int maxEeInitRdAtom,
                         AtomicCap atomicCap, int maxEe, int maxRdd, int maxMw, int maxRawIpv6Qp, int maxRawEthyQp,
                         int maxMcastGrp, int maxMcastQpAttach, int maxTotalMcastQpAttach, int maxAh, int maxFmr,
                         int maxMapPerFmr, int maxSrq, int maxSrqWr, int maxSrqSge, int maxPkeys,
                         int localCaAckDelay, int physPortCnt) {
}
