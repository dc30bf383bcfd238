package io.rdmatrace.analyzer.export;

import io.rdmatrace.trace.Attr;

/** What {@code --redact} does with each attribute of the trace dictionary. */
enum Sensitivity {
    /** user-space pointers: buffers and object handles ({@link AddressSpans}) */
    ADDRESS,
    /** lkeys and rkeys */
    KEY,
    /** GUIDs (MAC-derived) */
    GUID,
    /** GIDs as IPv6 text */
    GID,
    /** free text that may quote any of the above, host names or paths */
    TEXT,
    /** kept as is */
    NONE;

    static Sensitivity of(Attr attr) {
        switch (attr) {
            case HANDLE: case CONTEXT: case PD: case CQ: case SEND_CQ: case RECV_CQ: case QP: case MR: case AH:
            case CHANNEL: case SRQ: case DEVICE: case ADDR: case REMOTE_ADDR: case ELEMENT:
                return ADDRESS;
            case LKEY: case RKEY:
                return KEY;
            case NODE_GUID: case SYS_IMAGE_GUID:
                return GUID;
            case GID: case DGID:
                return GID;
            case FW_VER:
                return NONE; // a version string: what a diff across firmware is about
            default:
                return attr.isText() ? TEXT : NONE;
        }
    }
}
