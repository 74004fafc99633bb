package dev.ctensor;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Creation, inspection, views, copies and casts, each checked by reading the C data directly. */
class ViewsTest {
    static double[] range(int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = i;
        }
        return v;
    }

    /** The element at index, read from the tensor's data segment with its strides. */
    static double at(Tensor t, long... index) throws CTensorException {
        MemorySegment d = t.data();
        long off = t.byteOffset(index);
        return switch (t.dtype()) {
            case FLOAT64 -> d.get(JAVA_DOUBLE, off);
            case FLOAT32 -> d.get(JAVA_FLOAT, off);
            case INT64 -> d.get(JAVA_LONG, off);
            case INT32 -> d.get(JAVA_INT, off);
            default -> throw new AssertionError("dtype " + t.dtype());
        };
    }

    @Test
    void creationAndInspection() throws CTensorException {
        try (Tensor z = Tensor.zeros(DType.FLOAT32, 2, 3); Tensor e = Tensor.empty(DType.INT16, 4)) {
            assertArrayEquals(new long[] {2, 3}, z.shape());
            assertArrayEquals(new long[] {3, 1}, z.stride());
            assertEquals(DType.FLOAT32, z.dtype());
            assertEquals(6, z.numel());
            assertEquals(2, z.ndim());
            assertEquals(3, z.size(-1));
            assertTrue(z.isContiguous());
            assertFalse(z.isReadOnly());
            assertEquals(0, z.storageOffset());
            assertEquals(1, z.refcount());
            assertArrayEquals(new int[] {1, 0}, z.device());
            assertEquals(24, z.data().byteSize());
            for (float f : z.data().toArray(JAVA_FLOAT)) {
                assertEquals(0f, f);
            }
            assertEquals(8, e.data().byteSize());
            try (Storage s = z.storage()) {
                assertEquals(24, s.nbytes());
                assertEquals(2, s.refcount());
            }
        }
        try (Tensor s0 = Tensor.zeros(DType.FLOAT64)) {
            assertEquals(0, s0.ndim());
            assertEquals(1, s0.numel());
        }
    }

    @Test
    void fromDataCopies() throws CTensorException {
        double[] v = range(6);
        try (Tensor t = Tensor.of(v, 2, 3)) {
            v[0] = 99;
            assertArrayEquals(range(6), t.data().toArray(JAVA_DOUBLE));
            assertEquals(5.0, at(t, 1, 2));
        }
        try (Tensor f = Tensor.of(new float[] {1.5f, 2.5f}); Tensor l = Tensor.of(new long[] {7, -8});
             Tensor i = Tensor.of(new int[] {3, 4, 5, 6}, 2, 2)) {
            assertEquals(DType.FLOAT32, f.dtype());
            assertArrayEquals(new float[] {1.5f, 2.5f}, f.data().toArray(JAVA_FLOAT));
            assertArrayEquals(new long[] {7, -8}, l.data().toArray(JAVA_LONG));
            assertEquals(6.0, at(i, 1, 1));
        }
        assertThrows(IllegalArgumentException.class, () -> Tensor.fromData(MemorySegment.ofArray(new byte[3]),
                DType.FLOAT32, 1));
    }

    @Test
    void viewFamily() throws CTensorException {
        try (Tensor t = Tensor.of(range(24), 2, 3, 4)) {
            try (Tensor tr = t.transpose(0, 2)) {
                assertArrayEquals(new long[] {4, 3, 2}, tr.shape());
                assertArrayEquals(new long[] {1, 4, 12}, tr.stride());
                assertEquals(1 * 1 + 2 * 4 + 1 * 12, at(tr, 1, 2, 1));
                assertFalse(tr.isContiguous());
                assertEquals(1, t.refcount()); // a view holds the storage, not t
            }
            try (Tensor p = t.permute(2, 0, 1)) {
                assertArrayEquals(new long[] {4, 2, 3}, p.shape());
                assertEquals(12 + 2 * 4 + 3, at(p, 3, 1, 2));
            }
            try (Tensor s = t.slice(2, Long.MAX_VALUE, Long.MIN_VALUE, -1)) {
                assertArrayEquals(new long[] {2, 3, 4}, s.shape());
                assertArrayEquals(new long[] {12, 4, -1}, s.stride());
                assertEquals(3, s.storageOffset());
                assertEquals(3, at(s, 0, 0, 0));
                assertEquals(20, at(s, 1, 2, 3));
                // the data segment spans exactly the addressed bytes: 24 doubles
                assertEquals(24 * 8, s.data().byteSize());
            }
            try (Tensor sel = t.select(1, -1); Tensor n = t.narrow(2, 1, 2)) {
                assertArrayEquals(new long[] {2, 4}, sel.shape());
                assertEquals(12 + 8 + 3, at(sel, 1, 3));
                assertArrayEquals(new long[] {2, 3, 2}, n.shape());
                assertEquals(12 + 4 + 2, at(n, 1, 1, 1));
            }
            try (Tensor v = t.view(4, -1); Tensor r = t.reshape(-1); Tensor f = t.flatten(1, 2)) {
                assertArrayEquals(new long[] {4, 6}, v.shape());
                assertEquals(13, at(v, 2, 1));
                assertArrayEquals(new long[] {24}, r.shape());
                assertArrayEquals(new long[] {2, 12}, f.shape());
            }
            try (Tensor u = t.unsqueeze(0); Tensor sq = u.squeeze(); Tensor sq0 = u.squeeze(0)) {
                assertArrayEquals(new long[] {1, 2, 3, 4}, u.shape());
                assertArrayEquals(new long[] {2, 3, 4}, sq.shape());
                assertArrayEquals(new long[] {2, 3, 4}, sq0.shape());
            }
            try (Tensor a = t.asStrided(new long[] {2, 2}, new long[] {1, 2}, 5)) {
                assertEquals(5 + 1 + 2, at(a, 1, 1));
            }
            try (Tensor ix = t.index(Index.at(1), Index.ELLIPSIS, Index.slice(0, Index.END, 2), Index.NEWAXIS)) {
                assertArrayEquals(new long[] {3, 2, 1}, ix.shape());
                assertEquals(12 + 4 * 2 + 2, at(ix, 2, 1, 0));
            }
            try (Tensor b = t.index(Index.bool(false))) {
                assertArrayEquals(new long[] {0, 2, 3, 4}, b.shape());
                assertEquals(0, b.data().byteSize());
            }
            StrideException se = assertThrows(StrideException.class, () -> {
                try (Tensor tr = t.transpose(0, 1)) {
                    tr.view(-1).close();
                }
            });
            assertEquals(Status.STRIDE, se.status());
            assertThrows(BoundsException.class, () -> t.select(0, 2));
            assertThrows(BoundsException.class, () -> t.asStrided(new long[] {25}, null, 0));
            assertThrows(ShapeException.class, () -> t.view(5, -1));
        }
        try (Tensor col = Tensor.of(new double[] {1, 2, 3}, 3, 1); Tensor ex = col.expand(3, 4);
             Tensor bt = col.broadcastTo(2, 3, 2)) {
            assertArrayEquals(new long[] {1, 0}, ex.stride());
            assertEquals(3.0, at(ex, 2, 3));
            assertArrayEquals(new long[] {2, 3, 2}, bt.shape());
            assertEquals(24, ex.data().byteSize());
        }
        try (Tensor i = Tensor.of(new int[] {1, 2}); Tensor asF = i.viewAs(DType.FLOAT32)) {
            assertEquals(Float.intBitsToFloat(2), at(asF, 1));
        }
    }

    @Test
    void experimentalViews() throws CTensorException {
        try (Tensor t = Tensor.of(range(12), 3, 4)) {
            try (Tensor d = t.diagonal(1, 0, 1)) {
                assertArrayEquals(new long[] {3}, d.shape());
                assertArrayEquals(new double[] {1, 6, 11}, d.toDoubleArray());
            }
            try (Tensor u = t.unfold(1, 2, 2)) {
                assertArrayEquals(new long[] {3, 2, 2}, u.shape());
                assertEquals(7.0, at(u, 1, 1, 1));
            }
            try (Tensor m = t.movedim(new long[] {0}, new long[] {1}); Tensor uf = t.unflatten(1, 2, 2);
                 Tensor al = t.atleast(3)) {
                assertArrayEquals(new long[] {4, 3}, m.shape());
                assertArrayEquals(new long[] {3, 2, 2}, uf.shape());
                assertEquals(3, al.ndim());
            }
            List<Tensor> parts = t.split(3, 1);
            assertEquals(2, parts.size());
            assertArrayEquals(new long[] {3, 1}, parts.get(1).shape());
            assertEquals(7.0, at(parts.get(1), 1, 0));
            parts.forEach(Tensor::close);
            List<Tensor> ws = t.splitWithSizes(new long[] {1, 3}, 1);
            assertArrayEquals(new long[] {3, 3}, ws.get(1).shape());
            ws.forEach(Tensor::close);
            List<Tensor> ch = t.chunk(2, 0);
            assertEquals(2, ch.size());
            assertArrayEquals(new long[] {1, 4}, ch.get(1).shape());
            ch.forEach(Tensor::close);
            List<Tensor> ts = t.tensorSplit(3, 1);
            assertArrayEquals(new long[] {3, 2}, ts.get(0).shape());
            ts.forEach(Tensor::close);
            List<Tensor> at = t.tensorSplitAt(new long[] {1, 3}, 1);
            assertEquals(3, at.size());
            assertArrayEquals(new long[] {3, 2}, at.get(1).shape());
            at.forEach(Tensor::close);
            try (Tensor row = Tensor.of(new double[] {1, 2, 3, 4})) {
                List<Tensor> bc = t.broadcastWith(row);
                assertArrayEquals(new long[] {3, 4}, bc.get(1).shape());
                assertArrayEquals(new long[] {0, 1}, bc.get(1).stride());
                bc.forEach(Tensor::close);
            }
            try (Tensor el = t.emptyLike(DType.INT32, true); Tensor zl = t.zerosLike(DType.INT64, false)) {
                assertArrayEquals(new long[] {3, 4}, el.shape());
                assertEquals(DType.INT32, el.dtype());
                assertArrayEquals(new long[12], zl.toLongArray());
            }
        }
    }

    @Test
    void copiesAndCasts() throws CTensorException {
        try (Tensor t = Tensor.of(new double[] {-1.5, 2.7, 300.9, Double.NaN}); Tensor tr = t.view(2, 2);
             Tensor tt = tr.transpose(0, 1)) {
            try (Tensor c = tt.contiguous(); Tensor same = t.contiguous()) {
                assertTrue(c.isContiguous());
                assertArrayEquals(new long[] {2, 1}, c.stride());
                assertEquals(300.9, at(c, 0, 1));
                assertEquals(2, t.refcount()); // t and same: contiguous gave t itself
            }
            try (Tensor cl = tt.copy()) {
                assertTrue(cl.isContiguous());
                assertEquals(2.7, at(cl, 1, 0));
            }
            try (Tensor i8 = t.to(DType.INT8, CopyMode.IF_NEEDED); Tensor u8 = t.to(DType.UINT8, CopyMode.ALWAYS)) {
                // float -> integer truncates toward zero, saturates, NaN gives 0
                byte[] b = i8.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                assertArrayEquals(new byte[] {-1, 2, 127, 0}, b);
                byte[] ub = u8.data().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                assertArrayEquals(new byte[] {0, 2, (byte) 255, 0}, ub);
            }
            try (Tensor shared = t.to(DType.FLOAT64, CopyMode.NEVER)) {
                assertEquals(t.data().address(), shared.data().address());
            }
            CopyException ce = assertThrows(CopyException.class, () -> t.to(DType.FLOAT32, CopyMode.NEVER));
            assertFalse(ce.getMessage().isEmpty());
            try (Tensor dst = Tensor.zeros(DType.INT32, 3, 2); Tensor row = Tensor.of(new double[] {7.9, -2.1})) {
                dst.copyFrom(row);
                assertArrayEquals(new long[] {7, -2, 7, -2, 7, -2}, dst.toLongArray());
                dst.fill(4.99);
                assertArrayEquals(new long[] {4, 4, 4, 4, 4, 4}, dst.toLongArray());
                try (Tensor ex = row.expand(3, 2)) {
                    assertThrows(OverlapException.class, () -> ex.copyFrom(dst));
                }
                assertThrows(ShapeException.class, () -> row.copyFrom(dst));
            }
        }
    }
}
