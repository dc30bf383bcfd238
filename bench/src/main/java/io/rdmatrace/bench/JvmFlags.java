package io.rdmatrace.bench;

/**
 * The JVM flags Chronicle needs (the root pom's rdmatrace.jvm.flags), as constants for
 * {@code @Fork(jvmArgsAppend = ...)}: JMH forks with {@code -cp benchmarks.jar}, so the jar
 * manifest's Add-Opens do not reach the forked JVM, and without them Chronicle cannot map files.
 */
final class JvmFlags {

    private JvmFlags() {
    }

    static final String OPENS_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    static final String EXPORTS_NIO_CH = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String OPENS_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    static final String EXPORTS_JAVAC = "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED";
    static final String EXPORTS_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    static final String OPENS_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String NO_ANALYTICS = "-Dchronicle.analytics.disable=true";
    static final String NO_BANNER = "-Dchronicle.announcer.disable=true";
}
