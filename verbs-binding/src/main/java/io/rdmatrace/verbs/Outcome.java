package io.rdmatrace.verbs;

/**
 * The result of a verb that produces something (an object or a query answer), as a value:
 * either {@link Ok} with the value or {@link Failed}, both with the call's {@link CallStatus}.
 * The {@code tryX} methods return this, so an expected failure is observed without exceptions;
 * the plain {@code x} methods are {@code tryX(...).orThrow()}.
 */
public sealed interface Outcome<T> permits Outcome.Ok, Outcome.Failed {

    /** The libibverbs function, e.g. {@code ibv_create_qp}. */
    String verb();

    CallStatus status();

    /** The value, or {@link VerbsCallException} with the status. */
    T orThrow();

    default boolean ok() {
        return this instanceof Ok;
    }

    record Ok<T>(String verb, T value, CallStatus status) implements Outcome<T> {
        @Override
        public T orThrow() {
            return value;
        }
    }

    record Failed<T>(String verb, CallStatus status) implements Outcome<T> {
        @Override
        public T orThrow() {
            throw new VerbsCallException(verb, status);
        }
    }
}
