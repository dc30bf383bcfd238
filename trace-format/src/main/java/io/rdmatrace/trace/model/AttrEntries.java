package io.rdmatrace.trace.model;

/**
 * Attribute entries read by index in ascending code order: an {@link Attrs}, or a builder the
 * recorder sorted in place. The encoder writes either through this one view, so both give the
 * same bytes.
 */
public interface AttrEntries {
    /** Number of numeric entries. */
    int size();

    /** The i-th numeric attribute. */
    Attr attr(int i);

    /** The i-th numeric value. */
    long value(int i);

    /** Number of text entries. */
    int textSize();

    /** The i-th text attribute. */
    Attr textAttr(int i);

    /** The i-th text value. */
    String text(int i);
}
