package io.rdmatrace.trace;

import io.rdmatrace.trace.synth.EdgeFixture;
import java.nio.file.Path;

/**
 * Child process for the kill -9 test of a writer that appends in the background (the capture
 * agent's): hands 20,000 CALL events over, says "handed 20000", then keeps writing until killed.
 */
public final class BackgroundWriterChild {

    private BackgroundWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Attrs in = Attrs.builder().put(Attr.QP, 0x55550000L).put(Attr.QP_STATE, 2).put(Attr.RQ_PSN, 0xabcdef).build();
        TraceWriter w = TraceOpening.begin(out, args[1]).start(EdgeFixture.session(args[1]));
        for (int i = 0; i < 20_000; i++) {
            w.call(Verb.IBV_MODIFY_QP, 0x55550000L, 0, 0, i, in, Attrs.EMPTY);
        }
        System.out.println("handed 20000");
        System.out.flush();
        for (int i = 20_000; i < 50_000_000; i++) {
            w.call(Verb.IBV_MODIFY_QP, 0x55550000L, 0, 0, i, in, Attrs.EMPTY);
            if (i % 1000 == 0) {
                Thread.sleep(1); // a capture's pace, not a flood: the killer reads the trace meanwhile
            }
        }
        Thread.sleep(120_000); // not reached in the test: it is killed long before
        w.close();
    }
}
