package io.rdmatrace.verbs;

import java.nio.ByteBuffer;

/** {@code struct ibv_mr}: registered memory with its keys; {@link #buffer()} views the bytes. */
public final class MemoryRegion extends VerbsResource {
    private final NativeMemory memory;
    private final long address;
    private final long length;
    private final int lkey;
    private final int rkey;
    private final int access;

    MemoryRegion(Context context, long handle, CallStatus status, NativeMemory memory, long address, long length,
                 int lkey, int rkey, int access) {
        super(context, handle, status);
        this.memory = memory;
        this.address = address;
        this.length = length;
        this.lkey = lkey;
        this.rkey = rkey;
        this.access = access;
        if (memory != null) {
            memory.registered();
        }
    }

    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    public int lkey() {
        return lkey;
    }

    public int rkey() {
        return rkey;
    }

    /** The access flags it was registered with. */
    public int access() {
        return access;
    }

    /** The registered bytes as a direct buffer (only for regions over {@link NativeMemory}). */
    public ByteBuffer buffer() {
        if (memory == null) {
            throw new IllegalStateException("this region was registered from a raw address; it has no buffer");
        }
        return memory.slice(address - memory.address(), length);
    }

    @Override
    String describe() {
        return "memory region lkey 0x" + Integer.toHexString(lkey);
    }

    @Override
    String destroyVerb() {
        return "ibv_dereg_mr";
    }

    /** {@code ibv_dereg_mr} (same as {@link #destroy()}). */
    public CallStatus dereg() {
        return destroy();
    }

    public CallStatus tryDereg() {
        return tryDestroy();
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        deregMr0(lib, handle, io);
    }

    @Override
    void afterDestroy() {
        if (memory != null) {
            memory.deregistered();
        }
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DeregMr(handle, status);
    }

    private static native void deregMr0(long lib, long mr, long io);
}
