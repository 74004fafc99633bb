package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.api.Test;

/** Math: every op's C result read from its data and compared with the value computed here. */
class MathTest {
    private static final double[] A = {1.5, -2.0, 3.0, 0.5, 4.0, -6.25};
    private static final double[] B = {2.0, 0.5, -1.0};

    @FunctionalInterface
    interface Op {
        Tensor apply(Tensor a, Tensor b) throws CTensorException;
    }

    private static void checkBinary(Op op, DoubleBinaryOperator expected) throws CTensorException {
        try (Tensor a = Tensor.of(A, 2, 3); Tensor b = Tensor.of(B); Tensor r = op.apply(a, b)) {
            assertArrayEquals(new long[] {2, 3}, r.shape());
            double[] got = r.toDoubleArray();
            for (int i = 0; i < 6; i++) {
                assertEquals(expected.applyAsDouble(A[i], B[i % 3]), got[i], 1e-12, "element " + i);
            }
        }
    }

    @Test
    void arithmetic() throws CTensorException {
        checkBinary(Tensor::add, (x, y) -> x + y);
        checkBinary(Tensor::sub, (x, y) -> x - y);
        checkBinary(Tensor::mul, (x, y) -> x * y);
        checkBinary(Tensor::div, (x, y) -> x / y);
        checkBinary(Tensor::pow, Math::pow);
        checkBinary(Tensor::maximum, Math::max);
        checkBinary(Tensor::minimum, Math::min);
    }

    @Test
    void comparisonsGiveBool() throws CTensorException {
        checkBinary(Tensor::eq, (x, y) -> x == y ? 1 : 0);
        checkBinary(Tensor::ne, (x, y) -> x != y ? 1 : 0);
        checkBinary(Tensor::lt, (x, y) -> x < y ? 1 : 0);
        checkBinary(Tensor::le, (x, y) -> x <= y ? 1 : 0);
        checkBinary(Tensor::gt, (x, y) -> x > y ? 1 : 0);
        checkBinary(Tensor::ge, (x, y) -> x >= y ? 1 : 0);
        try (Tensor a = Tensor.of(A); Tensor b = Tensor.of(A); Tensor r = a.le(b)) {
            assertEquals(DType.BOOL, r.dtype());
            assertArrayEquals(new byte[] {1, 1, 1, 1, 1, 1}, r.data().toArray(JAVA_BYTE));
        }
    }

    @Test
    void promotionWithWrappedNumbers() throws CTensorException {
        try (Tensor i8 = Tensor.zeros(DType.INT8, 3); Tensor one = Tensor.scalar(1L); Tensor half = Tensor.scalar(0.5);
             Tensor r1 = i8.add(one); Tensor r2 = i8.add(half); Tensor c = Tensor.scalarComplex(1, 2);
             Tensor flag = Tensor.scalar(true)) {
            assertEquals(DType.INT8, r1.dtype());
            assertEquals(DType.FLOAT32, r2.dtype());
            assertArrayEquals(new double[] {0.5, 0.5, 0.5}, r2.toDoubleArray());
            assertEquals(DType.INT8, i8.resultType(one));
            assertEquals(DType.COMPLEX64, i8.resultType(c));
            assertEquals(DType.INT16, Tensor.promoteTypes(DType.INT8, DType.UINT8));
            assertEquals(DType.FLOAT32, Tensor.promoteTypes(DType.INT64, DType.FLOAT32));
            assertEquals(DType.INT32, Tensor.promoteTypes(DType.UINT16, DType.INT16));
            assertThrows(DTypeException.class, () -> Tensor.promoteTypes(DType.UINT64, DType.INT8));
            assertEquals(DType.BOOL, flag.dtype());
            assertEquals(1, flag.itemLong());
            assertEquals(1.0, c.itemDouble());
            try (Tensor i32 = Tensor.of(new int[] {7, -7}); Tensor two = Tensor.scalar(2L); Tensor q = i32.div(two)) {
                assertEquals(DType.FLOAT32, q.dtype());
                assertArrayEquals(new double[] {3.5, -3.5}, q.toDoubleArray());
            }
        }
    }

    @Test
    void binaryIntoInPlace() throws CTensorException {
        try (Tensor a = Tensor.of(new double[] {1, 2, 3}); Tensor b = Tensor.of(new double[] {10, 20, 30})) {
            a.binaryInto(BinaryOp.ADD, a, b);
            assertArrayEquals(new double[] {11, 22, 33}, a.data().toArray(JAVA_DOUBLE));
            a.binaryInto(BinaryOp.MUL, a, b);
            assertArrayEquals(new double[] {110, 440, 990}, a.data().toArray(JAVA_DOUBLE));
            try (Tensor i = Tensor.zeros(DType.INT64, 3)) {
                assertThrows(DTypeException.class, () -> i.binaryInto(BinaryOp.DIV, a, b));
            }
            for (BinaryOp op : BinaryOp.values()) {
                try (Tensor dst = Tensor.zeros(DType.FLOAT64, 3)) {
                    dst.binaryInto(op, a, b);
                }
            }
        }
    }

    @Test
    void unaryAndReductions() throws CTensorException {
        try (Tensor a = Tensor.of(A, 2, 3); Tensor n = a.neg(); Tensor ab = a.abs()) {
            double[] nv = n.toDoubleArray();
            double[] av = ab.toDoubleArray();
            for (int i = 0; i < 6; i++) {
                assertEquals(-A[i], nv[i]);
                assertEquals(Math.abs(A[i]), av[i]);
            }
            try (Tensor s = a.sum(false); Tensor s1 = a.sum(true, 1); Tensor m = a.mean(false, 0);
                 Tensor p = a.prod(false, -1); Tensor mx = a.amax(false); Tensor mn = a.amin(false, 0)) {
                double total = 0;
                for (double x : A) {
                    total += x;
                }
                assertEquals(total, s.itemDouble(), 1e-12);
                assertArrayEquals(new long[] {2, 1}, s1.shape());
                assertArrayEquals(new double[] {A[0] + A[1] + A[2], A[3] + A[4] + A[5]}, s1.toDoubleArray(), 1e-12);
                assertArrayEquals(new double[] {(A[0] + A[3]) / 2, (A[1] + A[4]) / 2, (A[2] + A[5]) / 2},
                        m.toDoubleArray(), 1e-12);
                assertArrayEquals(new double[] {A[0] * A[1] * A[2], A[3] * A[4] * A[5]}, p.toDoubleArray(), 1e-12);
                assertEquals(4.0, mx.itemDouble());
                assertArrayEquals(new double[] {0.5, -2.0, -6.25}, mn.toDoubleArray());
            }
            try (Tensor b = Tensor.scalar(true); Tensor i = Tensor.of(new int[] {1, 2}); Tensor is = i.sum(false)) {
                assertThrows(DTypeException.class, b::neg);
                assertThrows(DTypeException.class, () -> i.mean(false));
                assertEquals(DType.INT64, is.dtype());
                assertEquals(3, is.itemLong());
                assertThrows(ShapeException.class, i::itemLong);
            }
            try (Tensor e = Tensor.zeros(DType.FLOAT32, 0)) {
                assertThrows(ShapeException.class, () -> e.amax(false));
            }
        }
    }

    @Test
    void catStackEqualAllclose() throws CTensorException {
        try (Tensor a = Tensor.of(new double[] {1, 2, 3, 4}, 2, 2); Tensor b = Tensor.of(new float[] {5, 6}, 1, 2);
             Tensor c = Tensor.cat(0, a, b); Tensor s = Tensor.stack(1, a, a)) {
            assertArrayEquals(new long[] {3, 2}, c.shape());
            assertEquals(DType.FLOAT64, c.dtype());
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, c.toDoubleArray());
            assertArrayEquals(new long[] {2, 2, 2}, s.shape());
            assertArrayEquals(new double[] {1, 2, 1, 2, 3, 4, 3, 4}, s.toDoubleArray());
            assertThrows(ShapeException.class, () -> Tensor.cat(1, a, b.view(2)));
            assertThrows(InvalidArgumentException.class, () -> Tensor.cat(0));
            try (Tensor a2 = a.copy(); Tensor near = Tensor.of(new double[] {1, 2, 3, 4 + 1e-9}, 2, 2);
                 Tensor nan = Tensor.of(new double[] {Double.NaN})) {
                assertTrue(a.equal(a2));
                assertFalse(a.equal(near));
                assertTrue(a.allclose(near, 1e-5, 1e-8, false));
                assertFalse(a.allclose(near, 0, 0, false));
                assertFalse(nan.allclose(nan, 0, 0, false));
                assertTrue(nan.allclose(nan, 0, 0, true));
                assertThrows(DTypeException.class, () -> a.allclose(b, 0, 0, false));
            }
        }
    }

    @Test
    void advancedIndexing() throws CTensorException {
        try (Tensor t = Tensor.of(ViewsTest.range(6), 2, 3); Tensor idx = Tensor.of(new long[] {2, 0, -1});
             Tensor g = t.indexGather(new long[] {1}, idx)) {
            assertArrayEquals(new long[] {2, 3}, g.shape());
            assertArrayEquals(new double[] {2, 0, 2, 5, 3, 5}, g.toDoubleArray());
            try (Tensor v = Tensor.scalar(-1.0); Tensor i0 = Tensor.of(new long[] {1})) {
                t.indexPut(new long[] {0}, v, i0);
                assertArrayEquals(new double[] {0, 1, 2, -1, -1, -1}, t.toDoubleArray());
            }
            try (Tensor nz = t.nonzero()) {
                assertArrayEquals(new long[] {5, 2}, nz.shape());
                assertArrayEquals(new long[] {0, 1, 0, 2, 1, 0, 1, 1, 1, 2}, nz.toLongArray());
            }
            try (Tensor bad = Tensor.of(new long[] {3})) {
                assertThrows(BoundsException.class, () -> t.indexGather(new long[] {1}, bad));
            }
        }
        try (Tensor z = Tensor.scalarComplex(1, 2); Tensor c = z.conj(); Tensor cp = z.conjPhysical()) {
            assertEquals(DType.COMPLEX128, c.dtype());
            assertArrayEquals(new double[] {1, -2}, c.data().toArray(JAVA_DOUBLE));
            assertArrayEquals(new double[] {1, -2}, cp.data().toArray(JAVA_DOUBLE));
        }
    }
}
