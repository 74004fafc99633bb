package dev.ctensor;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.function.Consumer;

/**
 * The common part of the objects that own a C reference: {@link #close()} drops it (twice
 * is harmless), a {@link Cleaner} drops it if the object becomes unreachable unclosed, and
 * any use after close throws {@link ClosedException}.
 */
abstract class Resource implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    final Handle handle;
    private final Cleaner.Cleanable cleanable;

    Resource(MemorySegment address, Consumer<MemorySegment> free, String kind) {
        this.handle = new Handle(address, free, kind);
        this.cleanable = CLEANER.register(this, handle);
    }

    /**
     * Releases the C reference this object holds. Closing twice, or from several threads
     * at once, is harmless; a call running on another thread finishes first (the reference
     * is dropped when it returns). Segments from {@code data()} become inaccessible.
     */
    @Override
    public final void close() {
        cleanable.clean();
    }

    /** @return true once {@link #close()} was called */
    public final boolean isClosed() {
        return handle.isClosed();
    }
}
