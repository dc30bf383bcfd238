package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.Verb;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One ibv_qp_attr field end to end through the verbs ABI model: rate_limit, set by a capture override
 * ({@code --modify-in-rts rate_limit=N}, the scenario key the model gives it), is in both hosts' traces as
 * the modify's input, is a column in DuckDB (the calls relation and qp_state_timeline's req_ column), and
 * diff reports it as a call argument when two captures asked for different rate limits. softverbs, like
 * libibverbs' legacy modify command, refuses the RATE_LIMIT bit (EOPNOTSUPP): the capture says so (TC03
 * fails, exit 1) and the trace keeps what was asked.
 *
 * <p>And what adding such a field takes: no hand-written source of the record chain names rate_limit but
 * its descriptor ({@link #rateLimit_isNamedOnlyByItsDescriptor}).
 */
class QpFieldEndToEndTest {
    private static final List<String> FAST = List.of("--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000");

    @Test
    void rateLimit_overrideIsRecordedLoadedAndDiffed(@TempDir Path dir) throws Exception {
        Path slow = dir.resolve("limit1000");
        Path fast = dir.resolve("limit2000");
        try (CaptureHosts hosts = new CaptureHosts()) {
            capture(hosts, slow, "rate_limit=1000");
            capture(hosts, fast, "rate_limit=2000");
        }

        // the trace: the RTS→RTS modify carries rate_limit and the RATE_LIMIT mask bit, refused by softverbs
        for (String host : List.of("hostA", "hostB")) {
            List<CallEvent> limited = CaptureTraces.read(slow, host).assertComplete().calls(Verb.IBV_MODIFY_QP).stream()
                    .filter(c -> c.in().has(Attr.RATE_LIMIT)).toList();
            assertThat(limited).as(host).hasSize(1);
            CallEvent m = limited.get(0);
            assertThat(m.in().get(Attr.RATE_LIMIT, -1)).isEqualTo(1000);
            assertThat(m.in().get(Attr.ATTR_MASK, 0) & (1 << 25)).as("IBV_QP_RATE_LIMIT").isNotZero();
            assertThat(m.errno()).as("EOPNOTSUPP").isEqualTo(95);
        }

        // DuckDB: a column of calls and of the QP state timeline
        try (Analysis analysis = Analysis.open(List.of(slow))) {
            assertThat(rows(analysis, "SELECT host, in_rate_limit, errno_name FROM calls "
                    + "WHERE verb = 'ibv_modify_qp' AND in_rate_limit IS NOT NULL ORDER BY host"))
                    .containsExactly("hostA 1000 EOPNOTSUPP", "hostB 1000 EOPNOTSUPP");
            assertThat(rows(analysis, "SELECT count(*) FROM qp_state_timeline WHERE req_rate_limit = 1000"))
                    .containsExactly("2");
        }

        // diff: the two captures differ in that input
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), "diff", slow.toString(), fast.toString());
        System.out.println(out);
        // a call argument, not behaviour: both devices refused both values alike, so the runs are equivalent
        assertThat(exit).as(out + "" + err).isZero();
        assertThat(out.toString()).contains("listen  ibv_modify_qp  in rate_limit: 1000 → 2000")
                .contains("connect  ibv_modify_qp  in rate_limit: 1000 → 2000");
    }

    /**
     * rate_limit, the last field added, travels the chain above while only its descriptor names it: C's slot
     * lists and codec ({@code verbs_abi.h}) and the trace's {@code Attr} constant (code 151) are generated
     * from {@code QpField} at build time, the binding, recorders, replay, loader and diff loop over the
     * descriptors. Besides the descriptor only ABI facts and the device name it: libibverbs' mask bit
     * ({@code QpMask}, mirrored by the binding's {@code QpAttrField}), the binding's typed accessor, softverbs
     * (which refuses the bit). So recording an ibv_qp_attr field the trace does not carry yet is its line in
     * {@code QpField} (a {@code TraceAttr} with a new code) plus the format's version note ({@code FORMAT.md},
     * {@code FormatVersion}): three files. A hard-coded rate_limit anywhere else fails this test.
     */
    @Test
    void rateLimit_isNamedOnlyByItsDescriptor() throws IOException {
        String root = System.getProperty("rdmatrace.repo.root");
        Path repo = root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
        Set<String> naming = new TreeSet<>();
        try (Stream<Path> files = Files.walk(repo)) {
            files.filter(Files::isRegularFile).filter(p -> isProductSource(repo.relativize(p))).forEach(p -> {
                try {
                    String text = Files.readString(p).toLowerCase(Locale.ROOT);
                    if (text.contains("rate_limit") || text.contains("ratelimit")) {
                        naming.add(repo.relativize(p).toString());
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        assertThat(naming).contains("verbs-abi/src/main/java/io/rdmatrace/abi/QpField.java")
                .isSubsetOf("verbs-abi/src/main/java/io/rdmatrace/abi/QpField.java",
                        "verbs-abi/src/main/java/io/rdmatrace/abi/QpMask.java",
                        "verbs-binding/src/main/java/io/rdmatrace/verbs/QpAttrField.java",
                        "verbs-binding/src/main/java/io/rdmatrace/verbs/QpAttr.java",
                        "softverbs/src/main/c/softverbs/sv_qp_modify.c");
    }

    /** Hand-written sources of the product: no tests, docs, build output or fleet (not in the product). */
    private static boolean isProductSource(Path rel) {
        String s = rel.toString().replace('\\', '/');
        String name = rel.getFileName().toString();
        boolean source = name.matches(".*\\.(java|c|h|S|sql|sh|list|map|py)$") || name.equals("Makefile");
        return source && !s.startsWith(".") && !s.contains("/target/") && !s.startsWith("target/")
                && !s.contains("/src/test/") && !s.startsWith("fleet/") && !s.startsWith("sample-traces/");
    }

    private static void capture(CaptureHosts hosts, Path out, String override) throws Exception {
        List<String> args = new ArrayList<>(FAST);
        args.addAll(List.of("--modify-in-rts", override));
        CaptureHosts.Run r = hosts.capture(out, args, args);
        System.out.println("---- " + override + " hostA\n" + r.a().output() + "---- hostB\n" + r.b().output());
        for (CaptureHosts.Side side : List.of(r.a(), r.b())) {
            assertThat(side.exit()).as(side.output()).isEqualTo(1);
            assertThat(side.output()).contains("TC03").contains("(STATE|RATE_LIMIT) failed: EOPNOTSUPP");
        }
    }

    private static List<String> rows(Analysis analysis, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement s = analysis.connection().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> cells = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    cells.add(rs.getString(i));
                }
                rows.add(String.join(" ", cells));
            }
        }
        return rows;
    }
}
