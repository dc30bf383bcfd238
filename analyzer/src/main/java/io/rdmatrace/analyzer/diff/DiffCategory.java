package io.rdmatrace.analyzer.diff;

/**
 * The kinds of difference a diff reports. Behavioural ones (what the device did) make
 * {@code rdmatrace diff} exit 1; the others explain the context.
 */
public enum DiffCategory {
    IDENTITY("device identity", false),
    DEVICE("device and port attributes", true),
    RETURN("return codes and errnos", true),
    RETURNED("returned and queried attributes", true),
    COMPLETION("completions", true),
    ASYNC("asynchronous events", true),
    VERDICT("scenario step verdicts", true),
    MISSING("present in one capture only", true),
    /** arguments differ: the programs or their options differed, or the program reacted to a device difference */
    INPUT("call arguments", false);

    private final String title;
    private final boolean behavioural;

    DiffCategory(String title, boolean behavioural) {
        this.title = title;
        this.behavioural = behavioural;
    }

    public String title() {
        return title;
    }

    /** True when a difference of this kind is a difference in what the device did. */
    public boolean behavioural() {
        return behavioural;
    }
}
