package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Memory shared both ways: Java memory wrapped as tensors, tensor memory seen as segments. */
class ZeroCopyTest {
    @Test
    void wrappedSegmentIsSharedAndKeptUntilReleased() throws CTensorException {
        int held = KeepAlive.held();
        MemorySegment seg = Arena.ofAuto().allocate(6 * 8, 8);
        try (Tensor t = Tensor.wrap(seg, DType.FLOAT64, false)) {
            assertEquals(held + 1, KeepAlive.held());
            assertEquals(seg.address(), t.data().address());
            seg.setAtIndex(JAVA_DOUBLE, 2, 4.5);
            try (Tensor v = t.view(2, 3)) {
                try (Tensor e = v.index(Index.at(0), Index.at(2))) {
                    assertEquals(4.5, e.itemDouble());
                }
                t.close();
                v.fill(-1); // the view keeps the storage (and the segment) alive
                assertEquals(held + 1, KeepAlive.held());
            }
            assertEquals(-1.0, seg.getAtIndex(JAVA_DOUBLE, 5));
        }
        assertEquals(held, KeepAlive.held()); // released: the upcall dropped the segment
    }

    @Test
    void directBufferAndStorageWrap() throws CTensorException {
        int held = KeepAlive.held();
        ByteBuffer buf = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        buf.putInt(0, 11).putInt(4, 22).putInt(8, 33).putInt(12, 44);
        try (Tensor t = Tensor.wrap(buf, DType.INT32, false); Tensor s = t.sum(false)) {
            assertEquals(110, s.itemLong());
            t.fill(5);
            assertEquals(5, buf.getInt(12));
        }
        try (Tensor ro = Tensor.wrap(buf.asReadOnlyBuffer(), DType.INT32, false)) {
            assertTrue(ro.isReadOnly());
            assertThrows(ReadOnlyException.class, () -> ro.fill(0));
            assertThrows(IllegalArgumentException.class, () -> ro.data().set(JAVA_INT, 0, 1)); // read-only segment
        }
        MemorySegment seg = Arena.global().allocate(64);
        try (Storage st = Storage.wrap(seg, false);
             Tensor t = Tensor.fromStorage(st, DType.FLOAT32, new long[] {2, 2}, new long[] {1, 2}, 4)) {
            assertEquals(seg.address(), st.data().address());
            assertEquals(2, st.refcount());
            t.fill(2.5f);
            assertEquals(2.5f, seg.getAtIndex(JAVA_FLOAT, 4 + 1 + 2));
            assertEquals(0f, seg.getAtIndex(JAVA_FLOAT, 0));
        }
        assertEquals(held, KeepAlive.held());
        assertThrows(IllegalArgumentException.class, () -> Tensor.wrap(ByteBuffer.allocate(8), DType.INT8, false));
        assertThrows(IllegalArgumentException.class,
                () -> Tensor.wrap(MemorySegment.ofArray(new int[2]), DType.INT32, false));
        // a failed wrap keeps nothing and calls no release
        assertThrows(InvalidArgumentException.class,
                () -> Tensor.wrap(Arena.global().allocate(6), DType.INT32, false));
        assertEquals(held, KeepAlive.held());
    }

    @Test
    void dataSegmentIsBoundedAndDiesWithTheTensor() throws CTensorException {
        MemorySegment data;
        try (Tensor t = Tensor.of(ViewsTest.range(12), 3, 4); Tensor v = t.slice(1, 1, 3, 1)) {
            data = v.data();
            assertEquals(10 * 8, data.byteSize()); // from element [0, 0] (1) to [2, 1] (10)
            assertEquals(1.0, data.get(JAVA_DOUBLE, v.byteOffset(0, 0)));
            assertEquals(10.0, data.get(JAVA_DOUBLE, v.byteOffset(2, 1)));
            MemorySegment view = data;
            assertThrows(IndexOutOfBoundsException.class, () -> view.get(JAVA_DOUBLE, 10 * 8));
            assertThrows(IndexOutOfBoundsException.class, () -> v.byteOffset(3, 0));
            try (Storage s = v.storage()) {
                assertEquals(12 * 8, s.data().byteSize());
            }
        }
        MemorySegment closed = data;
        assertThrows(IllegalStateException.class, () -> closed.get(JAVA_DOUBLE, 0));
    }
}
