package io.rdmatrace.verbs;

import java.lang.management.ManagementFactory;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The bytes the JVM itself has from malloc (compiler arenas, GC structures, symbols, code
 * metadata ...), as its Native Memory Tracking counts them: what the process's malloc total also
 * holds besides the allocations of native code (ours and the C library's). Needs the JVM started
 * with {@code -XX:NativeMemoryTracking=summary} (the native module's surefire configuration).
 */
final class JvmMallocs {
    /** The summary's total line: "malloc: BYTES #COUNT". */
    private static final Pattern TOTAL = Pattern.compile("(?m)^\\s*malloc: (\\d+) #\\d+");

    private JvmMallocs() {
    }

    static long bytes() {
        String summary = summary();
        Matcher total = TOTAL.matcher(summary);
        if (!total.find()) {
            throw new IllegalStateException("no malloc total in the JVM's native memory summary (is the JVM "
                    + "started with -XX:NativeMemoryTracking=summary?):\n" + summary);
        }
        return Long.parseLong(total.group(1));
    }

    /** What {@code jcmd PID VM.native_memory summary scale=b} prints, asked of this JVM. */
    private static String summary() {
        try {
            return (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {"summary", "scale=b"}}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IllegalStateException("could not ask the JVM for its native memory summary", e);
        }
    }
}
