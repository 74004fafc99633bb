package dev.ctensor;

/**
 * A ctensor call failed. {@link #status()} is the C status (one subclass per status,
 * e.g. {@link BoundsException} for {@code TENSOR_E_BOUNDS}); {@link #getMessage()} is the
 * library's own message ({@code tensor_last_error}, read on the calling thread right after
 * the failing call), which names the operation and the values that were wrong.
 */
public class CTensorException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The status, or null for a code this binding does not know. */
    private final transient Status status;
    private final int code;

    /**
     * @param status  the failure status
     * @param message the library's message
     */
    protected CTensorException(Status status, String message) {
        super(message);
        this.status = status;
        this.code = status.code();
    }

    /** A status code unknown to this binding (a newer library). */
    CTensorException(int code, String message) {
        super(message);
        this.status = null;
        this.code = code;
    }

    /** @return the status, or null if the library returned a code this binding does not know */
    public Status status() {
        return status;
    }

    /** @return the C status code */
    public int code() {
        return code;
    }

    /**
     * The exception for a failed call's status, with the calling thread's last error.
     * Must run right after the call, on the same thread, before any other ctensor call.
     */
    static CTensorException fromLastCall(int code) {
        String message = Native.tensor_last_error().reinterpret(Long.MAX_VALUE).getString(0);
        Status s = Status.of(code);
        return s == null ? new CTensorException(code, message) : s.exception(message);
    }

    /** Throws the exception of a failure status; does nothing for TENSOR_OK. */
    static void check(int code) throws CTensorException {
        if (code != Native.TENSOR_OK) {
            throw fromLastCall(code);
        }
    }
}
