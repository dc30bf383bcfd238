package io.rdmatrace.verbs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The array {@code ibv_get_device_list} returned. Open the devices you need before closing it
 * (closing calls {@code ibv_free_device_list}; contexts already opened stay valid).
 */
public final class DeviceList implements AutoCloseable {
    private final Verbs verbs;
    private final List<Device> devices;
    private final CallStatus status;
    private long handle;

    DeviceList(Verbs verbs, long handle, int count, CallStatus status) {
        this.verbs = verbs;
        this.handle = handle;
        this.status = status;
        List<Device> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(new Device(verbs, this, deviceAt0(handle, i, count)));
        }
        this.devices = Collections.unmodifiableList(list);
    }

    public List<Device> devices() {
        return devices;
    }

    /** The device named {@code name} (e.g. {@code sv0}, {@code mlx5_0}). */
    public Device byName(String name) {
        for (Device d : devices) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        List<String> names = new ArrayList<>();
        devices.forEach(d -> names.add(d.name()));
        throw new IllegalArgumentException("no RDMA device named '" + name + "'; devices: " + names);
    }

    /** The status of the ibv_get_device_list call. */
    public CallStatus status() {
        return status;
    }

    boolean isOpen() {
        return handle != 0;
    }

    @Override
    public void close() {
        if (handle == 0) {
            return;
        }
        long h = handle;
        handle = 0;
        freeDeviceList0(verbs.lib(), h, CallBuffer.acquire(0).address());
    }

    private static native long deviceAt0(long list, int index, int count);

    private static native void freeDeviceList0(long lib, long list, long io);
}
