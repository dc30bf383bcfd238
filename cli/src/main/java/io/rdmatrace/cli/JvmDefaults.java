package io.rdmatrace.cli;

/**
 * System properties the libraries must see before their first class loads: Chronicle must
 * neither phone home nor print its banner nor its disk-space warnings, jOOQ must not print its logo, and Arrow should not
 * probe for netty. The launcher script passes the same as -D flags; this covers `java -jar`.
 */
final class JvmDefaults {
    private JvmDefaults() {
    }

    static void apply() {
        setIfAbsent("chronicle.analytics.disable", "true");
        setIfAbsent("chronicle.announcer.disable", "true");
        // its "disk almost full" ERROR line: a full disk is told in rdmatrace's own one sentence
        setIfAbsent("chronicle.disk.monitor.disable", "true");
        setIfAbsent("org.jooq.no-logo", "true");
        setIfAbsent("org.jooq.no-tips", "true");
        setIfAbsent("arrow.allocation.manager.type", "Unsafe");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
