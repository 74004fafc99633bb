package dev.ctensor;

/**
 * A {@link Tensor}, {@link Storage} or {@link SafeTensors} was used after {@code close()}
 * (or after the cleaner released it). An {@link IllegalStateException}, as for a closed
 * {@link java.lang.foreign.Arena}: using a closed handle is a programming error, never a crash.
 */
public final class ClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ClosedException(String message) {
        super(message);
    }
}
