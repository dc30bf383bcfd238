package io.rdmatrace.capture.program;

import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.SessionInfo;
import io.rdmatrace.trace.store.TraceWriter;
import io.rdmatrace.tracer.RingFile;
import io.rdmatrace.tracer.RingLayout;
import io.rdmatrace.tracer.RingReader;
import io.rdmatrace.tracer.RingRecord;
import io.rdmatrace.tracer.SyntheticRing;
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
 * data-path records (post_send, post_recv, a poll with one completion) written into a ring file as
 * the tracer writes them, copied out, parsed, decoded and written as the drain does, then is removed. Best effort: a failure only leaves the real trace to pay it.
 *
 * <p>The program starts when the warm-up is done or its wait is over ({@link #finish}); a warm-up
 * still running then is stopped between rounds, since beside the program it takes the CPU the
 * program polls on (seen: a recorded pingpong on a loaded machine, the warm-up thread 25% of
 * record's samples during the run).
 */
public final class TraceWarmUp {
    /** Enough calls for the JIT to compile the decode and write paths (C1 after ~2,000, C2 ~15,000). */
    static final int ROUNDS = 4000;
    /** Rounds between two copies out of the warm-up's ring, about what a 2 ms pass finds beside a busy program. */
    private static final int PASS_ROUNDS = 100;
    /** The warm-up ring's size: a pass's records and room to wrap. */
    private static final long RING_SLOTS = 1 << 14;

    private final Thread thread;
    /** Set by {@link #finish}: the rounds stop at the next one. */
    private volatile boolean stop;
    private volatile int roundsDone;

    private TraceWarmUp() {
        thread = new Thread(this::run, "rdmatrace-warm-up");
        thread.setDaemon(true);
    }

    /** Starts the warm-up on a daemon thread and returns at once. */
    static TraceWarmUp start() {
        TraceWarmUp w = new TraceWarmUp();
        w.thread.start();
        return w;
    }

    /**
     * Waits up to {@code millis} (0: not at all) for the warm-up to end, then stops it if it still
     * runs, waits for its thread to end (it removes its throwaway trace) and collects its garbage.
     *
     * @return the rounds it had done: {@value #ROUNDS} when it ended by itself
     */
    public int finish(long millis) throws InterruptedException {
        if (millis > 0) {
            thread.join(millis);
        }
        stop = true;
        thread.join();
        // its garbage (tens of MB of events) is collected now, not by a pause beside the program's data path
        System.gc();
        return roundsDone;
    }

    private void run() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("rdmatrace-warm-up");
            SessionInfo info = new SessionInfo("warm-up", "warm-up", "", "", SessionInfo.PROGRAM_SCENARIO, Map.of(),
                    Attrs.EMPTY, List.of(), List.of());
            new ControlMapper("warm-up");   // the classes a process's first drain pass loads
            Path ringPath = dir.resolve("ring.warm-up");
            try (TraceWriter w = TraceWriter.create(dir, info, ProcessHandle.current().pid());
                 SyntheticRing ring = new SyntheticRing(ringPath, RING_SLOTS, ProcessHandle.current().pid());
                 RingFile file = RingFile.openIfReady(ringPath)) {
                Consumer<ProgramEvent> out = e -> ProgramTrace.write(w, e, "warm-up");
                RingReader reader = new RingReader(file);
                RingRecord send = post(RingLayout.Kind.IBV_POST_SEND);
                RingRecord recv = post(RingLayout.Kind.IBV_POST_RECV);
                RingRecord poll = poll();
                for (int i = 0; i < ROUNDS && !stop; i++) {
                    // through the ring and the drain's copy and parse, then decoded and written
                    if (!ring.append(send) || !ring.append(recv) || !ring.append(poll) || i % PASS_ROUNDS == 0) {
                        decode(reader, reader.copy(true), out);
                    }
                    roundsDone = i + 1;
                }
                decode(reader, reader.copy(true), out);
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

    private static void decode(RingReader reader, RingReader.Pass pass, Consumer<ProgramEvent> out) {
        for (RingReader.Call c : reader.parse(pass)) {
            RingRecord r = c.first();
            if (r.kind() == RingLayout.Kind.IBV_POLL_CQ) {
                DataPathMapper.poll(c.records(), r.tid(), out);
            } else {
                out.accept(new ProgramEvent.Call(r.monoNanos(), r.tid(), DataPathMapper.post(r.kind(), c.records())));
            }
        }
    }

    private static void removeQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temporary folder left behind
        }
    }
}
