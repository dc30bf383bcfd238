package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;

import java.nio.file.Path;

/**
 * Child process for {@link LiveTraceTest}: appends CALL events at a steady pace (100 per millisecond,
 * at most 200,000) so a reader in another process meets appends in flight, and reports on stdout the
 * seq of every 1000th event after its append returned; then waits to be killed.
 */
public final class PacedWriterChild {

    private PacedWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        Attrs in = Attrs.builder().put(Attr.QP, 0x55550000L).put(Attr.QP_STATE, 2).build();
        TraceWriter w = TraceWriter.create(Path.of(args[0]), EdgeFixture.session(args[1]));
        for (int i = 0; i < 200_000; i++) {
            long seq = w.call(Verb.IBV_MODIFY_QP, 0x55550000L, 0, 0, i, in, Attrs.EMPTY);
            if (seq % 1000 == 0) {
                System.out.println("seq " + seq);
                System.out.flush();
            }
            if (i % 100 == 99) {
                Thread.sleep(1);
            }
        }
        Thread.sleep(120_000); // killed by the test long before
        w.close();
    }
}
