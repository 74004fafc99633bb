package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The unary family, clamp, where, argmax/argmin, cumsum/cumprod and softmax: C results read
 * back from their data and compared with Java's Math functions or with loops computed here.
 */
class ElementwiseTest {
    /** Inputs for every op: signed zeros, halves (rounding), the domains' edges, NaN, infinities. */
    private static final double[] X = {-2.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 3.0, 10.0,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

    /** erf by its Taylor series (|x| &lt; 6; beyond, erf is +-1 in float64), cancellation under 1e-13. */
    static double erf(double x) {
        if (Double.isNaN(x) || Math.abs(x) >= 6) {
            return Double.isNaN(x) ? x : Math.signum(x);
        }
        double sum = 0;
        double term = x; // (-1)^n x^(2n+1) / n!
        for (int n = 0; n < 200; n++) {
            sum += term / (2 * n + 1);
            term *= -x * x / (n + 1);
        }
        return 2 / Math.sqrt(Math.PI) * sum;
    }

    private static double trunc(double x) {
        return x < 0 ? Math.ceil(x) : Math.floor(x);
    }

    private static double bool(boolean b) {
        return b ? 1 : 0;
    }

    /** Each float op's value by Java's Math (or its definition), for float64 input. */
    private static final Map<UnaryOp, DoubleUnaryOperator> EXPECTED = new EnumMap<>(UnaryOp.class);

    static {
        EXPECTED.put(UnaryOp.NEG, x -> -x);
        EXPECTED.put(UnaryOp.ABS, Math::abs);
        EXPECTED.put(UnaryOp.EXP, Math::exp);
        EXPECTED.put(UnaryOp.EXP2, x -> Math.pow(2, x));
        EXPECTED.put(UnaryOp.EXPM1, Math::expm1);
        EXPECTED.put(UnaryOp.LOG, Math::log);
        EXPECTED.put(UnaryOp.LOG2, x -> Math.log(x) / Math.log(2));
        EXPECTED.put(UnaryOp.LOG10, Math::log10);
        EXPECTED.put(UnaryOp.LOG1P, Math::log1p);
        EXPECTED.put(UnaryOp.SQRT, Math::sqrt);
        EXPECTED.put(UnaryOp.RSQRT, x -> 1 / Math.sqrt(x));
        EXPECTED.put(UnaryOp.SIN, Math::sin);
        EXPECTED.put(UnaryOp.COS, Math::cos);
        EXPECTED.put(UnaryOp.TAN, Math::tan);
        EXPECTED.put(UnaryOp.ASIN, Math::asin);
        EXPECTED.put(UnaryOp.ACOS, Math::acos);
        EXPECTED.put(UnaryOp.ATAN, Math::atan);
        EXPECTED.put(UnaryOp.SINH, Math::sinh);
        EXPECTED.put(UnaryOp.COSH, Math::cosh);
        EXPECTED.put(UnaryOp.TANH, Math::tanh);
        EXPECTED.put(UnaryOp.SIGMOID, x -> 1 / (1 + Math.exp(-x)));
        EXPECTED.put(UnaryOp.RELU, x -> x < 0 ? 0.0 : x);
        EXPECTED.put(UnaryOp.GELU, x -> x / 2 * (1 + erf(x / Math.sqrt(2))));
        EXPECTED.put(UnaryOp.ERF, ElementwiseTest::erf);
        EXPECTED.put(UnaryOp.FLOOR, Math::floor);
        EXPECTED.put(UnaryOp.CEIL, Math::ceil);
        EXPECTED.put(UnaryOp.ROUND, Math::rint);
        EXPECTED.put(UnaryOp.TRUNC, ElementwiseTest::trunc);
        EXPECTED.put(UnaryOp.FRAC, x -> x - trunc(x));
        EXPECTED.put(UnaryOp.SIGN, x -> Double.isNaN(x) ? 0 : Math.signum(x));
        EXPECTED.put(UnaryOp.RECIPROCAL, x -> 1 / x);
        EXPECTED.put(UnaryOp.SQUARE, x -> x * x);
        EXPECTED.put(UnaryOp.ISNAN, x -> bool(Double.isNaN(x)));
        EXPECTED.put(UnaryOp.ISINF, x -> bool(Double.isInfinite(x)));
        EXPECTED.put(UnaryOp.ISFINITE, x -> bool(Double.isFinite(x)));
        EXPECTED.put(UnaryOp.LOGICAL_NOT, x -> bool(x == 0));
    }

    /** A new tensor of dtype d holding v (converted). */
    private static Tensor cast(int[] v, DType d) throws CTensorException {
        try (Tensor t = Tensor.of(v)) {
            return t.to(d, CopyMode.ALWAYS);
        }
    }

    private static boolean predicate(UnaryOp op) {
        return op == UnaryOp.ISNAN || op == UnaryOp.ISINF || op == UnaryOp.ISFINITE || op == UnaryOp.LOGICAL_NOT;
    }

    /** The named method of an op: EXP -> exp(), LOGICAL_NOT -> logicalNot(). */
    private static Method named(UnaryOp op) throws NoSuchMethodException {
        String[] words = op.name().toLowerCase().split("_");
        StringBuilder name = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return Tensor.class.getMethod(name.toString());
    }

    /** op(t) by its named method (the named C function); rethrows the C failure as it is. */
    private static Tensor callNamed(UnaryOp op, Tensor t) throws Exception {
        try {
            return (Tensor) named(op).invoke(t);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    private static void assertClose(double expected, double got, double rel, String what) {
        // NaN and infinities must match exactly (JUnit compares their bits first)
        assertEquals(expected, got, Double.isFinite(expected) ? rel * Math.max(1, Math.abs(expected)) : 0, what);
    }

    @Test
    void everyOpHasANamedMethodAndACConstant() throws Exception {
        long constants = Arrays.stream(Native.class.getDeclaredFields()).map(Field::getName)
                .filter(n -> n.startsWith("TENSOR_UOP_")).count();
        assertEquals(constants, UnaryOp.values().length);
        for (UnaryOp op : UnaryOp.values()) {
            assertEquals(Native.class.getDeclaredField("TENSOR_UOP_" + op.name()).getInt(null), op.code());
            assertEquals(Tensor.class, named(op).getReturnType(), op.name());
        }
    }

    @Test
    void everyFloatOpAgainstJavaMath() throws Exception {
        assertEquals(UnaryOp.values().length - 1, EXPECTED.size()); // all but bitwise_not, for integers
        try (Tensor x = Tensor.of(X)) {
            for (Map.Entry<UnaryOp, DoubleUnaryOperator> e : EXPECTED.entrySet()) {
                UnaryOp op = e.getKey();
                try (Tensor byCode = x.unary(op); Tensor byName = callNamed(op, x)) {
                    DType want = predicate(op) ? DType.BOOL : DType.FLOAT64;
                    assertEquals(want, byCode.dtype(), op.name());
                    assertEquals(want, byName.dtype(), op.name());
                    assertArrayEquals(byCode.data().toArray(JAVA_BYTE), byName.data().toArray(JAVA_BYTE), op.name());
                    double[] got = byCode.toDoubleArray();
                    for (int i = 0; i < X.length; i++) {
                        assertClose(e.getValue().applyAsDouble(X[i]), got[i], 1e-12, op.name() + "(" + X[i] + ")");
                    }
                }
            }
        }
    }

    @Test
    void expLogSqrtOnStridedFloat64Within1e12() throws CTensorException {
        Random rnd = new Random(25);
        double[] v = new double[20 * 50];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextDouble() * 50 + 1e-3;
        }
        try (Tensor m = Tensor.of(v, 20, 50); Tensor t = m.transpose(0, 1); Tensor e = t.exp(); Tensor l = t.log();
             Tensor s = t.sqrt()) {
            assertArrayEquals(new long[] {50, 20}, e.shape());
            double[] ev = e.toDoubleArray();
            double[] lv = l.toDoubleArray();
            double[] sv = s.toDoubleArray();
            for (int i = 0; i < 50; i++) {
                for (int j = 0; j < 20; j++) {
                    double x = v[j * 50 + i];
                    int k = i * 20 + j;
                    assertEquals(Math.exp(x), ev[k], 1e-12 * Math.exp(x));
                    assertEquals(Math.log(x), lv[k], 1e-12 * Math.max(1, Math.abs(Math.log(x))));
                    assertEquals(Math.sqrt(x), sv[k], 1e-12 * Math.sqrt(x));
                }
            }
        }
        assertEquals(0.5204998778130465, erf(0.5), 1e-15); // the reference erf against known values
        assertEquals(0.8427007929497149, erf(1.0), 1e-15);
        assertEquals(-0.9999779095030014, erf(-3.0), 1e-13);
    }

    @Test
    void dtypeRules() throws Exception {
        int[] iv = {-3, 0, 1, 7, Integer.MAX_VALUE};
        try (Tensor i = Tensor.of(iv); Tensor e = i.exp(); Tensor nan = i.isnan(); Tensor r = i.relu();
             Tensor f = i.floor(); Tensor bn = i.bitwiseNot(); Tensor sq = i.square()) {
            assertEquals(DType.FLOAT32, e.dtype());
            float[] ef = e.toFloatArray();
            for (int k = 0; k < 4; k++) {
                assertEquals((float) Math.exp(iv[k]), ef[k], Math.ulp((float) Math.exp(iv[k])), "exp " + iv[k]);
            }
            assertEquals(DType.BOOL, nan.dtype());
            assertArrayEquals(new byte[5], nan.data().toArray(JAVA_BYTE));
            assertEquals(DType.INT32, r.dtype());
            assertEquals(DType.INT32, f.dtype());
            assertEquals(DType.INT32, bn.dtype());
            assertEquals(DType.INT32, sq.dtype());
            long[] rv = r.toLongArray();
            long[] bv = bn.toLongArray();
            long[] sv = sq.toLongArray();
            for (int k = 0; k < iv.length; k++) {
                assertEquals(Math.max(iv[k], 0), rv[k]);
                assertEquals(~iv[k], bv[k]);
                assertEquals(iv[k] * iv[k], sv[k], "square wraps as Java's int does"); // MAX_VALUE^2 wraps to 1
            }
        }
        try (Tensor f = Tensor.of(new float[] {Float.NaN, 1, Float.POSITIVE_INFINITY}); Tensor n = f.isnan();
             Tensor inf = f.isinf(); Tensor fin = f.isfinite()) {
            assertEquals(DType.BOOL, n.dtype());
            assertArrayEquals(new byte[] {1, 0, 0}, n.data().toArray(JAVA_BYTE));
            assertArrayEquals(new byte[] {0, 0, 1}, inf.data().toArray(JAVA_BYTE));
            assertArrayEquals(new byte[] {0, 1, 0}, fin.data().toArray(JAVA_BYTE));
        }
        try (Tensor b = cast(new int[] {0, 1, 2}, DType.BOOL); Tensor bn = b.bitwiseNot();
             Tensor ln = b.logicalNot(); Tensor sq = b.square(); Tensor sg = b.sign(); Tensor f = Tensor.of(X)) {
            assertEquals(DType.BOOL, bn.dtype());
            assertArrayEquals(new byte[] {1, 0, 0}, bn.data().toArray(JAVA_BYTE));
            assertArrayEquals(new byte[] {1, 0, 0}, ln.data().toArray(JAVA_BYTE));
            assertEquals(DType.INT64, sq.dtype());
            assertEquals(DType.BOOL, sg.dtype());
            assertThrows(DTypeException.class, b::neg);
            assertThrows(DTypeException.class, b::gelu);
            assertThrows(DTypeException.class, f::bitwiseNot);
            assertThrows(DTypeException.class, () -> f.unary(UnaryOp.BITWISE_NOT));
        }
        // every op, on int32 and bool too: the named function and tensor_unary agree, failures included
        for (DType d : new DType[] {DType.INT32, DType.BOOL, DType.FLOAT32}) {
            try (Tensor src = cast(new int[] {-2, 0, 3}, d)) {
                for (UnaryOp op : UnaryOp.values()) {
                    Exception byCodeFailure = null;
                    Tensor byCode = null;
                    try {
                        byCode = src.unary(op);
                    } catch (CTensorException e) {
                        byCodeFailure = e;
                    }
                    if (byCodeFailure != null) {
                        Class<? extends Exception> kind = byCodeFailure.getClass();
                        assertEquals(DTypeException.class, kind, op + " on " + d);
                        assertThrows(kind, () -> callNamed(op, src), op + " on " + d);
                        continue;
                    }
                    try (Tensor c = byCode; Tensor n = callNamed(op, src)) {
                        assertEquals(c.dtype(), n.dtype(), op + " on " + d);
                        assertArrayEquals(c.data().toArray(JAVA_BYTE), n.data().toArray(JAVA_BYTE), op + " on " + d);
                    }
                }
            }
        }
    }

    @Test
    void unaryInto() throws CTensorException {
        try (Tensor a = Tensor.of(new double[] {0, 1, 2}); Tensor f32 = Tensor.zeros(DType.FLOAT32, 3);
             Tensor i64 = Tensor.zeros(DType.INT64, 3); Tensor wrong = Tensor.zeros(DType.FLOAT64, 4)) {
            f32.unaryInto(UnaryOp.SQRT, a);
            assertArrayEquals(new float[] {0, 1, (float) Math.sqrt(2)}, f32.toFloatArray());
            a.unaryInto(UnaryOp.EXP, a); // in place, a.exp_()
            assertArrayEquals(new double[] {1, Math.E, Math.exp(2)}, a.toDoubleArray(), 1e-12 * Math.exp(2));
            assertThrows(DTypeException.class, () -> i64.unaryInto(UnaryOp.EXP, a)); // float into int64
            i64.unaryInto(UnaryOp.ISNAN, a); // bool can be cast to int64
            assertArrayEquals(new long[] {0, 0, 0}, i64.toLongArray());
            assertThrows(ShapeException.class, () -> wrong.unaryInto(UnaryOp.NEG, a));
        }
    }

    @Test
    void clamp() throws CTensorException {
        double[] v = {Double.NaN, -1, 0.5, 5, Double.NEGATIVE_INFINITY};
        try (Tensor a = Tensor.of(v); Tensor c = a.clamp(0.0, 2.0); Tensor lo = a.clampMin(0.0);
             Tensor hi = a.clampMax(2.0); Tensor swapped = a.clamp(3.0, 1.0)) {
            double[] cv = c.toDoubleArray();
            double[] lv = lo.toDoubleArray();
            double[] hv = hi.toDoubleArray();
            double[] sv = swapped.toDoubleArray();
            for (int i = 0; i < v.length; i++) { // Java's min/max propagate NaN as torch.clamp does
                assertEquals(Math.min(Math.max(v[i], 0), 2), cv[i]);
                assertEquals(Math.max(v[i], 0), lv[i]);
                assertEquals(Math.min(v[i], 2), hv[i]);
                assertEquals(Math.min(Math.max(v[i], 3), 1), sv[i]); // min > max gives max
            }
        }
        try (Tensor a = Tensor.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3);
             Tensor min = Tensor.of(new double[] {Double.NaN, 2.5, 0});
             Tensor c = a.clamp(min, null); Tensor nan = Tensor.scalar(Double.NaN); Tensor passed = a.clamp(nan, null);
             Tensor both = a.clamp(nan, nan)) {
            assertArrayEquals(new long[] {2, 3}, c.shape());
            double[] cv = c.toDoubleArray();
            double[] av = a.toDoubleArray();
            double[] mv = min.toDoubleArray();
            double[] bv = both.toDoubleArray();
            for (int i = 0; i < 6; i++) {
                assertEquals(Math.max(av[i], mv[i % 3]), cv[i]); // a NaN bound gives NaN
                assertTrue(Double.isNaN(bv[i]));
            }
            assertArrayEquals(av, passed.toDoubleArray()); // a NaN wrapped number as the only bound: passed over
            assertThrows(InvalidArgumentException.class, () -> a.clamp(null, null));
            try (Tensor three = Tensor.of(new double[] {1, 1, 1, 1})) {
                assertThrows(ShapeException.class, () -> a.clamp(three, null));
            }
        }
        try (Tensor i8 = cast(new int[] {-9, 3, 9}, DType.INT8);
             Tensor ci = i8.clamp(0L, 5L); Tensor cf = i8.clamp(0.5, 2.5); Tensor cm = i8.clampMax(4L);
             Tensor cn = i8.clampMin(-1L); Tensor z = Tensor.scalarComplex(1, 1)) {
            assertEquals(DType.INT8, ci.dtype());
            assertArrayEquals(new long[] {0, 3, 5}, ci.toLongArray());
            assertEquals(DType.FLOAT32, cf.dtype());
            assertArrayEquals(new double[] {0.5, 2.5, 2.5}, cf.toDoubleArray());
            assertArrayEquals(new long[] {-9, 3, 4}, cm.toLongArray());
            assertArrayEquals(new long[] {-1, 3, 9}, cn.toLongArray());
            assertThrows(DTypeException.class, () -> z.clamp(0.0, 1.0));
            try (Tensor lo = Tensor.scalar(1L); Tensor hi = Tensor.scalar(2L); Tensor minus4 = Tensor.scalar(-4L)) {
                i8.clampInto(i8, lo, hi); // in place, clamp_
                assertArrayEquals(new long[] {1, 2, 2}, i8.toLongArray());
                i8.clampInto(i8, null, minus4);
                assertArrayEquals(new long[] {-4, -4, -4}, i8.toLongArray());
                try (Tensor f = Tensor.of(new double[] {0.5, 1, 2})) {
                    assertThrows(DTypeException.class, () -> i8.clampInto(f, lo, hi)); // float into int8
                }
            }
        }
    }

    @Test
    void where() throws CTensorException {
        double[] v = {-1.5, 2, -0.25, 4, Double.NaN, 0};
        try (Tensor a = Tensor.of(v, 2, 3); Tensor zero = Tensor.scalar(0.0); Tensor cond = a.gt(zero);
             Tensor w = Tensor.where(cond, a, zero)) {
            assertEquals(DType.FLOAT64, w.dtype());
            double[] wv = w.toDoubleArray();
            for (int i = 0; i < v.length; i++) {
                assertEquals(v[i] > 0 ? v[i] : 0, wv[i]);
            }
            try (Tensor rows = cast(new int[] {1, 0}, DType.UINT8).view(2, 1);
                 Tensor b = Tensor.of(new long[] {7, 8, 9}); Tensor minus1 = Tensor.scalar(-1L);
                 Tensor m = Tensor.where(rows, b, minus1)) {
                assertArrayEquals(new long[] {2, 3}, m.shape());
                assertEquals(DType.INT64, m.dtype());
                assertArrayEquals(new long[] {7, 8, 9, -1, -1, -1}, m.toLongArray());
                try (Tensor dst = Tensor.zeros(DType.FLOAT32, 2, 3)) {
                    dst.whereInto(rows, a, b);
                    assertArrayEquals(new double[] {-1.5, 2, -0.25, 7, 8, 9}, dst.toDoubleArray());
                }
            }
            try (Tensor i = Tensor.of(new int[] {1, 0, 1})) {
                assertThrows(DTypeException.class, () -> Tensor.where(i, a, zero)); // cond must be bool or uint8
            }
        }
    }

    /** argmax/argmin along dim 0 or 1 of a [r, c] array by a loop: the first extreme wins. */
    private static long[] argLoop(double[] v, int r, int c, int dim, boolean max) {
        int outer = dim == 0 ? c : r;
        int inner = dim == 0 ? r : c;
        long[] out = new long[outer];
        for (int o = 0; o < outer; o++) {
            int best = 0;
            for (int k = 1; k < inner; k++) {
                double x = v[dim == 0 ? k * c + o : o * c + k];
                double b = v[dim == 0 ? best * c + o : o * c + best];
                if (max ? x > b : x < b) {
                    best = k;
                }
            }
            out[o] = best;
        }
        return out;
    }

    @Test
    void argmaxArgmin() throws CTensorException {
        try (Tensor t = Tensor.of(new double[] {1, 5, 3, 7, 2, 7}, 2, 3); Tensor m1 = t.argmax(1, false);
             Tensor m0 = t.argmax(0, false); Tensor all = t.argmax(); Tensor keep = t.argmax(-1, true);
             Tensor allKeep = t.argmax(Tensor.ALL_DIMS, true); Tensor n1 = t.argmin(1, false); Tensor nAll = t.argmin()) {
            assertEquals(DType.INT64, m1.dtype());
            assertArrayEquals(new long[] {1, 0}, m1.toLongArray()); // the first of two 7s
            assertArrayEquals(new long[] {1, 0, 1}, m0.toLongArray());
            assertEquals(0, all.ndim());
            assertEquals(3, all.itemLong());
            assertArrayEquals(new long[] {2, 1}, keep.shape());
            assertArrayEquals(new long[] {1, 1}, allKeep.shape());
            assertEquals(3, allKeep.itemLong());
            assertArrayEquals(new long[] {0, 1}, n1.toLongArray());
            assertEquals(0, nAll.itemLong());
        }
        Random rnd = new Random(26);
        double[] v = new double[7 * 11];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextInt(5); // many ties
        }
        try (Tensor t = Tensor.of(v, 7, 11)) {
            for (int dim = 0; dim < 2; dim++) {
                try (Tensor mx = t.argmax(dim, false); Tensor mn = t.argmin(dim, false);
                     Tensor dst = Tensor.zeros(DType.INT64, dim == 0 ? 11 : 7)) {
                    assertArrayEquals(argLoop(v, 7, 11, dim, true), mx.toLongArray());
                    assertArrayEquals(argLoop(v, 7, 11, dim, false), mn.toLongArray());
                    dst.argmaxInto(t, dim, false);
                    assertArrayEquals(argLoop(v, 7, 11, dim, true), dst.toLongArray());
                    dst.argminInto(t, dim, false);
                    assertArrayEquals(argLoop(v, 7, 11, dim, false), dst.toLongArray());
                }
            }
        }
        try (Tensor n = Tensor.of(new double[] {1, Double.NaN, 3, Double.NaN}); Tensor mx = n.argmax();
             Tensor mn = n.argmin(); Tensor b = cast(new int[] {1, 0}, DType.BOOL);
             Tensor empty = Tensor.zeros(DType.FLOAT32, 0); Tensor f = Tensor.zeros(DType.FLOAT32)) {
            assertEquals(1, mx.itemLong()); // NaN is larger than every number: the first NaN wins
            assertEquals(1, mn.itemLong()); // and smaller, for argmin
            assertThrows(DTypeException.class, () -> b.argmax());
            assertThrows(ShapeException.class, () -> empty.argmax());
            assertThrows(InvalidArgumentException.class, () -> n.argmax(1, false));
            assertThrows(DTypeException.class, () -> f.argmaxInto(n, Tensor.ALL_DIMS, false)); // dst must be int64
        }
    }

    @Test
    void cumsumCumprod() throws CTensorException {
        Random rnd = new Random(27);
        double[] v = new double[4 * 5];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextDouble() * 2 - 0.5;
        }
        try (Tensor t = Tensor.of(v, 4, 5)) {
            for (int dim = 0; dim < 2; dim++) {
                try (Tensor s = t.cumsum(dim); Tensor p = t.cumprod(-2 + dim); Tensor dst = Tensor.zeros(DType.FLOAT32, 4, 5)) {
                    double[] sv = s.toDoubleArray();
                    double[] pv = p.toDoubleArray();
                    dst.cumsumInto(t, dim);
                    float[] dv = dst.toFloatArray();
                    int lanes = dim == 0 ? 5 : 4;
                    int length = dim == 0 ? 4 : 5;
                    for (int lane = 0; lane < lanes; lane++) {
                        double sum = 0;
                        double prod = 1;
                        for (int j = 0; j < length; j++) {
                            int k = dim == 0 ? j * 5 + lane : lane * 5 + j;
                            sum += v[k];
                            prod *= v[k];
                            assertEquals(sum, sv[k], 1e-12, "cumsum dim " + dim);
                            assertEquals(prod, pv[k], 1e-12, "cumprod dim " + dim);
                            assertEquals((float) sum, dv[k], 1e-6, "cumsumInto dim " + dim);
                        }
                    }
                    dst.cumprodInto(t, dim);
                    assertArrayEquals(p.toFloatArray(), dst.toFloatArray());
                }
            }
        }
        try (Tensor i = Tensor.of(new int[] {1, 2, 3, 4}); Tensor s = i.cumsum(0); Tensor p = i.cumprod(0)) {
            assertEquals(DType.INT64, s.dtype());
            assertArrayEquals(new long[] {1, 3, 6, 10}, s.toLongArray());
            assertArrayEquals(new long[] {1, 2, 6, 24}, p.toLongArray());
            assertThrows(InvalidArgumentException.class, () -> i.cumsum(1));
            try (Tensor i32 = Tensor.zeros(DType.INT32, 4); Tensor f = Tensor.of(new double[] {0.5, 1, 1, 1})) {
                i32.cumsumInto(i, 0); // int64 into int32: castable
                assertArrayEquals(new long[] {1, 3, 6, 10}, i32.toLongArray());
                assertThrows(DTypeException.class, () -> i32.cumsumInto(f, 0)); // float into int32
            }
        }
    }

    @Test
    void softmaxLogSoftmax() throws CTensorException {
        Random rnd = new Random(28);
        double[] v = new double[3 * 6];
        for (int i = 0; i < v.length; i++) {
            v[i] = rnd.nextGaussian() * 4;
        }
        v[0] = 1000; // no overflow: the max is subtracted
        v[1] = 1001;
        try (Tensor t = Tensor.of(v, 3, 6); Tensor s = t.softmax(1); Tensor ls = t.logSoftmax(-1)) {
            assertEquals(DType.FLOAT64, s.dtype());
            double[] sv = s.toDoubleArray();
            double[] lv = ls.toDoubleArray();
            for (int r = 0; r < 3; r++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < 6; c++) {
                    max = Math.max(max, v[r * 6 + c]);
                }
                double sum = 0;
                for (int c = 0; c < 6; c++) {
                    sum += Math.exp(v[r * 6 + c] - max);
                }
                double total = 0;
                for (int c = 0; c < 6; c++) {
                    int k = r * 6 + c;
                    total += sv[k];
                    assertEquals(Math.exp(v[k] - max) / sum, sv[k], 1e-12);
                    assertEquals(v[k] - max - Math.log(sum), lv[k], 1e-12);
                }
                assertEquals(1.0, total, 1e-12, "row " + r + " sums to 1");
            }
            try (Tensor s0 = t.softmax(0); Tensor col = s0.sum(false, 0); Tensor dst = Tensor.zeros(DType.FLOAT64, 3, 6);
                 Tensor f32 = Tensor.zeros(DType.FLOAT32, 3, 6)) {
                assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1}, col.toDoubleArray(), 1e-12);
                dst.softmaxInto(t, 1);
                assertArrayEquals(sv, dst.toDoubleArray());
                dst.logSoftmaxInto(t, 1);
                assertArrayEquals(lv, dst.toDoubleArray());
                assertThrows(DTypeException.class, () -> f32.softmaxInto(t, 1)); // out= keeps t's dtype
            }
        }
        try (Tensor lane = Tensor.of(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, Double.NaN}, 2, 2);
             Tensor s = lane.softmax(1); Tensor i = Tensor.of(new int[] {1, 2})) {
            double[] sv = s.toDoubleArray();
            assertTrue(Double.isNaN(sv[0]) && Double.isNaN(sv[1]), "a lane of only -inf gives NaN");
            assertTrue(Double.isNaN(sv[2]) && Double.isNaN(sv[3]), "a lane holding NaN gives NaN");
            assertThrows(DTypeException.class, () -> i.softmax(0));
            assertThrows(InvalidArgumentException.class, () -> lane.logSoftmax(2));
        }
    }
}
