package io.rdmatrace.verbs;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One loaded libibverbs (system, a path, or the bundled softverbs), reached only through a
 * dlopen'ed function table: the entry point of the binding.
 *
 * <pre>{@code
 * try (Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
 *      DeviceList list = verbs.getDeviceList();
 *      Context ctx = list.devices().get(0).open()) { ... }
 * }</pre>
 *
 * Close it only after every {@link Context} it opened is closed (it refuses otherwise, because
 * unloading a library with live contexts would pull code out from under them).
 */
public final class Verbs implements AutoCloseable {

    private static final int FEATURE_SOFTVERBS_CONFIGURE = 1;
    private static final int FEATURE_SOFTVERBS_COUNTERS = 1 << 2;
    private static final int FEATURE_QUERY_GID_EX = 1 << 3;
    private static final int FEATURE_SOFTVERBS_WIRE = 1 << 4;

    static {
        JniLibrary.ensureLoaded();
    }

    private final VerbsLibrary library;
    private final String loadedPath;
    private final int features;
    private final AtomicInteger liveContexts = new AtomicInteger();
    private volatile long lib;

    private Verbs(VerbsLibrary library, long lib) {
        this.library = library;
        this.lib = lib;
        this.loadedPath = loadedPath0(lib);
        this.features = features0(lib);
    }

    /**
     * Loads the library. Throws {@link VerbsUnavailableException} (reason LIBRARY_NOT_LOADED)
     * when dlopen fails or the file lacks the core verbs.
     */
    public static Verbs open(VerbsLibrary library) {
        String target;
        try {
            target = library.resolveForDlopen();
        } catch (IOException e) {
            throw VerbsUnavailableException.libraryNotLoaded(library.describe(), e.getMessage());
        }
        String[] error = new String[1];
        long handle = open0(target, error);
        if (handle == 0) {
            throw VerbsUnavailableException.libraryNotLoaded(library.describe(),
                    error[0] != null ? error[0] : "dlopen failed");
        }
        return new Verbs(library, handle);
    }

    public VerbsLibrary library() {
        return library;
    }

    /** The file the dynamic linker actually mapped (resolves a bare soname). */
    public String loadedPath() {
        return loadedPath;
    }

    /** True when the library exports softverbs' extras ({@code softverbs_configure}). */
    public boolean isSoftverbs() {
        return (features & FEATURE_SOFTVERBS_CONFIGURE) != 0;
    }

    boolean hasSoftverbsCounters() {
        return (features & FEATURE_SOFTVERBS_COUNTERS) != 0;
    }

    boolean hasQueryGidEx() {
        return (features & FEATURE_QUERY_GID_EX) != 0;
    }

    /**
     * {@code ibv_get_device_list} as a value: {@link Outcome.Failed} when it returned NULL,
     * otherwise the list (possibly empty).
     */
    public Outcome<DeviceList> tryGetDeviceList() {
        return tryGetDeviceList(null);
    }

    /** Same, reporting the call to {@code listener} (with a null context). */
    public Outcome<DeviceList> tryGetDeviceList(VerbsListener listener) {
        CallBuffer io = CallBuffer.acquire(0);
        long list = getDeviceList0(lib(), io.address());
        CallStatus status = io.status();
        int count = (int) io.extra();
        if (listener != null) {
            listener.onCall(null, new VerbCall.GetDeviceList(library.describe(), count, status));
        }
        if (list == 0) {
            return new Outcome.Failed<>("ibv_get_device_list", status);
        }
        return new Outcome.Ok<>("ibv_get_device_list", new DeviceList(this, list, count, status), status);
    }

    /**
     * The devices, or {@link VerbsUnavailableException} when there is no list (ENOSYS without
     * kernel RDMA) or it is empty: the one-sentence explanation the CLI prints.
     */
    public DeviceList getDeviceList() {
        Outcome<DeviceList> outcome = tryGetDeviceList();
        if (outcome instanceof Outcome.Failed<DeviceList> failed) {
            throw VerbsUnavailableException.noDeviceList(library.describe(), failed.status());
        }
        DeviceList list = outcome.orThrow();
        if (list.devices().isEmpty()) {
            list.close();
            throw VerbsUnavailableException.noDevices(library.describe());
        }
        return list;
    }

    /**
     * Reconfigures softverbs' devices ({@code NAME@IPV4[:KEY=VALUE...]}, comma-separated; the
     * syntax of SOFTVERBS_DEVICES) with {@code softverbs_configure}; null goes back to the
     * environment. Later device lists see the change; open contexts do not.
     * Throws {@link IllegalArgumentException} with softverbs' own reason when it rejects the spec,
     * and {@link UnsupportedOperationException} on any other libibverbs.
     */
    public CallStatus configureSoftverbs(String spec) {
        if (!isSoftverbs()) {
            throw new UnsupportedOperationException(loadedPath + " is not softverbs; it has no softverbs_configure");
        }
        CallBuffer io = CallBuffer.acquire(0);
        String why = softverbsConfigure0(lib(), spec, io.address());
        CallStatus status = io.status();
        if (!status.ok()) {
            throw new IllegalArgumentException("softverbs_configure(\"" + spec + "\") failed: "
                    + (why != null ? why : status.describe()));
        }
        return status;
    }

    /**
     * Asks softverbs to record the packets of the devices opened from now on in this process
     * into {@code dir} ({@code softverbs-IP-PID.wire} files, read by the capture's
     * {@code SoftverbsWireLog}); null hands the choice back to SOFTVERBS_WIRE. Throws
     * {@link UnsupportedOperationException} on a library without {@code softverbs_wire}.
     */
    public void recordSoftverbsWire(java.nio.file.Path dir) {
        if ((features & FEATURE_SOFTVERBS_WIRE) == 0) {
            throw new UnsupportedOperationException(loadedPath + " is not softverbs (or an older one): it has no softverbs_wire");
        }
        int ret = softverbsWire0(lib(), dir == null ? null : dir.toAbsolutePath().toString());
        if (ret != 0) {
            throw new IllegalArgumentException("softverbs_wire(\"" + dir + "\") failed: errno " + ret);
        }
    }

    /**
     * softverbs' explanation of its last configuration or open failure on this thread (e.g. an
     * address already bound by another process); empty on other libraries or when there is none.
     */
    public Optional<String> lastSoftverbsError() {
        String why = softverbsLastError0(lib());
        return why == null || why.isEmpty() ? Optional.empty() : Optional.of(why);
    }

    long lib() {
        long h = lib;
        if (h == 0) {
            throw new ResourceClosedException("libibverbs " + library.describe(), "a verb");
        }
        return h;
    }

    void contextOpened() {
        liveContexts.incrementAndGet();
    }

    void contextClosed() {
        liveContexts.decrementAndGet();
    }

    /** Drops this handle on the library; refuses while contexts opened through it are still open. */
    @Override
    public synchronized void close() {
        if (lib == 0) {
            return;
        }
        int live = liveContexts.get();
        if (live > 0) {
            throw new IllegalStateException("cannot unload " + library.describe() + ": " + live
                    + " context(s) are still open; close them first");
        }
        long h = lib;
        lib = 0;
        close0(h);
    }

    @Override
    public String toString() {
        return "Verbs[" + loadedPath + "]";
    }

    private static native long open0(String path, String[] errorOut);

    private static native void close0(long lib);

    private static native String loadedPath0(long lib);

    private static native int features0(long lib);

    private static native String softverbsConfigure0(long lib, String spec, long io);

    private static native long getDeviceList0(long lib, long io);

    private static native String softverbsLastError0(long lib);

    private static native int softverbsWire0(long lib, String dir);
}
