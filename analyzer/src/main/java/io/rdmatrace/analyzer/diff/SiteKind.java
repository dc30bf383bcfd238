package io.rdmatrace.analyzer.diff;

/** What a {@link Site} observes. */
public enum SiteKind {
    /** the device's identity and limits from the SESSION */
    DEVICE,
    /** one port's attributes from the SESSION */
    PORT,
    /** one verbs call */
    CALL,
    /** one work completion */
    COMPLETION,
    /** one asynchronous event */
    ASYNC,
    /** the verdict of a scenario step */
    VERDICT
}
