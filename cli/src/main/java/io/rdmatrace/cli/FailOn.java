package io.rdmatrace.cli;

import io.rdmatrace.analyzer.Severity;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The {@code --fail-on SEVERITY} option of the analysing verbs: the least severity that makes them exit 1. */
final class FailOn {
    private FailOn() {
    }

    /** The threshold {@code value} names; null for "never". */
    static Severity parse(CommandSpec spec, String value) {
        if (value.equalsIgnoreCase("never")) {
            return null;
        }
        try {
            return Severity.parse(value);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--fail-on': '" + value + "' (expected error, warning, info or never)");
        }
    }
}
