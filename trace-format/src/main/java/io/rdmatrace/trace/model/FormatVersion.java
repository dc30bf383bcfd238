package io.rdmatrace.trace.model;

/**
 * The trace format version carried in every SESSION record. A reader accepts the majors from
 * {@link #OLDEST_MAJOR} to its own, any minor of them (newer minors of its own major may add
 * attributes and trailing fields it skips), and refuses any other major. See FORMAT.md for the
 * changelog.
 */
public record FormatVersion(int major, int minor) {

    /** Bump when an old reader could misread a new trace; see FORMAT.md. */
    public static final int FORMAT_MAJOR = 2;
    /** Bump when something is added that old readers can safely skip. */
    public static final int FORMAT_MINOR = 0;
    /** The oldest major this build still reads (2.0 only added batch documents to 1.4). */
    public static final int OLDEST_MAJOR = 1;

    public static final FormatVersion CURRENT = new FormatVersion(FORMAT_MAJOR, FORMAT_MINOR);

    public FormatVersion {
        if (major < 0 || major > 0xFFFF || minor < 0 || minor > 0xFFFF) {
            throw new IllegalArgumentException("version out of range: " + major + "." + minor);
        }
    }

    /** True when a reader of {@link #CURRENT} can read a trace of this version. */
    public boolean readableByCurrent() {
        return major >= OLDEST_MAJOR && major <= FORMAT_MAJOR;
    }

    /** True when this version is {@code major.minor} or later. */
    public boolean atLeast(int major, int minor) {
        return this.major > major || this.major == major && this.minor >= minor;
    }

    /** True when this is a later minor of this build's major: it may carry fields this build skips. */
    public boolean newerMinorThanCurrent() {
        return major == FORMAT_MAJOR && minor > FORMAT_MINOR;
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
