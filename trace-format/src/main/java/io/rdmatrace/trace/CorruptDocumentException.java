package io.rdmatrace.trace;

/** A document that cannot be decoded; the message says why (the reader adds file and index). */
final class CorruptDocumentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CorruptDocumentException(String why) {
        super(why);
    }
}
