package io.rdmatrace.trace.model;

/**
 * What an attribute's value is, beyond its encoding ({@link AttrKind}): the one place that says
 * which attributes are run-specific identifiers, secrets or measurements. Diff's ignore groups,
 * export's redaction and replay's "expected to differ" set are derived from it.
 */
public enum AttrMeaning {
    /** a user-space pointer to a verbs object (or an async event's element) */
    HANDLE,
    /** a buffer's virtual address */
    ADDRESS,
    /** an lkey or rkey */
    KEY,
    /** a QP number */
    QPN,
    /** a packet sequence number */
    PSN,
    /** a GID as IPv6 text */
    GID,
    /** a GUID (MAC-derived) */
    GUID,
    /** free text (error message, reason) */
    TEXT,
    /** a measured quantity (a duration) */
    MEASUREMENT,
    /** what the program or device chose or did: compared, kept */
    BEHAVIOUR;

    static AttrMeaning of(Attr attr) {
        switch (attr) {
            case HANDLE: case CONTEXT: case PD: case CQ: case SEND_CQ: case RECV_CQ: case QP: case MR: case AH:
            case CHANNEL: case SRQ: case DEVICE: case ELEMENT:
                return HANDLE;
            case ADDR: case REMOTE_ADDR:
                return ADDRESS;
            case LKEY: case RKEY:
                return KEY;
            case QP_NUM: case DEST_QP_NUM: case REMOTE_QPN: case SRC_QP: case PEER_QP_NUM:
                return QPN;
            case RQ_PSN: case SQ_PSN: case PSN:
                return PSN;
            case GID: case DGID:
                return GID;
            case NODE_GUID: case SYS_IMAGE_GUID:
                return GUID;
            case MESSAGE:
                return TEXT;
            case DURATION:
                return MEASUREMENT;
            default:
                return BEHAVIOUR;
        }
    }

    /** Different on every run by design (identifiers the device or the allocator hands out, measurements). */
    public boolean differsPerRun() {
        return this != BEHAVIOUR;
    }
}
