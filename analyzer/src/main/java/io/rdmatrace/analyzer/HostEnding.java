package io.rdmatrace.analyzer;

import java.util.Objects;

/**
 * How one host's recording ended, from its END event ({@code hosts.ending} ...).
 *
 * @param host           host id
 * @param ending         EXITED, KILLED, INTERRUPTED, FINISHED or UNSTATED
 * @param exitStatus     the recorded program's exit status, or null when it did not exit
 * @param signal         the signal that ended the program, or null
 * @param recorderSignal the signal {@code record} received, or null
 * @param detail         the recorder's sentence, or null
 * @param text           the ending in a few words
 */
public record HostEnding(String host, String ending, Integer exitStatus, Integer signal, Integer recorderSignal,
        String detail, String text) {
    public HostEnding {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(text, "text");
    }
}
