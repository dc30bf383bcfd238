package io.rdmatrace.trace.model;

/**
 * The trace format version carried in every SESSION record. A reader accepts any minor version
 * of its own major (newer minors may add attributes and trailing fields it skips) and refuses
 * any other major. See FORMAT.md for the changelog.
 */
public record FormatVersion(int major, int minor) {

    /** Bump when an old reader could misread a new trace; see FORMAT.md. */
    public static final int FORMAT_MAJOR = 1;
    /** Bump when something is added that old readers can safely skip. */
    public static final int FORMAT_MINOR = 4;

    public static final FormatVersion CURRENT = new FormatVersion(FORMAT_MAJOR, FORMAT_MINOR);

    public FormatVersion {
        if (major < 0 || major > 0xFFFF || minor < 0 || minor > 0xFFFF) {
            throw new IllegalArgumentException("version out of range: " + major + "." + minor);
        }
    }

    /** True when a reader of {@link #CURRENT} can read a trace of this version. */
    public boolean readableByCurrent() {
        return major == FORMAT_MAJOR;
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
