package dev.ctensor;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The DLPack structs as {@link MemoryLayout}s (generated from api.json) and the deleter
 * call, for exchange with {@link Tensor#toDLPack()} and {@link Tensor#fromDLPack}.
 */
public final class DLPack {
    /** {@code DLManagedTensorVersioned} (DLPack 1.x). */
    public static final StructLayout MANAGED_TENSOR_VERSIONED = Native.DLManagedTensorVersioned;
    /** {@code DLManagedTensor} (pre-1.0). */
    public static final StructLayout MANAGED_TENSOR = Native.DLManagedTensor;
    /** {@code DLTensor}. */
    public static final StructLayout TENSOR = Native.DLTensor;
    /** The descriptor of a deleter, {@code void (*)(self)}. */
    public static final FunctionDescriptor DELETER = FunctionDescriptor.ofVoid(ADDRESS);

    private static final MethodHandle CALL_DELETER = NativeLibrary.LINKER.downcallHandle(DELETER);

    private DLPack() {
    }

    /**
     * Calls the deleter of a {@code DLManagedTensorVersioned} (if not NULL). Call it exactly
     * once, for a managed tensor nobody took over.
     * @param managed the managed tensor
     */
    public static void deleteVersioned(MemorySegment managed) {
        delete(managed, MANAGED_TENSOR_VERSIONED);
    }

    /**
     * Calls the deleter of a {@code DLManagedTensor} (if not NULL), exactly once.
     * @param managed the managed tensor
     */
    public static void deleteLegacy(MemorySegment managed) {
        delete(managed, MANAGED_TENSOR);
    }

    private static void delete(MemorySegment managed, StructLayout layout) {
        MemorySegment m = managed.reinterpret(layout.byteSize());
        MemorySegment deleter = m.get(ADDRESS, layout.byteOffset(MemoryLayout.PathElement.groupElement("deleter")));
        if (deleter.equals(MemorySegment.NULL)) {
            return;
        }
        try {
            CALL_DELETER.invokeExact(deleter, m);
        } catch (Throwable e) {
            throw NativeLibrary.unexpected("DLPack deleter", e);
        }
    }
}
