package dev.ctensor;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** DLPack export and import through the generated struct layouts. */
class DLPackTest {
    private static long off(StructLayout layout, String... path) {
        var elements = new java.lang.foreign.MemoryLayout.PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            elements[i] = groupElement(path[i]);
        }
        return layout.byteOffset(elements);
    }

    @Test
    void exportFillsTheStructAsTheTensorIs() throws CTensorException {
        StructLayout v = DLPack.MANAGED_TENSOR_VERSIONED;
        try (Tensor t = Tensor.of(ViewsTest.range(6), 2, 3); Tensor tt = t.transpose(0, 1)) {
            MemorySegment m = tt.toDLPack();
            try (Storage s = t.storage()) {
                assertEquals(4, s.refcount()); // t, tt, s and the export's pin (it holds tt too)
            }
            assertEquals(1, m.get(JAVA_INT, off(v, "version", "major")));
            assertEquals(2, m.get(JAVA_INT, off(v, "dl_tensor", "ndim")));
            assertEquals(1, m.get(JAVA_INT, off(v, "dl_tensor", "device", "device_type")));
            assertEquals(2, m.get(JAVA_BYTE, off(v, "dl_tensor", "dtype", "code"))); // kDLFloat
            assertEquals(64, m.get(JAVA_BYTE, off(v, "dl_tensor", "dtype", "bits")));
            assertEquals(1, m.get(JAVA_SHORT, off(v, "dl_tensor", "dtype", "lanes")));
            MemorySegment shape = m.get(ADDRESS, off(v, "dl_tensor", "shape")).reinterpret(16);
            MemorySegment strides = m.get(ADDRESS, off(v, "dl_tensor", "strides")).reinterpret(16);
            assertArrayEquals(new long[] {3, 2}, shape.toArray(JAVA_LONG));
            assertArrayEquals(new long[] {1, 3}, strides.toArray(JAVA_LONG));
            assertEquals(tt.data().address(), m.get(ADDRESS, off(v, "dl_tensor", "data")).address());
            assertEquals(0, m.get(JAVA_LONG, off(v, "flags")));
            assertEquals(2, tt.refcount());
            try (Tensor back = Tensor.fromDLPack(m)) {
                assertArrayEquals(new long[] {3, 2}, back.shape());
                assertArrayEquals(new long[] {1, 3}, back.stride());
                assertTrue(back.equal(tt));
            }
            assertEquals(1, tt.refcount()); // the import's release ran the deleter
            MemorySegment legacy = t.toDLPackLegacy();
            assertEquals(2, legacy.get(JAVA_INT, off(DLPack.MANAGED_TENSOR, "dl_tensor", "ndim")));
            assertEquals(2, t.refcount());
            DLPack.deleteLegacy(legacy);
            assertEquals(1, t.refcount());
            MemorySegment m2 = t.toDLPack();
            DLPack.deleteVersioned(m2);
            assertEquals(1, t.refcount());
        }
    }

    private static final AtomicInteger DELETED = new AtomicInteger();

    static void deleter(MemorySegment self) {
        DELETED.incrementAndGet();
    }

    @Test
    void importOfJavaMadeTensorCallsItsDeleterOnce() throws Throwable {
        StructLayout v = DLPack.MANAGED_TENSOR_VERSIONED;
        Arena arena = Arena.ofShared();
        MemorySegment stub = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(DLPackTest.class,
                "deleter", MethodType.methodType(void.class, MemorySegment.class)), DLPack.DELETER, arena);
        MemorySegment data = arena.allocateFrom(JAVA_DOUBLE, 1, 2, 3, 4, 5, 6);
        MemorySegment shape = arena.allocateFrom(JAVA_LONG, 3, 2);
        MemorySegment m = arena.allocate(v);
        m.set(JAVA_INT, off(v, "version", "major"), 1);
        m.set(ADDRESS, off(v, "deleter"), stub);
        m.set(JAVA_LONG, off(v, "flags"), 1); // read-only
        m.set(ADDRESS, off(v, "dl_tensor", "data"), data);
        m.set(JAVA_INT, off(v, "dl_tensor", "device", "device_type"), 1);
        m.set(JAVA_INT, off(v, "dl_tensor", "ndim"), 2);
        m.set(JAVA_BYTE, off(v, "dl_tensor", "dtype", "code"), (byte) 2);
        m.set(JAVA_BYTE, off(v, "dl_tensor", "dtype", "bits"), (byte) 64);
        m.set(JAVA_SHORT, off(v, "dl_tensor", "dtype", "lanes"), (short) 1);
        m.set(ADDRESS, off(v, "dl_tensor", "shape"), shape);
        int before = DELETED.get();
        try (Tensor t = Tensor.fromDLPack(m)) {
            assertArrayEquals(new long[] {3, 2}, t.shape());
            assertTrue(t.isReadOnly());
            assertEquals(data.address(), t.data().address());
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, t.toDoubleArray());
            assertEquals(before, DELETED.get());
        }
        assertEquals(before + 1, DELETED.get());
        m.set(JAVA_INT, off(v, "version", "major"), 2);
        assertThrows(UnsupportedException.class, () -> Tensor.fromDLPack(m));
        m.set(JAVA_INT, off(v, "version", "major"), 1);
        m.set(JAVA_INT, off(v, "dl_tensor", "device", "device_type"), 2); // CUDA: metadata only
        try (Tensor gpu = Tensor.fromDLPack(m)) {
            assertArrayEquals(new int[] {2, 0}, gpu.device());
            assertThrows(DeviceException.class, gpu::data);
            assertThrows(DeviceException.class, gpu::copy);
        }
        assertEquals(before + 2, DELETED.get());
        arena.close();
    }
}
