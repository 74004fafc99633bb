package dev.ctensor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.junit.jupiter.api.Test;

/**
 * Arrow exchange with Apache Arrow Java's C Data module ({@code arrow-c-data}): a tensor
 * exported and imported by {@code Data.importVector}, a vector exported by
 * {@code Data.exportVector} and imported as a tensor; the allocator's close checks that
 * every Arrow buffer was released.
 */
class ArrowInteropTest {
    private static MemorySegment struct(long address, StructLayout layout) {
        return MemorySegment.ofAddress(address).reinterpret(layout.byteSize());
    }

    @Test
    void tensorToArrowJava() throws CTensorException {
        double[] v = {1.5, -2.0, Double.NaN, 1e300};
        try (BufferAllocator alloc = new RootAllocator(); ArrowSchema s = ArrowSchema.allocateNew(alloc);
             ArrowArray a = ArrowArray.allocateNew(alloc)) {
            try (Tensor t = Tensor.of(v)) {
                t.toArrow(struct(s.memoryAddress(), Arrow.SCHEMA), struct(a.memoryAddress(), Arrow.ARRAY), Arrow.NO_COPY);
            }
            try (FieldVector fv = Data.importVector(alloc, a, s, null)) { // the tensor closed: the array holds it
                Float8Vector f = (Float8Vector) fv;
                assertEquals(v.length, f.getValueCount());
                for (int i = 0; i < v.length; i++) {
                    assertEquals(v[i], f.get(i));
                }
            }
        }
        // 2-D: arrow.fixed_shape_tensor, whose storage is FixedSizeList<int32>[3]
        try (BufferAllocator alloc = new RootAllocator(); ArrowSchema s = ArrowSchema.allocateNew(alloc);
             ArrowArray a = ArrowArray.allocateNew(alloc); Tensor t = Tensor.of(new int[] {1, 2, 3, 4, 5, 6}, 2, 3)) {
            t.toArrow(struct(s.memoryAddress(), Arrow.SCHEMA), struct(a.memoryAddress(), Arrow.ARRAY), 0);
            try (FieldVector fv = Data.importVector(alloc, a, s, null)) {
                FixedSizeListVector list = (FixedSizeListVector) fv;
                assertEquals("arrow.fixed_shape_tensor", list.getField().getMetadata().get("ARROW:extension:name"));
                assertEquals(2, list.getValueCount());
                assertEquals(3, list.getListSize());
                IntVector data = (IntVector) list.getDataVector();
                for (int i = 0; i < 6; i++) {
                    assertEquals(i + 1, data.get(i));
                }
            }
            try (Tensor tt = t.transpose(0, 1); Tensor column = tt.select(0, 0); ArrowSchema s2 = ArrowSchema.allocateNew(alloc);
                 ArrowArray a2 = ArrowArray.allocateNew(alloc)) {
                MemorySegment ss = struct(s2.memoryAddress(), Arrow.SCHEMA);
                MemorySegment as = struct(a2.memoryAddress(), Arrow.ARRAY);
                assertThrows(CopyException.class, () -> column.toArrow(ss, as, Arrow.NO_COPY)); // stride 3: a copy
            }
        }
    }

    @Test
    void arrowJavaToTensor() throws CTensorException {
        try (BufferAllocator alloc = new RootAllocator()) {
            try (ArrowSchema s = ArrowSchema.allocateNew(alloc); ArrowArray a = ArrowArray.allocateNew(alloc)) {
                try (Float8Vector vec = new Float8Vector("x", alloc)) {
                    vec.allocateNew(5);
                    for (int i = 0; i < 5; i++) {
                        vec.set(i, Math.sqrt(i) - 1);
                    }
                    vec.setValueCount(5);
                    Data.exportVector(alloc, vec, null, a, s);
                }
                MemorySegment as = struct(a.memoryAddress(), Arrow.ARRAY);
                try (Tensor t = Tensor.fromArrow(struct(s.memoryAddress(), Arrow.SCHEMA), as)) {
                    s.release(); // the schema is only read: the caller releases it
                    assertEquals(MemorySegment.NULL, as.get(ADDRESS, Arrow.ARRAY.byteOffset(PathElement.groupElement("release"))),
                            "the array was moved");
                    assertEquals(DType.FLOAT64, t.dtype());
                    assertArrayEquals(new long[] {5}, t.shape());
                    assertTrue(t.isReadOnly());
                    double[] got = t.toDoubleArray();
                    for (int i = 0; i < 5; i++) {
                        assertEquals(Math.sqrt(i) - 1, got[i]);
                    }
                }
            } // the tensor closed first: Arrow's release ran, so the allocator closes without leaks
            try (ArrowSchema s = ArrowSchema.allocateNew(alloc); ArrowArray a = ArrowArray.allocateNew(alloc);
                 IntVector vec = new IntVector("n", alloc)) {
                vec.allocateNew(3);
                vec.set(0, 7);
                vec.setNull(1);
                vec.set(2, 9);
                vec.setValueCount(3);
                Data.exportVector(alloc, vec, null, a, s);
                MemorySegment ss = struct(s.memoryAddress(), Arrow.SCHEMA);
                MemorySegment as = struct(a.memoryAddress(), Arrow.ARRAY);
                assertThrows(FormatException.class, () -> Tensor.fromArrow(ss, as)); // nulls: the caller keeps it
                a.release();
                s.release();
            }
        }
    }
}
