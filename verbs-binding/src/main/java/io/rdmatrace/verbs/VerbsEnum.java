package io.rdmatrace.verbs;

/** An enum that mirrors one libibverbs enum: the real numeric value and the C name. */
public interface VerbsEnum {
    /** The value libibverbs uses (e.g. 3 for {@code IBV_QPS_RTS}). */
    int value();

    /** The C constant's name, e.g. {@code IBV_QPS_RTS}. */
    String ibvName();
}
