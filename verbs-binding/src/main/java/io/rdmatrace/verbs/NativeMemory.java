package io.rdmatrace.verbs;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Zeroed, page-aligned native memory (posix_memalign) for memory regions, with a direct
 * {@link ByteBuffer} view. Freed by {@link #close}, which refuses while a {@link MemoryRegion}
 * still covers it (the device could write into freed memory otherwise).
 */
public final class NativeMemory implements AutoCloseable {

    static {
        JniLibrary.ensureLoaded();
    }

    private final long size;
    private final AtomicInteger registrations = new AtomicInteger();
    private volatile long address;

    private NativeMemory(long address, long size) {
        this.address = address;
        this.size = size;
    }

    /** {@code size} bytes aligned to the page size. */
    public static NativeMemory allocate(long size) {
        long address = allocate0(size, pageSize());
        if (address == 0) {
            throw new OutOfMemoryError("cannot allocate " + size + " bytes of page-aligned native memory");
        }
        return new NativeMemory(address, size);
    }

    public static long pageSize() {
        return pageSize0();
    }

    public long address() {
        long a = address;
        if (a == 0) {
            throw new IllegalStateException("native memory already freed");
        }
        return a;
    }

    public long size() {
        return size;
    }

    /** A view of the whole block (at most 2 GiB), big-endian like every new ByteBuffer. */
    public ByteBuffer buffer() {
        return slice(0, size);
    }

    /** A view of {@code length} bytes at {@code offset}. */
    public ByteBuffer slice(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > size || length > Integer.MAX_VALUE) {
            throw new IndexOutOfBoundsException("slice " + offset + "+" + length + " of " + size + " bytes");
        }
        return view0(address() + offset, length);
    }

    void registered() {
        registrations.incrementAndGet();
    }

    void deregistered() {
        registrations.decrementAndGet();
    }

    @Override
    public synchronized void close() {
        if (address == 0) {
            return;
        }
        int live = registrations.get();
        if (live > 0) {
            throw new IllegalStateException("native memory is still registered in " + live
                    + " memory region(s); deregister them first");
        }
        long a = address;
        address = 0;
        free0(a);
    }

    /** The address of a direct buffer. */
    static long addressOf(ByteBuffer direct) {
        return address0(direct);
    }

    /** Bytes malloc has handed out in this process (glibc mallinfo2): leak checks compare two readings. */
    static long mallocInUse() {
        return mallocInUse0();
    }

    static void freeScratch(long scratch) {
        freeScratch0(scratch);
    }

    private static native long pageSize0();

    private static native long allocate0(long size, long alignment);

    private static native void free0(long address);

    private static native ByteBuffer view0(long address, long length);

    private static native long address0(ByteBuffer direct);

    private static native void freeScratch0(long scratch);

    private static native long mallocInUse0();
}
