package io.rdmatrace.analyzer.show;

import java.util.List;
import java.util.Objects;

/**
 * One event as {@code rdmatrace show} prints it: its identity and time, then every recorded field
 * decoded through the trace model's attribute dictionary (enum and flag names, hex for keys,
 * addresses, PSNs and QPNs), and the QP's state at that moment.
 *
 * @param host    host id
 * @param seq     event seq
 * @param kind    SESSION, CALL, COMPLETION, ASYNC_EVENT, OOB, MARK, COUNTERS, END
 * @param name    the verb, completion status, message kind …
 * @param wallNs  wall clock (ns since the epoch)
 * @param tsNs    aligned time (the reference host's clock)
 * @param thread  thread name, or null
 * @param fields  the recorded fields, in the relation's column order
 * @param qpState the QP's state just before this event ("RTS", "ERR since hostB#51 …"), or null
 */
public record ShownEvent(String host, long seq, String kind, String name, long wallNs, long tsNs, String thread,
        List<Field> fields, String qpState) {
    public ShownEvent {
        Objects.requireNonNull(host, "host");
        fields = List.copyOf(fields);
    }

    /**
     * One field: its column name, the raw value (a number or text) and how people read it.
     *
     * @param name  column name ({@code in_sq_psn}, {@code errno}, {@code status} …)
     * @param raw   the stored value as text (numbers in decimal; unsigned where the kind says so)
     * @param text  the decoded value ({@code 0xbed0c3}, {@code IBV_QPS_RTS}, {@code EINVAL}); equals raw when nothing decodes it
     */
    public record Field(String name, String raw, String text) {
    }
}
