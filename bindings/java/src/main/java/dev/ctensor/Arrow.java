package dev.ctensor;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;

/**
 * The Arrow C Data Interface structs as {@link MemoryLayout}s (generated from api.json), for
 * {@link Tensor#toArrow} and {@link Tensor#fromArrow}. A consumer or producer such as Apache
 * Arrow Java's {@code arrow-c-data} gives the structs' addresses
 * ({@code ArrowSchema.memoryAddress()}); {@code MemorySegment.ofAddress(address).reinterpret(SCHEMA.byteSize())}
 * makes them segments.
 */
public final class Arrow {
    /** {@code struct ArrowSchema}. */
    public static final StructLayout SCHEMA = Native.ArrowSchema;
    /** {@code struct ArrowArray}. */
    public static final StructLayout ARRAY = Native.ArrowArray;
    /** {@link Tensor#toArrow} flag: throw {@link CopyException} instead of copying. */
    public static final int NO_COPY = Native.TENSOR_ARROW_NO_COPY;

    private Arrow() {
    }
}
