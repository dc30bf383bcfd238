package io.rdmatrace.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An open device ({@code struct ibv_context}): queries, and the factory of protection domains,
 * completion channels and completion queues. Each verb comes as {@code x(...)} (throws
 * {@link VerbsCallException}) and {@code tryX(...)} (returns an {@link Outcome} or
 * {@link CallStatus}); the installed {@link VerbsListener} sees both.
 */
public final class Context implements AutoCloseable {

    private final Verbs verbs;
    private final Device device;
    private final CallStatus openStatus;
    private volatile long handle;
    private volatile VerbsListener listener;

    Context(Verbs verbs, Device device, long handle, CallStatus openStatus, VerbsListener listener) {
        this.verbs = verbs;
        this.device = device;
        this.handle = handle;
        this.openStatus = openStatus;
        this.listener = listener;
        verbs.contextOpened();
    }

    public Verbs verbs() {
        return verbs;
    }

    public Device device() {
        return device;
    }

    /** The native {@code struct ibv_context *}; 0 once closed. */
    public long handle() {
        return handle;
    }

    /** The status of the ibv_open_device call. */
    public CallStatus openStatus() {
        return openStatus;
    }

    public VerbsListener listener() {
        return listener;
    }

    /** Installs (or with null removes) the observer of every verb on this context. */
    public void setListener(VerbsListener listener) {
        this.listener = listener;
    }

    /** True when a listener is installed: callers build the {@link VerbCall} only then. */
    boolean observed() {
        return listener != null;
    }

    void emit(VerbCall call) {
        VerbsListener l = listener;
        if (l != null) {
            l.onCall(this, call);
        }
    }

    long live(String verb) {
        long h = handle;
        if (h == 0) {
            throw new ResourceClosedException("context of " + device.name(), verb);
        }
        return h;
    }

    long lib() {
        return verbs.lib();
    }

    // ---- queries -------------------------------------------------------------------------

    public DeviceAttr queryDevice() {
        return tryQueryDevice().orThrow();
    }

    public Outcome<DeviceAttr> tryQueryDevice() {
        long ctx = live("ibv_query_device");
        CallBuffer io = CallBuffer.acquire(Slots.DeviceAttr.values().length);
        String fw = queryDevice0(lib(), ctx, io.address());
        CallStatus status = io.status();
        DeviceAttr attr = status.ok() ? Codec.deviceAttr(io, fw) : null;
        if (observed()) {
            emit(new VerbCall.QueryDevice(ctx, attr, status));
        }
        return Codec.outcome("ibv_query_device", attr, status);
    }

    public PortAttr queryPort(int portNum) {
        return tryQueryPort(portNum).orThrow();
    }

    public Outcome<PortAttr> tryQueryPort(int portNum) {
        long ctx = live("ibv_query_port");
        CallBuffer io = CallBuffer.acquire(Slots.PortAttr.values().length);
        queryPort0(lib(), ctx, portNum, io.address());
        CallStatus status = io.status();
        PortAttr attr = status.ok() ? Codec.portAttr(io) : null;
        if (observed()) {
            emit(new VerbCall.QueryPort(ctx, portNum, attr, status));
        }
        return Codec.outcome("ibv_query_port", attr, status);
    }

    public Gid queryGid(int portNum, int index) {
        return tryQueryGid(portNum, index).orThrow();
    }

    public Outcome<Gid> tryQueryGid(int portNum, int index) {
        long ctx = live("ibv_query_gid");
        CallBuffer io = CallBuffer.acquire(2);
        queryGid0(lib(), ctx, portNum, index, io.address());
        CallStatus status = io.status();
        Gid gid = status.ok() ? Gid.of(io.getBytes16(Slots.GidEntry.GID_0.ordinal())) : null;
        if (observed()) {
            emit(new VerbCall.QueryGid(ctx, portNum, index, gid, status));
        }
        return Codec.outcome("ibv_query_gid", gid, status);
    }

    public IbvGidEntry queryGidEntry(int portNum, int index) {
        return tryQueryGidEntry(portNum, index).orThrow();
    }

    /**
     * A GID with its type: {@code ibv_query_gid_ex} when the library has it; otherwise
     * {@code ibv_query_gid} plus the type from sysfs ({@link GidType#UNKNOWN} when absent).
     */
    public Outcome<IbvGidEntry> tryQueryGidEntry(int portNum, int index) {
        if (!verbs.hasQueryGidEx()) {
            Outcome<Gid> gid = tryQueryGid(portNum, index);
            if (!(gid instanceof Outcome.Ok<Gid> ok)) {
                return new Outcome.Failed<>(gid.verb(), gid.status());
            }
            IbvGidEntry entry = new IbvGidEntry(ok.value(), index, portNum, sysfsGidType(portNum, index), 0);
            return new Outcome.Ok<>(gid.verb(), entry, gid.status());
        }
        long ctx = live("ibv_query_gid_ex");
        CallBuffer io = CallBuffer.acquire(Slots.GidEntry.values().length);
        queryGidEx0(lib(), ctx, portNum, index, io.address());
        CallStatus status = io.status();
        IbvGidEntry entry = status.ok() ? Codec.gidEntry(io) : null;
        if (observed()) {
            emit(new VerbCall.QueryGidEx(ctx, portNum, index, entry, status));
        }
        return Codec.outcome("ibv_query_gid_ex", entry, status);
    }

    private GidType sysfsGidType(int portNum, int index) {
        Path types = Paths.get(device.ibdevPath(), "ports", Integer.toString(portNum), "gid_attrs", "types",
                Integer.toString(index));
        try {
            GidType type = GidType.ofSysfs(Files.readString(types));
            if (type == GidType.ROCE_V1) {
                // "IB/RoCE v1" means IB on an InfiniBand port
                Outcome<PortAttr> port = tryQueryPort(portNum);
                if (port instanceof Outcome.Ok<PortAttr> ok && ok.value().linkLayer() == LinkLayer.INFINIBAND) {
                    return GidType.IB;
                }
            }
            return type;
        } catch (IOException | RuntimeException e) {
            return GidType.UNKNOWN;
        }
    }

    /** The P_Key at {@code index}, host order (0xffff is the default full-membership key). */
    public int queryPkey(int portNum, int index) {
        return tryQueryPkey(portNum, index).orThrow();
    }

    public Outcome<Integer> tryQueryPkey(int portNum, int index) {
        long ctx = live("ibv_query_pkey");
        CallBuffer io = CallBuffer.acquire(1);
        queryPkey0(lib(), ctx, portNum, index, io.address());
        CallStatus status = io.status();
        int pkey = io.getInt(0);
        if (observed()) {
            emit(new VerbCall.QueryPkey(ctx, portNum, index, status.ok() ? pkey : 0, status));
        }
        return Codec.outcome("ibv_query_pkey", status.ok() ? pkey : null, status);
    }

    /**
     * Device counters: softverbs' own ({@code softverbs_query_counters}) or, on real hardware,
     * the files of {@code /sys/class/infiniband/<dev>/ports/<port>/hw_counters/}. Empty when
     * neither exists.
     */
    public Map<String, Long> queryCounters(int portNum) {
        Map<String, Long> counters = new LinkedHashMap<>();
        if (verbs.hasSoftverbsCounters()) {
            String[] names = new String[256];
            long[] values = new long[256];
            CallBuffer io = CallBuffer.acquire(0);
            int n = queryCounters0(lib(), live("softverbs_query_counters"), names, values, io.address());
            io.status().orThrow("softverbs_query_counters");
            for (int i = 0; i < n; i++) {
                counters.put(names[i], values[i]);
            }
            return counters;
        }
        Path dir = Paths.get(device.ibdevPath(), "ports", Integer.toString(portNum), "hw_counters");
        if (!Files.isDirectory(dir)) {
            return counters;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.sorted().forEach(f -> {
                try {
                    counters.put(f.getFileName().toString(), Long.parseLong(Files.readString(f).trim()));
                } catch (IOException | NumberFormatException e) {
                    // a counter the kernel cannot read right now: leave it out
                }
            });
        } catch (IOException e) {
            return counters;
        }
        return counters;
    }

    // ---- factories -----------------------------------------------------------------------

    public ProtectionDomain allocPd() {
        return tryAllocPd().orThrow();
    }

    public Outcome<ProtectionDomain> tryAllocPd() {
        long ctx = live("ibv_alloc_pd");
        CallBuffer io = CallBuffer.acquire(0);
        long pd = allocPd0(lib(), ctx, io.address());
        CallStatus status = io.status();
        if (observed()) {
            emit(new VerbCall.AllocPd(ctx, pd, status));
        }
        return Codec.outcome("ibv_alloc_pd", pd != 0 ? new ProtectionDomain(this, pd, status) : null, status);
    }

    public CompletionChannel createCompChannel() {
        return tryCreateCompChannel().orThrow();
    }

    public Outcome<CompletionChannel> tryCreateCompChannel() {
        long ctx = live("ibv_create_comp_channel");
        CallBuffer io = CallBuffer.acquire(1);
        long ch = createCompChannel0(lib(), ctx, io.address());
        CallStatus status = io.status();
        int fd = io.getInt(0);
        if (observed()) {
            emit(new VerbCall.CreateCompChannel(ctx, ch, fd, status));
        }
        return Codec.outcome("ibv_create_comp_channel",
                ch != 0 ? new CompletionChannel(this, ch, fd, status) : null, status);
    }

    /** A CQ of at least {@code cqe} entries with no completion channel. */
    public CompletionQueue createCq(int cqe) {
        return tryCreateCq(cqe, null, 0).orThrow();
    }

    public CompletionQueue createCq(int cqe, CompletionChannel channel, int compVector) {
        return tryCreateCq(cqe, channel, compVector).orThrow();
    }

    public Outcome<CompletionQueue> tryCreateCq(int cqe, CompletionChannel channel, int compVector) {
        long ctx = live("ibv_create_cq");
        long ch = channel != null ? channel.live("ibv_create_cq") : 0;
        CallBuffer io = CallBuffer.acquire(1);
        long cq = createCq0(lib(), ctx, cqe, ch, compVector, io.address());
        CallStatus status = io.status();
        int actual = io.getInt(0);
        CompletionQueue queue = cq != 0 ? new CompletionQueue(this, cq, actual, channel, status) : null;
        if (observed()) {
            emit(new VerbCall.CreateCq(ctx, cqe, ch, compVector, cq, actual, status));
        }
        return Codec.outcome("ibv_create_cq", queue, status);
    }

    // ---- async events --------------------------------------------------------------------

    /** Waits up to {@code timeout} for one async event (acknowledged at once); empty on timeout. */
    public Optional<IbvAsyncEvent> getAsyncEvent(Duration timeout) {
        return tryGetAsyncEvent(timeout).orThrow();
    }

    public Outcome<Optional<IbvAsyncEvent>> tryGetAsyncEvent(Duration timeout) {
        return tryGetAsyncEvent(timeout, null);
    }

    /**
     * As {@link #tryGetAsyncEvent(Duration)}, and the wait also ends, empty, as soon as
     * {@code wakeup} (may be null) is woken.
     */
    public Outcome<Optional<IbvAsyncEvent>> tryGetAsyncEvent(Duration timeout, AsyncWakeup wakeup) {
        long ctx = live("ibv_get_async_event");
        CallBuffer io = CallBuffer.acquire(Slots.AsyncEvent.values().length);
        int wakeFd = wakeup != null ? wakeup.fd() : -1;
        int got = getAsyncEvent0(lib(), ctx, Codec.timeoutMillis(timeout), wakeFd, io.address());
        CallStatus status = io.status();
        IbvAsyncEvent event = got == 1 ? Codec.asyncEvent(io) : null;
        if (observed()) {
            emit(new VerbCall.GetAsyncEvent(ctx, event, status));
        }
        return Codec.outcome("ibv_get_async_event", status.ok() ? Optional.ofNullable(event) : null, status);
    }

    // ---- close ---------------------------------------------------------------------------

    /** {@code ibv_close_device}; a failure comes back as the status and the context stays open. */
    public CallStatus tryClose() {
        long ctx = live("ibv_close_device");
        CallBuffer io = CallBuffer.acquire(0);
        close0(lib(), ctx, io.address());
        CallStatus status = io.status();
        if (status.ok()) {
            handle = 0;
            verbs.contextClosed();
        }
        if (observed()) {
            emit(new VerbCall.CloseDevice(ctx, status));
        }
        return status;
    }

    /** Closes the device unless already closed; close every object made from it first. */
    @Override
    public void close() {
        if (handle != 0) {
            tryClose().orThrow("ibv_close_device");
        }
    }

    @Override
    public String toString() {
        return "Context[" + device.name() + "]";
    }

    private static native void close0(long lib, long ctx, long io);

    private static native String queryDevice0(long lib, long ctx, long io);

    private static native void queryPort0(long lib, long ctx, int port, long io);

    private static native void queryGid0(long lib, long ctx, int port, int index, long io);

    private static native void queryGidEx0(long lib, long ctx, int port, int index, long io);

    private static native void queryPkey0(long lib, long ctx, int port, int index, long io);

    private static native int queryCounters0(long lib, long ctx, String[] names, long[] values, long io);

    private static native long allocPd0(long lib, long ctx, long io);

    private static native long createCompChannel0(long lib, long ctx, long io);

    private static native long createCq0(long lib, long ctx, int cqe, long channel, int compVector, long io);

    private static native int getAsyncEvent0(long lib, long ctx, int timeoutMs, int wakeFd, long io);
}
