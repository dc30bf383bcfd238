package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import io.rdmatrace.analyzer.AnalysisWarmUp;

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
                "  rdmatrace analyze trace/",
                "  rdmatrace watch trace/                          (while it runs)"})
public final class Main implements Runnable {

    @Spec
    CommandSpec spec;

    /** The verbs that load traces into DuckDB: they await the {@link AnalysisWarmUp} started before the parse. */
    private static final Set<String> ANALYSING_VERBS = Set.of("analyze", "show", "timeline", "watch");
    /** Options after which a verb loads nothing (a listing or a help text). */
    private static final Set<String> NOTHING_LOADED = Set.of("-h", "--help", "-V", "--version", "--list-rules");

    /**
     * The verbs, in the order `rdmatrace --help` lists them. Add a verb here, nowhere else.
     *
     * @param warmUp the library warm-up the analysing verbs await
     */
    static List<Object> verbs(AnalysisWarmUp warmUp) {
        return List.of(
                new AnalyzeCommand(warmUp),
                new WatchCommand(warmUp),
                new DemoCommand(),
                new CaptureCommand(),
                new RecordCommand(),
                new DiffCommand(),
                new ExportCommand(),
                new ReplayCommand(),
                new TimelineCommand(warmUp),
                new ShowCommand(warmUp),
                new DevicesCommand()
        );
    }

    public static void main(String[] args) {
        JvmDefaults.apply();
        // before the parse: picocli keeps one core busy meanwhile, the warm-up takes the other
        AnalysisWarmUp warmUp = loadsTraces(args) ? AnalysisWarmUp.start() : AnalysisWarmUp.none();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = execute(out, err, warmUp, args);
        closeUntaken(warmUp);
        System.exit(code);
    }

    /**
     * A command that stopped before it took the warm-up's database (a usage error, a missing folder) leaves it
     * starting: it is closed here rather than left to the JVM's exit, which would stop DuckDB's native threads
     * wherever they are.
     */
    private static void closeUntaken(AnalysisWarmUp warmUp) {
        try {
            warmUp.discardDatabase();
        } catch (SQLException e) {
            // an in-memory database that does not close leaves nothing behind; the command's outcome stands
        }
    }

    /** Whether this command line will load traces into DuckDB, as far as the words alone say. */
    static boolean loadsTraces(String... args) {
        if (args.length < 2 || !ANALYSING_VERBS.contains(args[0])) {
            return false;
        }
        for (String arg : args) {
            if (NOTHING_LOADED.contains(arg)) {
                return false;
            }
        }
        return true;
    }

    /** Runs one command line in-process; tests call this with their own writers. */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        return execute(out, err, AnalysisWarmUp.none(), args);
    }

    /** Runs one command line whose analysing verbs await {@code warmUp}. */
    static int execute(PrintWriter out, PrintWriter err, AnalysisWarmUp warmUp, String... args) {
        CommandLine commandLine = newCommandLine(warmUp);
        commandLine.setOut(out);
        commandLine.setErr(err);
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    static CommandLine newCommandLine() {
        return newCommandLine(AnalysisWarmUp.none());
    }

    private static CommandLine newCommandLine(AnalysisWarmUp warmUp) {
        CommandLine commandLine = new CommandLine(new Main());
        for (Object verb : verbs(warmUp)) {
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
