package io.rdmatrace.verbs;

/**
 * A libibverbs object owned by a {@link Context}: its native handle, the status of the call that
 * created it, and one destroy verb. {@link #tryDestroy} reports a refusal (e.g. EBUSY) as a value
 * and leaves the object alive; {@link #close} is idempotent; any verb on a destroyed object
 * throws {@link ResourceClosedException} instead of handing a freed pointer to libibverbs.
 *
 * <p>Objects are not thread-safe for destruction: do not destroy one while another thread uses it.
 */
public abstract sealed class VerbsResource implements AutoCloseable
        permits ProtectionDomain, MemoryRegion, CompletionChannel, CompletionQueue, QueuePair, AddressHandle {

    final Context context;
    private final CallStatus creationStatus;
    private final long id;
    private volatile long handle;

    VerbsResource(Context context, long handle, CallStatus creationStatus) {
        this.context = context;
        this.handle = handle;
        this.id = handle;
        this.creationStatus = creationStatus;
    }

    /** The handle it was created with; unlike {@link #handle()} it survives destruction (for messages). */
    final long id() {
        return id;
    }

    /** The native pointer (stable for the object's life, 0 once destroyed): the id a recorder uses. */
    public final long handle() {
        return handle;
    }

    public final Context context() {
        return context;
    }

    /** The status of the create/alloc/reg call that made this object. */
    public final CallStatus creationStatus() {
        return creationStatus;
    }

    public final boolean isDestroyed() {
        return handle == 0;
    }

    /** The live handle for {@code verb}, or {@link ResourceClosedException}. */
    final long live(String verb) {
        long h = handle;
        if (h == 0) {
            throw new ResourceClosedException(describe(), verb);
        }
        return h;
    }

    /** Destroys the object; a failure (e.g. EBUSY) comes back as the status and the object stays alive. */
    public final CallStatus tryDestroy() {
        String verb = destroyVerb();
        long h = live(verb);
        beforeDestroy();
        CallBuffer io = CallBuffer.acquire(0);
        destroyNative(context.verbs().lib(), h, io.address());
        CallStatus status = io.status();
        if (status.ok()) {
            handle = 0;
            afterDestroy();
        }
        if (context.observed()) {
            context.emit(destroyRecord(h, status));
        }
        return status;
    }

    /** Destroys the object or throws {@link VerbsCallException}. */
    public final CallStatus destroy() {
        return tryDestroy().orThrow(destroyVerb());
    }

    /** {@link #destroy()} unless already destroyed. */
    @Override
    public final void close() {
        if (handle != 0) {
            destroy();
        }
    }

    /** "queue pair 0x11" etc., for messages. */
    abstract String describe();

    abstract String destroyVerb();

    abstract void destroyNative(long lib, long handle, long io);

    abstract VerbCall destroyRecord(long handle, CallStatus status);

    /** Runs before the destroy call (e.g. a CQ acks pending events so destroy cannot block). */
    void beforeDestroy() {
    }

    /** Runs after a successful destroy. */
    void afterDestroy() {
    }

    @Override
    public String toString() {
        return describe();
    }
}
