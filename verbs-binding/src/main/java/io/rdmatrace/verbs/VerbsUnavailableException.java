package io.rdmatrace.verbs;

/**
 * RDMA cannot be used here: libibverbs could not be loaded, it returned no device list, or it
 * lists no devices. The message is one sentence that says which, and how to use the bundled
 * software device instead; the CLI prints it without a stack trace and exits 2.
 */
public final class VerbsUnavailableException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Reason {
        /** dlopen failed or the file is not a libibverbs. */
        LIBRARY_NOT_LOADED,
        /** ibv_get_device_list returned NULL (ENOSYS without kernel RDMA support). */
        NO_DEVICE_LIST,
        /** the list is empty. */
        NO_DEVICES
    }

    static final String HINT = "to use the bundled software RoCE device instead, run with --soft "
            + "(its devices come from SOFTVERBS_DEVICES, default soft0@127.0.0.1)";

    private final Reason reason;
    private final String library;
    private final int errno;

    VerbsUnavailableException(Reason reason, String library, int errno, String message) {
        super(message);
        this.reason = reason;
        this.library = library;
        this.errno = errno;
    }

    static VerbsUnavailableException libraryNotLoaded(String library, String why) {
        return new VerbsUnavailableException(Reason.LIBRARY_NOT_LOADED, library, 0,
                "cannot load libibverbs " + library + " (" + why + "); " + HINT + ".");
    }

    static VerbsUnavailableException noDeviceList(String library, CallStatus status) {
        return new VerbsUnavailableException(Reason.NO_DEVICE_LIST, library, status.errno(),
                "no RDMA devices: " + library + " returned no device list (" + status.describe()
                        + ", which usually means this kernel has no RDMA support); " + HINT + ".");
    }

    static VerbsUnavailableException noDevices(String library) {
        return new VerbsUnavailableException(Reason.NO_DEVICES, library, 0,
                "no RDMA devices: " + library + " lists none; " + HINT + ".");
    }

    public Reason reason() {
        return reason;
    }

    /** The library as it was asked for (path or soname). */
    public String library() {
        return library;
    }

    /** errno of ibv_get_device_list for {@link Reason#NO_DEVICE_LIST} (38 = ENOSYS here), else 0. */
    public int errno() {
        return errno;
    }
}
