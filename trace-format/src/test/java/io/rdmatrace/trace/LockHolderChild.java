package io.rdmatrace.trace;

import io.rdmatrace.trace.model.MarkEvent;
import io.rdmatrace.trace.store.TraceWriter;

import java.nio.file.Path;

/** Child process for {@link WriterLockTest}: opens a trace writer, says "ready pid N", then waits to be killed. */
public final class LockHolderChild {

    private LockHolderChild() {
    }

    public static void main(String[] args) throws Exception {
        TraceWriter w = TraceWriter.create(Path.of(args[0]), EdgeFixture.session(args[1]));
        w.mark("S", MarkEvent.Verdict.INFO, "holding the folder");
        System.out.println("ready pid " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(120_000); // killed by the test long before
        w.close();
    }
}
