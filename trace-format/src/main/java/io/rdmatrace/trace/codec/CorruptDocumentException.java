package io.rdmatrace.trace.codec;

/** A document that cannot be decoded; the message says why (the reader adds file and index). */
public final class CorruptDocumentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CorruptDocumentException(String why) {
        super(why);
    }
}
