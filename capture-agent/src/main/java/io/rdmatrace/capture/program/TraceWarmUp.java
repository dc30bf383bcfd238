package io.rdmatrace.capture.program;

import io.rdmatrace.trace.Attrs;
import io.rdmatrace.trace.SessionInfo;
import io.rdmatrace.trace.TraceWriter;
import io.rdmatrace.verbs.Slots;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Starts Chronicle Queue and compiles the drain's hot path before the program runs. A fresh JVM
 * takes one to two seconds of class loading and set-up for its first queue, and runs its first
 * thousands of events interpreted; done beside a program that opens its device and goes straight
 * to its data path, that time was spent filling the program's ring (records dropped) and taking
 * the CPU the program polls on. So a throwaway trace gets {@value #ROUNDS} rounds of synthetic
 * data-path records (post_send, post_recv, a poll with one completion) decoded and written as the
 * drain does, then is removed. Best effort: a failure only leaves the real trace to pay it.
 */
final class TraceWarmUp {
    /** Enough calls for the JIT to compile the decode and write paths (C1 after ~2,000, C2 ~15,000). */
    static final int ROUNDS = 4000;

    private TraceWarmUp() {
    }

    /** Starts the warm-up on a daemon thread and returns at once. */
    static Thread start() {
        Thread t = new Thread(TraceWarmUp::run, "rdmatrace-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void run() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("rdmatrace-warm-up");
            SessionInfo info = new SessionInfo("warm-up", "warm-up", "", "", SessionInfo.PROGRAM_SCENARIO, Map.of(),
                    Attrs.EMPTY, List.of(), List.of());
            try (TraceWriter w = TraceWriter.create(dir, info, ProcessHandle.current().pid())) {
                Consumer<ProgramEvent> out = e -> ProgramTrace.write(w, e, "warm-up");
                List<RingRecord> send = List.of(post(RingLayout.Kind.IBV_POST_SEND));
                List<RingRecord> recv = List.of(post(RingLayout.Kind.IBV_POST_RECV));
                List<RingRecord> poll = List.of(poll());
                for (int i = 0; i < ROUNDS; i++) {
                    out.accept(new ProgramEvent.Call(System.nanoTime(), 1,
                            DataPathMapper.post(RingLayout.Kind.IBV_POST_SEND, send)));
                    out.accept(new ProgramEvent.Call(System.nanoTime(), 1,
                            DataPathMapper.post(RingLayout.Kind.IBV_POST_RECV, recv)));
                    DataPathMapper.poll(poll, 1, out);
                }
            }
        } catch (Exception | LinkageError e) {
            // best effort: the real trace pays Chronicle's start-up instead
        } finally {
            if (dir != null) {
                removeQuietly(dir);
            }
        }
    }

    /** A post of one WR with one SGE, as the tracer writes it. */
    private static RingRecord post(RingLayout.Kind kind) {
        boolean send = kind == RingLayout.Kind.IBV_POST_SEND;
        int wr = send ? Slots.SendWr.values().length : Slots.RecvWr.values().length;
        int post = RingLayout.Post.values().length;
        ByteBuffer b = record(kind, post + wr + Slots.Sge.values().length);
        payload(b, RingLayout.Post.QP_NUM.ordinal(), 17);
        payload(b, RingLayout.Post.WR_COUNT.ordinal(), 1);
        payload(b, RingLayout.Post.BAD_INDEX.ordinal(), -1);
        payload(b, RingLayout.Post.HERE.ordinal(), 1);
        payload(b, post + (send ? Slots.SendWr.NUM_SGE.ordinal() : Slots.RecvWr.NUM_SGE.ordinal()), 1);
        payload(b, post + wr + Slots.Sge.LENGTH.ordinal(), 64);
        return new RingRecord(kind, 0, b);
    }

    /** A poll that returned one completion after some empty polls. */
    private static RingRecord poll() {
        int at = RingLayout.Poll.values().length;
        ByteBuffer b = record(RingLayout.Kind.IBV_POLL_CQ, at + Slots.Wc.values().length);
        b.putLong(8 * (RingRecord.STATUS + Slots.Status.RET.ordinal()), 1);
        payload(b, RingLayout.Poll.NUM_ENTRIES.ordinal(), 1);
        payload(b, RingLayout.Poll.POLLED.ordinal(), 1);
        payload(b, RingLayout.Poll.EMPTY_POLLS.ordinal(), 3);
        payload(b, at + Slots.Wc.BYTE_LEN.ordinal(), 64);
        return new RingRecord(RingLayout.Kind.IBV_POLL_CQ, 0, b);
    }

    private static ByteBuffer record(RingLayout.Kind kind, int payloadSlots) {
        ByteBuffer b = ByteBuffer.allocate(8 * (RingRecord.PAYLOAD + payloadSlots)).order(ByteOrder.nativeOrder());
        b.putLong(8 * RingLayout.Header.TID.ordinal(), 1);
        b.putLong(8 * RingLayout.Header.HANDLE.ordinal(), 1);
        return b;
    }

    private static void payload(ByteBuffer b, int slot, long value) {
        b.putLong(8 * (RingRecord.PAYLOAD + slot), value);
    }

    private static void removeQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temporary folder left behind
        }
    }
}
