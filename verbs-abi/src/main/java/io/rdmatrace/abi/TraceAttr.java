package io.rdmatrace.abi;

/**
 * How the trace records one {@link QpField}: the name of its trace attribute, the attribute's
 * on-disk code and its one-line meaning. trace-format's {@code Attr} constants for the recorded
 * ibv_qp_attr fields are generated from these at build time, so the code is written here once.
 *
 * <p>The code is an on-disk fact: never renumber or reuse one. A field recorded as an attribute the
 * trace declares for another struct as well ({@code port_num}, {@code pkey_index}, the caps) is
 * {@link #shared}: its code lives with that attribute.
 *
 * @param name the attribute's name ({@code PATH_MTU}), null when the field is not recorded
 * @param code the attribute's code, 0 when the attribute is shared or the field not recorded
 * @param render how a number prints when the field's {@link ValueKind} does not say it
 *     ({@code PSN24}, {@code HEX32}), or null
 * @param description what the attribute holds (FORMAT.md's attribute table), null when not declared here
 */
public record TraceAttr(String name, int code, String render, String description) {

    /** Not recorded in the trace. */
    public static final TraceAttr NONE = new TraceAttr(null, 0, null, null);

    public TraceAttr {
        if ((code != 0) != (description != null) || (name == null && (code != 0 || render != null))) {
            throw new IllegalArgumentException("trace attribute " + name + ": a code goes with a description");
        }
        if (code < 0 || code > 0xFFFF) {
            throw new IllegalArgumentException("trace attribute " + name + ": code out of range: " + code);
        }
    }

    /** Recorded as an attribute of its own, printed as its {@link ValueKind} says. */
    static TraceAttr recorded(String name, int code, String description) {
        return new TraceAttr(name, code, null, description);
    }

    /** Recorded as an attribute of its own, printed as {@code render} (an AttrKind name of the trace). */
    static TraceAttr recorded(String name, int code, String render, String description) {
        return new TraceAttr(name, code, render, description);
    }

    /** Recorded as an attribute the trace declares elsewhere. */
    static TraceAttr shared(String name) {
        return new TraceAttr(name, 0, null, null);
    }

    /** True when this field's attribute is declared (and its code written) here. */
    public boolean declaresAttr() {
        return code != 0;
    }
}
