package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.cli.ReadmeExamples.Example;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every command in README.md and bench/README.md is checked here, so the manual cannot drift from the tool:
 * each `rdmatrace` command parses with the real option parser; the ones that read the shipped sample traces
 * run here and must print the lines the README shows; the ones that need two hosts, a device or a program run
 * in the test named for them in {@link #RUN_BY}; build, CI and benchmark commands are checked against the
 * scripts, modules, make targets and benchmarks they name. A command no rule covers fails the test.
 */
class ReadmeCommandsTest {
    private static final Path REPO = ReadmeExamples.REPO;
    private static final List<String> DOCS = List.of("README.md", "bench/README.md");

    /** Commands whose run needs two hosts, a device or a program: the test that runs that command, by prefix. */
    private static final Map<String, String> RUN_BY = new LinkedHashMap<>();

    static {
        RUN_BY.put("rdmatrace demo", "cli/src/test/java/io/rdmatrace/cli/DemoCommandTest.java");
        RUN_BY.put("rdmatrace capture --soft --cm", "cli/src/test/java/io/rdmatrace/cli/CaptureCmTest.java");
        RUN_BY.put("rdmatrace capture --soft", "cli/src/test/java/io/rdmatrace/cli/CaptureTwoHostTest.java");
        RUN_BY.put("rdmatrace devices --soft", "cli/src/test/java/io/rdmatrace/cli/DevicesCommandTest.java");
        RUN_BY.put("rdmatrace record", "cli/src/test/java/io/rdmatrace/cli/RecordedProgramAnalysisTest.java");
        RUN_BY.put("rdmatrace analyze trace/", "cli/src/test/java/io/rdmatrace/cli/RecordedProgramAnalysisTest.java");
        RUN_BY.put("rdmatrace diff", "cli/src/test/java/io/rdmatrace/cli/DiffExportCommandTest.java");
        RUN_BY.put("rdmatrace export --format parquet", "cli/src/test/java/io/rdmatrace/cli/ExportParquetCommandTest.java");
        RUN_BY.put("rdmatrace export", "cli/src/test/java/io/rdmatrace/cli/DiffExportCommandTest.java");
        RUN_BY.put("rdmatrace analyze bug.zip", "cli/src/test/java/io/rdmatrace/cli/DiffExportCommandTest.java");
        RUN_BY.put("rdmatrace replay", "cli/src/test/java/io/rdmatrace/cli/ReplayCommandTest.java");
        RUN_BY.put("rdmatrace timeline trace/", "cli/src/test/java/io/rdmatrace/cli/TimelineCommandTest.java");
        RUN_BY.put("ibv_rc_pingpong", "softverbs/src/test/java/io/rdmatrace/softverbs/PingpongTest.java");
    }

    /** Verbs that read a trace and write only to standard output or `-o`: run here when their inputs are shipped. */
    private static final Set<String> RUN_HERE = Set.of("analyze", "show", "timeline");

    private static List<Example> examples() {
        return DOCS.stream().flatMap(doc -> ReadmeExamples.of(doc).examples().stream()).toList();
    }

    @Test
    void bothFiles_haveCommands_andTheQuickStartHasTheTwo() throws IOException {
        ReadmeExamples readme = ReadmeExamples.of("README.md");
        assertThat(Files.readString(REPO.resolve("README.md"), StandardCharsets.UTF_8)).contains("\n## Quick start\n");
        assertThat(readme.find("rdmatrace", "demo").line()).isLessThan(readme.find("mvn", "verify").line() + 2);
        assertThat(ReadmeExamples.of("bench/README.md").examples()).isNotEmpty();
        assertThat(Files.readAllLines(REPO.resolve("README.md"))).as("README.md lines").hasSizeLessThan(500);
    }

    @Test
    void everyCommand_isCoveredByACheck() {
        List<String> uncovered = new ArrayList<>();
        for (Example e : examples()) {
            if (coverage(e) == null) {
                uncovered.add(e.where());
            }
        }
        assertThat(uncovered).as("commands no check covers (add one to ReadmeCommandsTest)").isEmpty();
    }

    @Test
    void everyRdmatraceCommand_parses() {
        List<String> failures = new ArrayList<>();
        for (Example e : examples()) {
            if (e.program().equals("rdmatrace")) {
                try {
                    Main.newCommandLine().parseArgs(e.args().toArray(String[]::new));
                } catch (CommandLine.ParameterException ex) {
                    failures.add(e.where() + ": " + ex.getMessage());
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void commandsOnShippedTraces_runHere_andPrintWhatTheReadmeShows(@TempDir Path dir) {
        List<String> failures = new ArrayList<>();
        int ran = 0;
        for (Example e : examples()) {
            if (!runsHere(e)) {
                continue;
            }
            List<String> args = new ArrayList<>();
            for (int i = 0; i < e.args().size(); i++) {
                String arg = e.args().get(i);
                boolean output = i > 0 && (e.args().get(i - 1).equals("-o") || e.args().get(i - 1).equals("--out"));
                if (output) {
                    args.add(dir.resolve(Path.of(arg).getFileName()).toString());
                } else {
                    args.add(arg.contains("/") ? REPO.resolve(arg).toString() : arg);
                }
            }
            MainTest.Run run = MainTest.run(args.toArray(String[]::new));
            ran++;
            String out = run.out().replace(REPO + "/", "");
            if (run.code() != ExitCode.OK && run.code() != ExitCode.FAILURE) {
                failures.add(e.where() + " exited " + run.code() + ": " + run.err());
            }
            List<String> missing = ReadmeExamples.missing(e.shown(), out);
            if (!missing.isEmpty()) {
                failures.add(e.where() + " did not print: " + missing + "\n--- it printed:\n" + out);
            }
        }
        assertThat(ran).as("commands run on the sample traces").isGreaterThanOrEqualTo(3);
        assertThat(failures).isEmpty();
    }

    @Test
    void shownLines_areFoundPieceByPieceInOrder_andALineTheOutputLacksIsReported() {
        String out = "Hosts\n  hostA      trace complete       60 events  verdict: ok   /tmp/x/hostA\n";
        assertThat(ReadmeExamples.missing(List.of("Hosts", "  hostA      trace complete…verdict: ok…/hostA", "…"), out)).isEmpty();
        assertThat(ReadmeExamples.missing(List.of("  hostA …verdict: FAILED"), out)).containsExactly("  hostA …verdict: FAILED");
        assertThat(ReadmeExamples.missing(List.of("verdict: ok…trace complete"), out)).hasSize(1);   // order matters
    }

    @Test
    void verbTable_namesEveryVerbOnce() throws IOException {
        String readme = Files.readString(REPO.resolve("README.md"), StandardCharsets.UTF_8);
        Matcher row = Pattern.compile("(?m)^\\| `([a-z]+)` \\|").matcher(readme);
        List<String> rows = new ArrayList<>();
        while (row.find()) {
            rows.add(row.group(1));
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(Main.newCommandLine().getSubcommands().keySet()
                .stream().filter(v -> !v.equals("help")).toList());
    }

    @Test
    void linkedFiles_exist() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String doc : DOCS) {
            Path file = REPO.resolve(doc);
            Matcher link = Pattern.compile("\\]\\(([^)#:]+)\\)").matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (link.find()) {
                if (!Files.exists(file.getParent().resolve(link.group(1)))) {
                    missing.add(doc + " -> " + link.group(1));
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    private static boolean runsHere(Example e) {
        if (!e.program().equals("rdmatrace") || e.args().isEmpty() || !RUN_HERE.contains(e.args().get(0))) {
            return false;
        }
        List<String> inputs = new ArrayList<>();
        for (int i = 1; i < e.args().size(); i++) {
            String arg = e.args().get(i);
            if (!arg.startsWith("-") && !e.args().get(i - 1).equals("-o") && (arg.contains("/") || i == 1)) {
                inputs.add(arg);
            }
        }
        return !inputs.isEmpty() && inputs.stream().allMatch(p -> p.startsWith("sample-traces/") && Files.exists(REPO.resolve(p)));
    }

    /** What checks this command, or null when nothing does. */
    private static String coverage(Example e) {
        String line = String.join(" ", e.argv());
        if (e.argv().isEmpty()) {
            return assignedPathsExist(e) ? "assignment of an existing path" : null;
        }
        if (runsHere(e)) {
            return "run here";
        }
        for (Map.Entry<String, String> by : RUN_BY.entrySet()) {
            if (line.startsWith(by.getKey())) {
                return Files.isRegularFile(REPO.resolve(by.getValue())) ? by.getValue() : null;
            }
        }
        return switch (e.program()) {
            case "mvn" -> mavenCovered(e.args()) ? "maven" : null;
            case "bench/speed-goals.sh" -> speedGoalOptionsKnown(e.args()) ? "SpeedGoals options" : null;
            case "java" -> benchmarkExists(e.args()) ? "JMH benchmark" : null;
            case "make" -> makeTargetExists(e.args()) ? "make target" : null;
            default -> null;
        };
    }

    private static boolean assignedPathsExist(Example e) {
        return !e.env().isEmpty() && e.env().values().stream().allMatch(v -> Files.exists(REPO.resolve(v)));
    }

    /** `mvn verify` is what .ci/run runs; `-pl M -Dtest=T` names a module and test classes in it. */
    private static boolean mavenCovered(List<String> args) {
        if (args.equals(List.of("verify"))) {
            return read(".ci/run").contains("mvn -B verify");
        }
        String module = null;
        List<String> tests = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("-pl") && i + 1 < args.size()) {
                module = args.get(i + 1);
            } else if (args.get(i).startsWith("-Dtest=")) {
                tests.addAll(List.of(args.get(i).substring("-Dtest=".length()).split(",")));
            } else if (args.get(i).equals("-DskipTests") || args.get(i).equals("package")) {
                return true;
            }
        }
        if (module == null || !Files.isDirectory(REPO.resolve(module).resolve("src/test/java"))) {
            return false;
        }
        Set<String> classes = new TreeSet<>();
        try (Stream<Path> files = Files.walk(REPO.resolve(module).resolve("src/test/java"))) {
            files.forEach(f -> classes.add(f.getFileName().toString().replace(".java", "")));
        } catch (IOException ex) {
            return false;
        }
        return !tests.isEmpty() && classes.containsAll(tests);
    }

    /** Every option is one SpeedGoals.main reads, every row one it knows. */
    private static boolean speedGoalOptionsKnown(List<String> args) {
        String source = read("bench/src/main/java/io/rdmatrace/bench/SpeedGoals.java");
        Set<String> options = new TreeSet<>();
        Matcher option = Pattern.compile("case \"(--[a-z-]+)\"").matcher(source);
        while (option.find()) {
            options.add(option.group(1));
        }
        for (int i = 0; i < args.size(); i += 2) {
            if (!options.contains(args.get(i)) || i + 1 >= args.size()) {
                return false;
            }
            if (args.get(i).equals("--rows") && !args.get(i + 1).matches("[1-7](,[1-7])*")) {
                return false;
            }
        }
        return true;
    }

    /** `java -jar bench/target/benchmarks.jar REGEX`: the regex names a JMH benchmark class of bench/. */
    private static boolean benchmarkExists(List<String> args) {
        if (args.size() != 3 || !args.get(0).equals("-jar") || !args.get(1).equals("bench/target/benchmarks.jar")) {
            return false;
        }
        Pattern regex = Pattern.compile(args.get(2));
        try (Stream<Path> files = Files.list(REPO.resolve("bench/src/main/java/io/rdmatrace/bench"))) {
            return files.anyMatch(f -> regex.matcher(f.getFileName().toString()).find()
                    && read(REPO.relativize(f).toString()).contains("@Benchmark"));
        } catch (IOException ex) {
            return false;
        }
    }

    /** `make -C DIR TARGET`: DIR's Makefile has the target. */
    private static boolean makeTargetExists(List<String> args) {
        if (args.size() != 3 || !args.get(0).equals("-C")) {
            return false;
        }
        return Pattern.compile("(?m)^" + Pattern.quote(args.get(2)) + ":").matcher(read(args.get(1) + "/Makefile")).find();
    }

    private static String read(String repoRelative) {
        try {
            return Files.readString(REPO.resolve(repoRelative), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
