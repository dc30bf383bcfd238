package io.rdmatrace.capture.oob;

/** Which end of the TCP exchange this agent is; also the direction tag inside every MAC. */
public enum OobRole {
    LISTEN(0),
    CONNECT(1);

    private final int code;

    OobRole(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public OobRole peer() {
        return this == LISTEN ? CONNECT : LISTEN;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static OobRole fromCode(int code) throws OobException {
        for (OobRole r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        throw new OobException(OobException.Kind.MALFORMED, "unknown role code " + code + " in HELLO");
    }
}
