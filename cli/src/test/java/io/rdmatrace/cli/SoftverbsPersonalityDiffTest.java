package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.rdmatrace.analyzer.diff.DiffInput;
import io.rdmatrace.analyzer.diff.DiffOptions;
import io.rdmatrace.analyzer.diff.DiffReport;
import io.rdmatrace.analyzer.diff.TraceDiff;
import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.TraceEvent;
import io.rdmatrace.trace.store.TraceReader;
import io.rdmatrace.trace.model.Verb;

/**
 * Real two-process captures on softverbs whose only difference is the firmware personality of
 * the devices (SOFTVERBS_DEVICES for the capture processes): the diff lists exactly what the
 * personality changes and nothing of the PSN/QPN/key/address noise between runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SoftverbsPersonalityDiffTest {
    private static final List<String> FAST = List.of("--cq-timeout-ms", "1500", "--oob-timeout-ms", "15000");
    /** B tells A a PSN one too low and gives up after 2 retries: error completions to carry vendor errors. */
    private static final List<String> PSN_FAULT = List.of("--advertise-psn", "-1", "--retry-cnt", "2");
    /** Loopback addresses of this run only, so parallel test runs do not fight over UDP 4791. */
    private static final LoopbackPair IPS = LoopbackPair.random();
    private static final String IP_A = IPS.a();
    private static final String IP_B = IPS.b();
    private static final Pattern EXIT = Pattern.compile(Pattern.quote(CaptureWorker.EXIT_MARK) + "(\\d+)");

    @TempDir
    static Path dir;

    Path clean1;
    Path clean2;
    Path pow2;
    Path fault;
    Path faultVendor;

    @BeforeAll
    void capture() throws Exception {
        try (SoftverbsHost a = new SoftverbsHost("hostA", IP_A, "");
                SoftverbsHost b = new SoftverbsHost("hostB", IP_B, "");
                SoftverbsHost bPow2 = new SoftverbsHost("hostB", IP_B, ":fw=2.0.0:quirk=caps-pow2");
                SoftverbsHost aVendor = new SoftverbsHost("hostA", IP_A, ":quirk=vendor-err=0x81");
                SoftverbsHost bVendor = new SoftverbsHost("hostB", IP_B, ":quirk=vendor-err=0x81")) {
            for (SoftverbsHost h : List.of(a, b, bPow2, aVendor, bVendor)) {
                h.ready();
            }
            clean1 = run("clean1", a, b, List.of(), 0);
            clean2 = run("clean2", a, b, List.of(), 0);
            pow2 = run("pow2", a, bPow2, List.of(), 0);
            fault = run("fault", a, b, PSN_FAULT, 1);
            faultVendor = run("fault-vendor", aVendor, bVendor, PSN_FAULT, 1);
        }
    }

    private Path run(String name, SoftverbsHost a, SoftverbsHost b, List<String> bArgs, int expectedExit) throws Exception {
        Path out = dir.resolve(name);
        String output = SoftverbsHost.capture(out, a, b, FAST, bArgs);
        System.out.println("---- capture " + name + "\n" + output);
        Matcher m = EXIT.matcher(output);
        int worst = 0;
        while (m.find()) {
            worst = Math.max(worst, Integer.parseInt(m.group(1)));
        }
        Assumptions.assumeTrue(worst != ExitCode.USAGE,
                "softverbs captures cannot run here (a capture exited 2, see its output above)");
        assertThat(worst).as("capture " + name + " exit code\n" + output).isEqualTo(expectedExit);
        return out;
    }

    private static DiffReport diff(Path a, Path b) throws Exception {
        return TraceDiff.compare(a.toString(), DiffInput.read(a), b.toString(), DiffInput.read(b), DiffOptions.defaults());
    }

    private static Set<String> summary(DiffReport r) {
        return r.differences().stream().map(d -> d.category() + " " + d.role() + " " + d.what() + " " + d.field() + " "
                + d.a() + "→" + d.b() + " ×" + d.where().size()).collect(Collectors.toSet());
    }

    @Test
    void twoCleanCaptures_areEquivalent_despiteFreshPsnsQpnsKeysAndAddresses() throws Exception {
        DiffReport r = diff(clean1, clean2);

        assertThat(r.differences()).as(render(r)).isEmpty();
        assertThat(r.equivalent()).isTrue();
        assertThat(cli("diff", clean1.toString(), clean2.toString())).isZero();
    }

    @Test
    void capsPow2Personality_listsExactlyTheRoundedCapsAndTheFirmware() throws Exception {
        // what the scenario asked for, and what each personality grants (softverbs: rxe rounds a ring
        // to 2^k - 1 usable slots; caps-pow2 to 2^k)
        CallEvent createQp = first(clean1, "hostB", Verb.IBV_CREATE_QP);
        CallEvent createCq = first(clean1, "hostB", Verb.IBV_CREATE_CQ);
        long sq = createQp.in().get(Attr.MAX_SEND_WR, -1);
        long rq = createQp.in().get(Attr.MAX_RECV_WR, -1);
        long cqe = createCq.in().get(Attr.CQE, -1);
        assertThat(createQp.out().get(Attr.MAX_SEND_WR, -1)).isEqualTo(rxe(sq));
        long queries = TraceReader.readAll(clean1.resolve("hostB")).events().stream()
                .filter(e -> e instanceof CallEvent c && c.verb() == Verb.IBV_QUERY_QP).count();

        DiffReport r = diff(clean1, pow2);

        assertThat(summary(r)).as(render(r)).containsExactlyInAnyOrder(
                "RETURNED connect ibv_create_qp out.max_send_wr " + rxe(sq) + "→" + pow2(sq) + " ×1",
                "RETURNED connect ibv_create_qp out.max_recv_wr " + rxe(rq) + "→" + pow2(rq) + " ×1",
                "RETURNED connect ibv_create_cq out.cqe " + rxe(cqe) + "→" + pow2(cqe) + " ×1",
                "RETURNED connect ibv_query_qp out.max_send_wr " + rxe(sq) + "→" + pow2(sq) + " ×" + queries,
                "RETURNED connect ibv_query_qp out.max_recv_wr " + rxe(rq) + "→" + pow2(rq) + " ×" + queries,
                "IDENTITY connect device fw_ver 0.0.0→2.0.0 ×1",
                "IDENTITY connect ibv_query_device out.fw_ver 0.0.0→2.0.0 ×1");
        assertThat(cli("diff", clean1.toString(), pow2.toString())).isEqualTo(1);
    }

    @Test
    void vendorErrPersonality_listsExactlyTheVendorErrorsOfTheFailedCompletions() throws Exception {
        DiffReport r = diff(fault, faultVendor);

        assertThat(r.differences()).as(render(r)).isNotEmpty().allSatisfy(d -> {
            assertThat(d.what()).startsWith("completion");
            assertThat(d.field()).isEqualTo("vendor_err");
            assertThat(d.a()).isEqualTo("0x0");
            assertThat(d.b()).isEqualTo("0x81");
        });
        assertThat(cli("diff", fault.toString(), faultVendor.toString())).isEqualTo(1);
        assertThat(cli("diff", "--ignore", "vendor_err", fault.toString(), faultVendor.toString())).isZero();
    }

    @Test
    void redactedExportOfARealCapture_keepsNoOriginalValue_andTheSameFindings() throws Exception {
        // the PSN fault: a capture the rules find something in
        Path zip = dir.resolve("fault-redacted.zip");
        assertThat(cli("export", fault.toString(), "-o", zip.toString(), "--redact")).isZero();

        RealSecrets secrets = RealSecrets.of(fault);
        assertThat(secrets.size()).as("hosts, IPs, GIDs, GUIDs, keys, addresses of the capture").isGreaterThan(20);
        List<String> leaks = new java.util.ArrayList<>();
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(zip.toFile())) {
            for (java.util.zip.ZipEntry e : java.util.Collections.list(z.entries())) {
                leaks.addAll(secrets.findIn(e.getName(), z.getInputStream(e).readAllBytes()));
            }
        }
        assertThat(leaks).isEmpty();
        assertThat(ruleIds(fault)).isEqualTo(ruleIds(zip)).isNotEmpty();
    }

    /** The rule ids `analyze --format json` reports, sorted (hosts are pseudonyms in the bundle). */
    private static List<String> ruleIds(Path input) {
        StringWriter out = new StringWriter();
        Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "analyze", "--format", "json", input.toString());
        Matcher m = Pattern.compile("\"rule\"\\s*:\\s*\"([a-z0-9-]+)\"").matcher(out.toString());
        List<String> ids = new java.util.ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        java.util.Collections.sort(ids);
        return ids;
    }

    /** rxe's ring: roundup_pow_of_two(n + 1) slots, one kept free. */
    private static long rxe(long n) {
        return pow2(n + 1) - 1;
    }

    /** roundup_pow_of_two(n). */
    private static long pow2(long n) {
        return Long.bitCount(n) == 1 ? n : Long.highestOneBit(n) * 2;
    }

    private static CallEvent first(Path capture, String host, Verb verb) throws Exception {
        for (TraceEvent e : TraceReader.readAll(capture.resolve(host)).events()) {
            if (e instanceof CallEvent c && c.verb() == verb) {
                return c;
            }
        }
        throw new AssertionError("no " + verb + " in " + host);
    }

    private static String render(DiffReport r) {
        return io.rdmatrace.analyzer.diff.DiffFormat.TEXT.render(r);
    }

    private static int cli(String... args) {
        StringWriter out = new StringWriter();
        int code = Main.execute(new PrintWriter(out), new PrintWriter(out), args);
        System.out.println("rdmatrace " + String.join(" ", args) + " → " + code + "\n" + out);
        return code;
    }
}
