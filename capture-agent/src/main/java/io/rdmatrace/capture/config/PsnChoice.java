package io.rdmatrace.capture.config;

/**
 * The PSN told to the peer (--advertise-psn): the real sq_psn (default), an absolute value, or an offset
 * from the real one ("+1", "-1") so a test can lie by exactly one without knowing the random PSN.
 */
public record PsnChoice(Kind kind, int value) {
    public static final int MASK = 0xFFFFFF;
    public static final PsnChoice TRUTH = new PsnChoice(Kind.TRUTH, 0);

    public enum Kind { TRUTH, ABSOLUTE, OFFSET }

    public static PsnChoice parse(String text) {
        String t = text.trim();
        try {
            if (t.startsWith("+") || t.startsWith("-")) {
                return new PsnChoice(Kind.OFFSET, Integer.parseInt(t));
            }
            Long v = Symbols.parseNumber(t);
            if (v == null || v < 0 || v > MASK) {
                throw new NumberFormatException();
            }
            return new PsnChoice(Kind.ABSOLUTE, v.intValue());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--advertise-psn takes a 24-bit PSN (e.g. 4660 or 0x1234) or an offset (+1, -1), got '" + text + "'");
        }
    }

    /** What to tell the peer when the QP really starts at sqPsn. */
    public int advertised(int sqPsn) {
        return switch (kind) {
            case TRUTH -> sqPsn;
            case ABSOLUTE -> value;
            case OFFSET -> (sqPsn + value) & MASK;
        };
    }
}
