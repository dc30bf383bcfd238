package io.rdmatrace.capture.config;

import java.util.Locale;

/** When receives are posted: before RTR (correct), after RTS and the barrier (racy: RNR NAKs), or never (RNR). */
public enum PostRecvTiming {
    BEFORE_RTR, AFTER_RTS, NEVER;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static PostRecvTiming parse(String text) {
        for (PostRecvTiming t : values()) {
            if (t.label().equalsIgnoreCase(text.trim()) || t.name().equalsIgnoreCase(text.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("--post-recv must be before-rtr, after-rts or never, got '" + text + "'");
    }
}
