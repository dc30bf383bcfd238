package io.rdmatrace.verbs;

/** {@code struct ibv_ah}: a UD destination, used by {@link SendBatch#ud}. */
public final class AddressHandle extends VerbsResource {
    private final AhAttr attr;

    AddressHandle(Context context, long handle, CallStatus status, AhAttr attr) {
        super(context, handle, status);
        this.attr = attr;
    }

    public AhAttr attr() {
        return attr;
    }

    @Override
    String describe() {
        return "address handle 0x" + Long.toHexString(id());
    }

    @Override
    String destroyVerb() {
        return "ibv_destroy_ah";
    }

    @Override
    void destroyNative(long lib, long handle, long io) {
        destroy0(lib, handle, io);
    }

    @Override
    VerbCall destroyRecord(long handle, CallStatus status) {
        return new VerbCall.DestroyAh(handle, status);
    }

    private static native void destroy0(long lib, long ah, long io);
}
