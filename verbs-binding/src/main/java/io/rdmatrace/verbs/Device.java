package io.rdmatrace.verbs;

/** One entry of a {@link DeviceList}: name, GUID and types, read when the list was made. */
public final class Device {
    private static final int NODE_TYPE = 0;
    private static final int TRANSPORT_TYPE = 1;
    private static final int GUID = 2;

    private final Verbs verbs;
    private final DeviceList list;
    private final long handle;
    private final String name;
    private final long guid;
    private final NodeType nodeType;
    private final TransportType transportType;
    private final String ibdevPath;

    Device(Verbs verbs, DeviceList list, long handle) {
        this.verbs = verbs;
        this.list = list;
        this.handle = handle;
        CallBuffer io = CallBuffer.acquire(3);
        this.name = describe0(verbs.lib(), handle, io.address());
        this.nodeType = NodeType.of(io.getInt(NODE_TYPE));
        this.transportType = TransportType.of(io.getInt(TRANSPORT_TYPE));
        this.guid = io.get(GUID);
        this.ibdevPath = ibdevPath0(handle);
    }

    public String name() {
        return name;
    }

    /** Node GUID from ibv_get_device_guid, host order (0 if the library lacks it). */
    public long guid() {
        return guid;
    }

    public NodeType nodeType() {
        return nodeType;
    }

    public TransportType transportType() {
        return transportType;
    }

    /** The sysfs folder of the device ({@code /sys/class/infiniband/<name>} on real hardware). */
    public String ibdevPath() {
        return ibdevPath;
    }

    public Verbs verbs() {
        return verbs;
    }

    /** {@code ibv_open_device}; throws {@link VerbsCallException} on failure. */
    public Context open() {
        return tryOpen(null).orThrow();
    }

    /** {@code ibv_open_device}, with {@code listener} observing every verb on the new context. */
    public Context open(VerbsListener listener) {
        return tryOpen(listener).orThrow();
    }

    public Outcome<Context> tryOpen(VerbsListener listener) {
        if (!list.isOpen()) {
            throw new ResourceClosedException("device " + name + " (its device list was freed)", "ibv_open_device");
        }
        CallBuffer io = CallBuffer.acquire(0);
        long ctx = open0(verbs.lib(), handle, io.address());
        CallStatus status = io.status();
        Context context = ctx != 0 ? new Context(verbs, this, ctx, status, listener) : null;
        if (listener != null) {
            listener.onCall(context, new VerbCall.OpenDevice(name, ctx, status));
        }
        if (context == null) {
            return new Outcome.Failed<>("ibv_open_device", status);
        }
        return new Outcome.Ok<>("ibv_open_device", context, status);
    }

    @Override
    public String toString() {
        return "Device[" + name + "]";
    }

    private static native String describe0(long lib, long device, long io);

    private static native String ibdevPath0(long device);

    private static native long open0(long lib, long device, long io);
}
