package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One C reference (a tensor_t, tensor_storage_t or tensor_safetensors_t) owned by a Java
 * object, safe to close while other threads use it, lock-free.
 *
 * <p>{@code state} counts the calls in progress (in steps of {@link #USE}) and has bit
 * {@link #CLOSED}. A call {@link #acquire acquires} the address (refused once closed) and
 * {@link #release releases} it; {@link #run close} sets the bit. The C reference is dropped
 * exactly once, by whichever of them leaves the state at "closed, no call in progress":
 * a close racing with a call waits for that call to finish, without blocking either thread.
 *
 * <p>It is also the {@link java.lang.ref.Cleaner} action of its owner, so it must not
 * reference the owner.
 */
final class Handle implements Runnable {
    private static final int CLOSED = 1;
    private static final int USE = 2;

    private final AtomicInteger state = new AtomicInteger();
    private final MemorySegment address;
    private final Consumer<MemorySegment> free;
    private final String kind;
    /** The scope of the segments {@code data()} gave out; closed before the reference is dropped. */
    private Arena dataArena;

    Handle(MemorySegment address, Consumer<MemorySegment> free, String kind) {
        this.address = address;
        this.free = free;
        this.kind = kind;
    }

    /** The C address, held until {@link #release}. */
    MemorySegment acquire() {
        for (;;) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                throw new ClosedException(kind + " is closed");
            }
            if (state.compareAndSet(s, s + USE)) {
                return address;
            }
        }
    }

    void release() {
        if (state.addAndGet(-USE) == CLOSED) {
            drop();
        }
    }

    /** Closes: drops the C reference now, or when the last call in progress releases. */
    @Override
    public void run() {
        for (;;) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return;
            }
            if (state.compareAndSet(s, s | CLOSED)) {
                if (s == 0) {
                    drop();
                }
                return;
            }
        }
    }

    boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }

    /** The shared arena that scopes data segments; call only while acquired. */
    synchronized Arena dataArena() {
        if (dataArena == null) {
            dataArena = Arena.ofShared();
        }
        return dataArena;
    }

    private void drop() {
        Arena arena;
        synchronized (this) {
            arena = dataArena;
        }
        if (arena != null) {
            try {
                arena.close();
            } catch (IllegalStateException stillInUse) {
                // A data segment is held by a running downcall: keep the memory (a leak)
                // rather than free it under that call.
                return;
            }
        }
        free.accept(address);
    }
}
