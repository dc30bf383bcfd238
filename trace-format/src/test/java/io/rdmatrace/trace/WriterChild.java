package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.trace.model.Verb;

import java.nio.file.Path;

/**
 * Child process for the kill -9 test: writes CALL events until killed (at most 5,000,000) and
 * reports on stdout the seq of every 1000th event after its append returned.
 */
public final class WriterChild {

    private WriterChild() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Attrs in = Attrs.builder().put(Attr.QP, 0x55550000L).put(Attr.ATTR_MASK, 0x129181).put(Attr.QP_STATE, 2)
                .put(Attr.PATH_MTU, 3).put(Attr.DEST_QP_NUM, 0x11).put(Attr.RQ_PSN, 0xabcdef).build();
        TraceWriter w = TraceWriter.create(out, EdgeFixture.session(args[1]));
        for (int i = 0; i < 5_000_000; i++) {
            long seq = w.call(Verb.IBV_MODIFY_QP, 0x55550000L, 0, 0, i, in, Attrs.EMPTY);
            if (seq % 1000 == 0) {
                System.out.println("seq " + seq);
                System.out.flush();
            }
        }
        System.out.println("done");
        System.out.flush();
        Thread.sleep(120_000); // not reached in the test: it is killed long before
        w.close();
    }
}
