package io.rdmatrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.CallEvent;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.store.ReadOutcome;
import io.rdmatrace.trace.store.TraceReader;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Open MPI (Debian's openmpi-bin, libopenmpi-dev for mpicc) over pml ucx: a ping-pong of two ranks,
 * one on each softverbs namespace host (mpirun on host a launches host b's daemon through the
 * helper's rsh agent, SV_RSH), bare and with each rank under `rdmatrace record`; the recording is
 * analyzed with the connection between the hosts paired and no error.
 */
class OpenMpiRecordTest {
    /**
     * mpirun on host a, one rank per host; UCX over rc_verbs (ud_verbs for its wire-up) and self; the
     * btls but self off, as on a RoCE cluster. So run, each rank also connects an rc_verbs QP to itself.
     */
    private static final String MPIRUN = "mpirun --allow-run-as-root --mca plm_rsh_agent \"$SV_RSH\" --host $SV_IP,$SV_PEER"
            + " -np 2 --mca pml ucx --mca btl ^vader,tcp,openib,uct -x UCX_TLS=rc_v,self ";

    @Test
    void pingpong_pmlUcx_oneRankPerHost_bare_thenRecorded_pairedAndClean(@TempDir Path work) throws Exception {
        InstalledPrograms.require("mpirun");
        Path exe = compile(work, InstalledPrograms.require("mpicc"));

        NamespaceHosts.Run bare = mpirun(work.resolve("bare"), exe + " 1000 4096");
        assertThat(bare.exit()).as(bare.describe()).isZero();
        assertThat(bare.a()).as(bare.describe()).contains("pingpong: 1000 round trips of 4096 bytes");

        // each rank runs under record, its trace in trace/<its host>
        Path out = work.resolve("trace");
        Path rank = work.resolve("rank.sh");
        Files.writeString(rank, "#!/bin/bash\nexec " + NamespaceHosts.record(List.of("--soft", "--data-path", "summary", "--out",
                out.toString())) + " --host-id \"$SV_HOST\" -- " + exe + " \"$@\"\n");
        Files.setPosixFilePermissions(rank, PosixFilePermissions.fromString("rwxr-xr-x"));
        NamespaceHosts.Run recorded = mpirun(work.resolve("recorded"), rank + " 1000 4096");
        assertThat(recorded.exit()).as(recorded.describe()).isZero();
        assertThat(recorded.a()).as(recorded.describe()).contains("pingpong: 1000 round trips of 4096 bytes");
        for (String host : List.of("a", "b")) {
            TraceReader.Result r = TraceReader.readAll(out.resolve(host));
            assertThat(r.outcome().status()).as("host %s's trace", host).isEqualTo(ReadOutcome.Status.CLEAN);
            // the case pairing must not take for a connection between the hosts: a QP aimed at its own host
            String own = "::ffff:10.29.0." + (host.equals("a") ? 1 : 2);
            assertThat(r.events().stream().filter(e -> e instanceof CallEvent c && c.verb() == Verb.IBV_MODIFY_QP && c.ret() == 0)
                    .map(e -> ((CallEvent) e).in().text(Attr.DGID))).as("host %s connects a QP to itself", host).contains(own);
        }

        StringWriter report = new StringWriter();
        int exit = Main.execute(new PrintWriter(report), new PrintWriter(new StringWriter()), "analyze", out.toString());
        assertThat(report.toString()).as(report.toString()).contains("0 error(s)")
                .containsPattern("a QP 0x[0-9a-f]+ <-> b QP 0x[0-9a-f]+  RC  matched by dest_qp_num");
        assertThat(exit).as(report.toString()).isZero();
    }

    /** mpirun on host a; host b's command only keeps b's namespaces alive until mpirun has ended. */
    private static NamespaceHosts.Run mpirun(Path work, String program) throws Exception {
        Files.createDirectories(work);
        Path done = work.resolve("mpirun.done");
        return NamespaceHosts.run(work, 0, 150, MPIRUN + program + "; rc=$?; touch " + done + "; exit $rc",
                "until [ -e " + done + " ]; do sleep 0.2; done");
    }

    /** The ping-pong built with mpicc; skipped, naming the package, without Open MPI's headers. */
    private static Path compile(Path work, Path mpicc) throws Exception {
        Path src = work.resolve("mpi_pingpong.c");
        try (InputStream in = OpenMpiRecordTest.class.getResourceAsStream("/mpi_pingpong.c")) {
            Files.copy(in, src);
        }
        Path exe = work.resolve("mpi_pingpong");
        Process cc = new ProcessBuilder(mpicc.toString(), "-O2", "-o", exe.toString(), src.toString())
                .redirectErrorStream(true).start();
        String output = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cc.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assumeTrue(!output.contains("mpi.h"), () -> "Open MPI's headers are missing (libopenmpi-dev, see build/deps.txt): " + output);
        assertThat(cc.exitValue()).as(output).isZero();
        return exe;
    }
}
