package io.rdmatrace.capture.record;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.QpAnswer;

/**
 * Remembers the last GID formatted (as {@link GidText#format}): a capture formats the same one or two
 * GIDs (the peer's, our own) over and over. Not thread-safe (the recorder serialises its calls).
 */
public final class GidCache {
    private Gid last;
    private String lastText;
    private byte[] lastRaw;
    private String lastRawText;

    public String text(Gid gid) {
        if (!gid.equals(last)) {
            lastText = GidText.format(gid.raw());
            last = gid;
        }
        return lastText;
    }

    /** Same for GID field {@code f} of a query answer, compared in place: no copy when it is the last one. */
    public String text(QpAnswer q, QpField f) {
        if (last != null && q.gidEquals(f, last)) {
            return lastText;
        }
        return text(q.gid(f));
    }

    /** Same for raw GID bytes (an out-of-band PARAMS message). */
    public String text(byte[] raw) {
        if (!java.util.Arrays.equals(raw, lastRaw)) {
            lastRawText = GidText.format(raw);
            lastRaw = raw.clone();
        }
        return lastRawText;
    }
}
