package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/** Runs a C call that gives its result through {@code out}, turning its status into an exception. */
final class Call {
    private Call() {
    }

    /** A call: writes through {@code out}, may allocate its arguments in {@code arena}; returns the status. */
    @FunctionalInterface
    interface WithOut {
        int call(MemorySegment out, Arena arena);
    }

    /** A call without result; may allocate its arguments in {@code arena}; returns the status. */
    @FunctionalInterface
    interface Plain {
        int call(Arena arena);
    }

    /** Runs {@code fn} with a pointer-sized {@code out}; returns the pointer it received. */
    static MemorySegment out(WithOut fn) throws CTensorException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            CTensorException.check(fn.call(out, arena));
            return out.get(ADDRESS, 0);
        }
    }

    static void run(Plain fn) throws CTensorException {
        try (Arena arena = Arena.ofConfined()) {
            CTensorException.check(fn.call(arena));
        }
    }

    /** A borrowed C string (static or owned by a live handle) as a Java string; null for NULL. */
    static String string(MemorySegment p) {
        return p.equals(MemorySegment.NULL) ? null : p.reinterpret(Long.MAX_VALUE).getString(0);
    }
}
