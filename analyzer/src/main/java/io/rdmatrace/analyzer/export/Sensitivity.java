package io.rdmatrace.analyzer.export;

import io.rdmatrace.trace.model.Attr;

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
        if (attr == Attr.FW_VER) {
            return NONE; // a version string: what a diff across firmware is about
        }
        return switch (attr.meaning()) {
            case HANDLE, ADDRESS -> ADDRESS;
            case KEY -> KEY;
            case GUID -> GUID;
            case GID -> GID;
            default -> attr.isText() ? TEXT : NONE;
        };
    }
}
