package io.rdmatrace.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A long-lived "host" for the two-process capture tests: reads one command line per stdin line
 * (arguments separated by tabs), runs it in-process through {@link Main#execute}, prints its output
 * and then {@value #EXIT_MARK} with the exit code. One JVM per side serves many captures, so the suite
 * pays JVM start-up twice instead of twice per case. Its softverbs device comes from SOFTVERBS_DEVICES.
 */
public final class CaptureWorker {
    static final String EXIT_MARK = "@@EXIT ";

    private CaptureWorker() {
    }

    public static void main(String[] args) throws Exception {
        JvmDefaults.apply();
        PrintWriter out = new PrintWriter(System.out, true);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        out.println("@@READY");
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            int code;
            try {
                code = Main.execute(out, out, line.split("\t"));
            } catch (RuntimeException | Error e) {
                e.printStackTrace(out);
                code = 99;
            }
            out.println(EXIT_MARK + code);
            out.flush();
        }
    }
}
