package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/** The C addresses of some resources, held for one call (try-with-resources). */
final class Use implements AutoCloseable {
    private final Handle[] handles;
    private final MemorySegment[] addresses;
    private int held;

    private Use(Resource[] resources, boolean nullable) {
        handles = new Handle[resources.length];
        addresses = new MemorySegment[resources.length];
        try {
            for (; held < resources.length; held++) {
                if (resources[held] == null) {
                    if (!nullable) {
                        throw new NullPointerException("argument " + held + " is null");
                    }
                    addresses[held] = MemorySegment.NULL;
                    continue;
                }
                handles[held] = resources[held].handle;
                addresses[held] = handles[held].acquire();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    static Use of(Resource... resources) {
        return new Use(resources, false);
    }

    /** As {@link #of}, but a null resource is passed to C as NULL (an optional argument). */
    static Use ofNullable(Resource... resources) {
        return new Use(resources, true);
    }

    MemorySegment get(int i) {
        return addresses[i];
    }

    /** The addresses from {@code from} on, as an array of pointers in {@code arena}. */
    MemorySegment array(Arena arena, int from) {
        MemorySegment a = arena.allocate(ADDRESS, Math.max(1, addresses.length - from));
        for (int i = from; i < addresses.length; i++) {
            a.setAtIndex(ADDRESS, i - from, addresses[i]);
        }
        return a;
    }

    @Override
    public void close() {
        while (held > 0) {
            Handle h = handles[--held];
            if (h != null) {
                h.release();
            }
        }
    }
}
