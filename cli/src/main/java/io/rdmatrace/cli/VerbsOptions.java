package io.rdmatrace.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * Which libibverbs a verb talks to, shared by every verb that opens a device
 * ({@code @Mixin VerbsOptions verbs;}). Precedence: {@code --soft}, {@code --verbs-lib},
 * the environment variable {@code RDMATRACE_VERBS_LIB}, then the system's {@code libibverbs.so.1}.
 */
public final class VerbsOptions {
    @Option(names = "--soft",
            description = "Use the bundled software RoCEv2 device (softverbs); its devices come from SOFTVERBS_DEVICES.")
    boolean soft;

    @Option(names = "--verbs-lib", paramLabel = "PATH",
            description = "libibverbs to load (default: $RDMATRACE_VERBS_LIB, else the system's libibverbs.so.1).")
    Path verbsLib;

    public boolean soft() {
        return soft;
    }

    /** The explicit library path, or null when none was given on the command line. */
    public Path verbsLib() {
        return verbsLib;
    }
}
