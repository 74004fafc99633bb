package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps Java owners of memory that ctensor borrows (a direct ByteBuffer, a segment of an
 * automatic or global arena) reachable until ctensor calls the release callback: each
 * owner is held under an id that goes to C as {@code ctx}; {@link #RELEASE}, the
 * {@code tensor_release_fn} upcall, removes it (on whichever thread drops the last reference).
 */
final class KeepAlive {
    private static final ConcurrentHashMap<Long, Object> HELD = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT = new AtomicLong(1);

    /** The release callback, made once for the life of the process. */
    static final MemorySegment RELEASE = upcall();

    private KeepAlive() {
    }

    private static MemorySegment upcall() {
        try {
            var handle = MethodHandles.lookup().findStatic(KeepAlive.class, "released",
                    MethodType.methodType(void.class, MemorySegment.class));
            return NativeLibrary.LINKER.upcallStub(handle, Native.tensor_release_fn, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Holds {@code owner}; returns the id to pass as ctx. */
    static MemorySegment hold(Object owner) {
        long id = NEXT.getAndIncrement();
        HELD.put(id, owner);
        return MemorySegment.ofAddress(id);
    }

    /** Forgets an owner whose wrap call failed (C never calls release then). */
    static void forget(MemorySegment ctx) {
        HELD.remove(ctx.address());
    }

    /** How many owners are held now (for tests and diagnostics). */
    static int held() {
        return HELD.size();
    }

    private static void released(MemorySegment ctx) {
        HELD.remove(ctx.address());
    }
}
