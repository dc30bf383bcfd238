package io.rdmatrace.verbs;

/** A completion event read from a {@link CompletionChannel}: the CQ that has new completions. */
public record CqEvent(CompletionQueue cq) {
}
