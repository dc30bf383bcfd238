package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code rdmatrace} command. Every verb is a {@code Callable<Integer>} registered in
 * {@link #verbs()}; errors follow one taxonomy (see {@link ExitCode}):
 * <ul>
 *   <li>wrong arguments (picocli {@code ParameterException}) → message + usage, exit 2;</li>
 *   <li>{@link EnvironmentException} (no device, no libibverbs, unreadable folder) → one line, exit 2;</li>
 *   <li>{@link UserDataException} (bad trace, failed capture step…) → one line, exit 1;</li>
 *   <li>anything else → "unexpected internal error" and the stack trace, exit 3.</li>
 * </ul>
 * Messages start with {@code rdmatrace <verb>:}.
 */
@Command(name = "rdmatrace",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Flight recorder and diagnosis for RDMA verbs connection bring-up.",
        footer = {"", "Example usage:",
                "  rdmatrace demo",
                "  rdmatrace devices --soft",
                "  rdmatrace capture --listen 7471 --soft          (host A)",
                "  rdmatrace capture --connect hostA:7471 --soft   (host B)",
                "  rdmatrace record -- ibv_rc_pingpong -g 3         (your own program)",
                "  rdmatrace analyze trace/"})
public final class Main implements Runnable {

    @Spec
    CommandSpec spec;

    /** The verbs, in the order `rdmatrace --help` lists them. Add a verb here, nowhere else. */
    static List<Object> verbs() {
        return List.of(
                new AnalyzeCommand(),
                new DemoCommand(),
                new CaptureCommand(),
                new RecordCommand(),
                new DiffCommand(),
                new ExportCommand(),
                new ReplayCommand(),
                new TimelineCommand(),
                new ShowCommand(),
                new DevicesCommand()
        );
    }

    public static void main(String[] args) {
        JvmDefaults.apply();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(execute(out, err, args));
    }

    /** Runs one command line in-process; tests call this with their own writers. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = newCommandLine();
        commandLine.setOut(out);
        commandLine.setErr(err);
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    static CommandLine newCommandLine() {
        CommandLine commandLine = new CommandLine(new Main());
        for (Object verb : verbs()) {
            commandLine.addSubcommand(verb);
        }
        // every verb answers --help and --version, whether or not its class asks for them
        commandLine.getSubcommands().values()
                .forEach(verb -> verb.getCommandSpec().mixinStandardHelpOptions(true));
        // everything after COMMAND belongs to the recorded program, options included
        commandLine.getSubcommands().get("record").setStopAtPositional(true);
        commandLine.setParameterExceptionHandler(new ErrorHandlers.Usage());
        commandLine.setExecutionExceptionHandler(new ErrorHandlers.Execution());
        commandLine.setExitCodeExceptionMapper(new ErrorHandlers.ExitCodes());
        return commandLine;
    }

    @Override
    public void run() {
        // `rdmatrace` alone: show what there is to do.
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
