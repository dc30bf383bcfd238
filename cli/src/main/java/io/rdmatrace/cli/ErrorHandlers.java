package io.rdmatrace.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/** The three-way error taxonomy of {@link Main}, as picocli handlers. */
final class ErrorHandlers {

    private ErrorHandlers() {
    }

    /** "rdmatrace analyze" for a sub-command, "rdmatrace" for the top level. */
    static String prefix(CommandLine commandLine) {
        return commandLine.getCommandSpec().qualifiedName();
    }

    /** Wrong arguments: the message, a hint, the usage; exit 2. */
    static final class Usage implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine commandLine = ex.getCommandLine();
            PrintWriter err = commandLine.getErr();
            err.println(prefix(commandLine) + ": " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
            commandLine.usage(err);
            return ExitCode.USAGE;
        }
    }

    /** Known failures print one line; anything else is a bug and shows its stack trace. */
    static final class Execution implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
            PrintWriter err = commandLine.getErr();
            int code = classify(ex);
            if (code == ExitCode.INTERNAL) {
                err.println(prefix(commandLine) + ": unexpected internal error: " + ex);
                ex.printStackTrace(err);
            } else {
                err.println(prefix(commandLine) + ": " + ex.getMessage());
            }
            err.flush();
            return code;
        }
    }

    /** Maps exceptions that escape without the execution handler (e.g. from a version provider). */
    static final class ExitCodes implements IExitCodeExceptionMapper {
        @Override
        public int getExitCode(Throwable exception) {
            return classify(exception);
        }
    }

    static int classify(Throwable ex) {
        if (ex instanceof UserDataException) {
            return ExitCode.FAILURE;
        }
        if (ex instanceof EnvironmentException) {
            return ExitCode.USAGE;
        }
        return ExitCode.INTERNAL;
    }
}
