package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A strided view onto a {@link Storage} ({@code tensor_t}): dtype, sizes, strides and a
 * storage offset, all in elements, as in PyTorch. Its metadata never changes.
 *
 * <p>This object owns one C reference; every method that returns a Tensor returns a new
 * object owning its own, so views stay valid when the tensor they came from is closed.
 * Close tensors (try-with-resources); a {@link java.lang.ref.Cleaner} releases the ones
 * left unreachable. Every method may run on any thread, also while another thread closes
 * the tensor: the close waits for calls in progress, later calls throw {@link ClosedException}.
 * Failures throw a {@link CTensorException} subclass carrying the library's message.
 */
public final class Tensor extends Resource {
    // Metadata never changes: cached on first use (volatile: safely published to other threads).
    private volatile long[] sizes;
    private volatile long[] strides;
    private volatile DType dtype;

    Tensor(MemorySegment address) {
        super(address, Native::tensor_release, "Tensor");
    }

    // ---- calls -------------------------------------------------------------------------

    @FunctionalInterface
    private interface OnSelf {
        int call(MemorySegment out, MemorySegment self, Arena arena);
    }

    @FunctionalInterface
    private interface OnTwo {
        int call(MemorySegment out, MemorySegment a, MemorySegment b);
    }

    @FunctionalInterface
    private interface Reduction {
        int call(MemorySegment out, MemorySegment t, long ndims, MemorySegment dims, int keepdim);
    }

    private Tensor derive(OnSelf fn) throws CTensorException {
        try (Use u = Use.of(this)) {
            return new Tensor(Call.out((out, a) -> fn.call(out, u.get(0), a)));
        }
    }

    private Tensor binary(Tensor other, OnTwo fn) throws CTensorException {
        try (Use u = Use.of(this, other)) {
            return new Tensor(Call.out((out, a) -> fn.call(out, u.get(0), u.get(1))));
        }
    }

    private Tensor reduce(Reduction fn, long[] dims, boolean keepdim) throws CTensorException {
        return derive((out, t, a) -> fn.call(out, t, dims.length, longs(a, dims), keepdim ? 1 : 0));
    }

    private static MemorySegment longs(Arena arena, long[] values) {
        return values.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_LONG, values);
    }

    private static Tensor[] join(Tensor first, Tensor[] rest) {
        Tensor[] all = new Tensor[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    // ---- creation ----------------------------------------------------------------------

    /**
     * An uninitialised contiguous tensor.
     * @param dtype element type
     * @param sizes its sizes (none: a 0-dim tensor)
     * @return the tensor
     * @throws CTensorException {@link InvalidArgumentException} (negative size), {@link OverflowException}, ...
     */
    public static Tensor empty(DType dtype, long... sizes) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_empty(out, sizes.length, longs(a, sizes), dtype.code())));
    }

    /**
     * A zero-filled contiguous tensor.
     * @param dtype element type
     * @param sizes its sizes
     * @return the tensor
     * @throws CTensorException as {@link #empty}
     */
    public static Tensor zeros(DType dtype, long... sizes) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_zeros(out, sizes.length, longs(a, sizes), dtype.code())));
    }

    /**
     * A new contiguous tensor holding a copy of {@code data} (C order).
     * @param data  numel * itemSize bytes (heap or native)
     * @param dtype element type
     * @param sizes its sizes
     * @return the tensor
     * @throws CTensorException on bad sizes
     * @throws IllegalArgumentException if data has fewer bytes than the tensor needs
     */
    public static Tensor fromData(MemorySegment data, DType dtype, long... sizes) throws CTensorException {
        long n = 1;
        for (long s : sizes) {
            n *= Math.max(s, 0);
        }
        if (data.byteSize() < n * dtype.itemSize()) {
            throw new IllegalArgumentException("fromData: " + data.byteSize() + " bytes for " + n + " elements of "
                    + dtype.torchName());
        }
        MemorySegment src = data;
        return new Tensor(Call.out((out, a) -> {
            MemorySegment p = src.isNative() ? src : a.allocate(src.byteSize(), 16).copyFrom(src);
            return Native.tensor_from_data(out, p, sizes.length, longs(a, sizes), dtype.code());
        }));
    }

    /**
     * @param values elements in C order
     * @param sizes  its sizes (none: 1-D of values.length)
     * @return a new float64 tensor holding a copy of values
     * @throws CTensorException on bad sizes
     */
    public static Tensor of(double[] values, long... sizes) throws CTensorException {
        return fromData(MemorySegment.ofArray(values), DType.FLOAT64, shape(values.length, sizes));
    }

    /**
     * @param values elements in C order
     * @param sizes  its sizes (none: 1-D)
     * @return a new float32 tensor holding a copy of values
     * @throws CTensorException on bad sizes
     */
    public static Tensor of(float[] values, long... sizes) throws CTensorException {
        return fromData(MemorySegment.ofArray(values), DType.FLOAT32, shape(values.length, sizes));
    }

    /**
     * @param values elements in C order
     * @param sizes  its sizes (none: 1-D)
     * @return a new int64 tensor holding a copy of values
     * @throws CTensorException on bad sizes
     */
    public static Tensor of(long[] values, long... sizes) throws CTensorException {
        return fromData(MemorySegment.ofArray(values), DType.INT64, shape(values.length, sizes));
    }

    /**
     * @param values elements in C order
     * @param sizes  its sizes (none: 1-D)
     * @return a new int32 tensor holding a copy of values
     * @throws CTensorException on bad sizes
     */
    public static Tensor of(int[] values, long... sizes) throws CTensorException {
        return fromData(MemorySegment.ofArray(values), DType.INT32, shape(values.length, sizes));
    }

    private static long[] shape(int length, long[] sizes) {
        return sizes.length == 0 ? new long[] {length} : sizes;
    }

    /**
     * A tensor viewing a storage (which gains a reference; the caller keeps its own).
     * @param storage the storage
     * @param dtype   element type
     * @param sizes   sizes in elements
     * @param strides strides in elements, or null for contiguous
     * @param offset  storage offset in elements
     * @return the view
     * @throws CTensorException {@link BoundsException} if the view reaches outside the storage, ...
     */
    public static Tensor fromStorage(Storage storage, DType dtype, long[] sizes, long[] strides, long offset)
            throws CTensorException {
        try (Use u = Use.of(storage)) {
            return new Tensor(Call.out((out, a) -> Native.tensor_from_storage(out, u.get(0), dtype.code(),
                    sizes.length, longs(a, sizes), strides == null ? MemorySegment.NULL : longs(a, strides), offset)));
        }
    }

    /**
     * A 1-D tensor over native memory, without copying (torch.frombuffer): all the
     * segment's elements. The segment stays reachable until ctensor releases the memory;
     * it must come from an automatic or the global arena, or outlive every tensor on it.
     * @param segment  native memory, a multiple of the element size
     * @param dtype    element type
     * @param readOnly whether writes are refused
     * @return the tensor
     * @throws CTensorException {@link InvalidArgumentException} (empty, or not a whole number of elements)
     */
    public static Tensor wrap(MemorySegment segment, DType dtype, boolean readOnly) throws CTensorException {
        return wrapOwned(Storage.requireNative(segment), segment, dtype, readOnly);
    }

    /**
     * A 1-D tensor over a direct buffer's bytes from position to limit, without copying;
     * the buffer stays reachable until ctensor releases the memory.
     * @param buffer   a direct buffer
     * @param dtype    element type
     * @param readOnly whether writes are refused (a read-only buffer always is)
     * @return the tensor
     * @throws CTensorException as {@link #wrap(MemorySegment, DType, boolean)}
     */
    public static Tensor wrap(ByteBuffer buffer, DType dtype, boolean readOnly) throws CTensorException {
        return wrapOwned(Storage.bufferSegment(buffer), buffer, dtype, readOnly || buffer.isReadOnly());
    }

    private static Tensor wrapOwned(MemorySegment segment, Object owner, DType dtype, boolean readOnly)
            throws CTensorException {
        MemorySegment ctx = KeepAlive.hold(owner);
        try {
            return new Tensor(Call.out((out, a) -> Native.tensor_from_buffer(out, segment, segment.byteSize(),
                    dtype.code(), -1, 0, readOnly ? Storage.READONLY : 0, KeepAlive.RELEASE, ctx)));
        } catch (CTensorException | RuntimeException e) {
            KeepAlive.forget(ctx);
            throw e;
        }
    }

    /**
     * @param value the value
     * @return a 0-dim bool "wrapped number" (promotes as a Python bool in PyTorch)
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public static Tensor scalar(boolean value) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_scalar_bool(out, value ? 1 : 0)));
    }

    /**
     * @param value the value
     * @return a 0-dim int64 wrapped number (promotes as a Python int: int8 + 1 stays int8)
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public static Tensor scalar(long value) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_scalar_int64(out, value)));
    }

    /**
     * @param value the value
     * @return a 0-dim float64 wrapped number (promotes as a Python float)
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public static Tensor scalar(double value) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_scalar_float64(out, value)));
    }

    /**
     * @param re real part
     * @param im imaginary part
     * @return a 0-dim complex128 wrapped number (promotes as a Python complex)
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public static Tensor scalarComplex(double re, double im) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_scalar_complex128(out, re, im)));
    }

    // ---- inspection --------------------------------------------------------------------

    /** @return the number of dims */
    public int ndim() {
        return sizes().length;
    }

    /** @return a copy of the sizes */
    public long[] shape() {
        return sizes().clone();
    }

    /** @return a copy of the strides, in elements */
    public long[] stride() {
        return strides().clone();
    }

    /**
     * @param dim a dim, negative from the end
     * @return its size
     */
    public long size(int dim) {
        long[] s = sizes();
        return s[dim < 0 ? dim + s.length : dim];
    }

    private long[] sizes() {
        if (sizes == null) {
            try (Use u = Use.of(this)) {
                MemorySegment t = u.get(0);
                int n = (int) Native.tensor_ndim(t);
                sizes = n == 0 ? new long[0] : Native.tensor_sizes(t).reinterpret(8L * n).toArray(JAVA_LONG);
            }
        }
        return sizes;
    }

    private long[] strides() {
        if (strides == null) {
            try (Use u = Use.of(this)) {
                MemorySegment t = u.get(0);
                int n = (int) Native.tensor_ndim(t);
                strides = n == 0 ? new long[0] : Native.tensor_strides(t).reinterpret(8L * n).toArray(JAVA_LONG);
            }
        }
        return strides;
    }

    /** @return the storage offset, in elements */
    public long storageOffset() {
        try (Use u = Use.of(this)) {
            return Native.tensor_storage_offset(u.get(0));
        }
    }

    /** @return the element type */
    public DType dtype() {
        if (dtype == null) {
            try (Use u = Use.of(this)) {
                dtype = DType.of(Native.tensor_dtype(u.get(0)));
            }
        }
        return dtype;
    }

    /** @return the number of elements (1 for 0-dim) */
    public long numel() {
        try (Use u = Use.of(this)) {
            return Native.tensor_numel(u.get(0));
        }
    }

    /** @return whether the strides are C-contiguous (PyTorch's rule) */
    public boolean isContiguous() {
        try (Use u = Use.of(this)) {
            return Native.tensor_is_contiguous(u.get(0)) != 0;
        }
    }

    /** @return whether the storage is read-only */
    public boolean isReadOnly() {
        try (Use u = Use.of(this)) {
            return Native.tensor_is_readonly(u.get(0)) != 0;
        }
    }

    /** @return the C reference count of the tensor (this object holds one) */
    public long refcount() {
        try (Use u = Use.of(this)) {
            return Native.tensor_refcount(u.get(0));
        }
    }

    /** @return the storage, as a new Storage object holding its own reference */
    public Storage storage() {
        try (Use u = Use.of(this)) {
            return new Storage(Native.tensor_storage_retain(Native.tensor_storage(u.get(0))));
        }
    }

    /** @return another Java handle on this tensor (one more C reference), closed independently */
    public Tensor share() {
        try (Use u = Use.of(this)) {
            return new Tensor(Native.tensor_retain(u.get(0)));
        }
    }

    /** @return where the memory lives: {DLPack device type, device id} ({1, 0} for the CPU) */
    public int[] device() {
        try (Use u = Use.of(this); Arena a = Arena.ofConfined()) {
            MemorySegment type = a.allocate(JAVA_INT);
            MemorySegment id = a.allocate(JAVA_INT);
            Native.tensor_device(u.get(0), type, id);
            return new int[] {type.get(JAVA_INT, 0), id.get(JAVA_INT, 0)};
        }
    }

    /**
     * The lowest element offset (relative to element [0, ..., 0]) the view addresses: the
     * sum of (size - 1) * stride over the negative strides.
     */
    private long lowestOffset() {
        long[] sz = sizes();
        long[] st = strides();
        long lo = 0;
        for (int i = 0; i < sz.length; i++) {
            if (sz[i] == 0) {
                return 0;
            }
            if (st[i] < 0) {
                lo += (sz[i] - 1) * st[i];
            }
        }
        return lo;
    }

    /** @return the bytes from the lowest to the highest element the view addresses, 0 if empty */
    public long extentBytes() {
        long[] sz = sizes();
        long[] st = strides();
        long span = 1;
        for (int i = 0; i < sz.length; i++) {
            if (sz[i] == 0) {
                return 0;
            }
            span += (sz[i] - 1) * Math.abs(st[i]);
        }
        return span * dtype().itemSize();
    }

    /**
     * The memory this view can address, without copying: {@link #extentBytes()} bytes
     * starting at its lowest element (element [0, ..., 0] is at {@link #byteOffset}() of
     * it). The segment is valid until this Tensor is closed (then any access throws
     * {@link IllegalStateException}); it is read-only for a read-only tensor.
     * @return the segment
     * @throws DeviceException if the memory is not CPU memory (imported through DLPack)
     */
    public MemorySegment data() throws DeviceException {
        try (Use u = Use.of(this)) {
            int type = device()[0];
            if (type != 1 && type != 3 && type != 13) {
                throw new DeviceException("data: the tensor's memory is on DLPack device type " + type
                        + ", not CPU-accessible");
            }
            long item = dtype().itemSize();
            MemorySegment first = Native.tensor_data(u.get(0));
            MemorySegment seg = MemorySegment.ofAddress(first.address() + lowestOffset() * item)
                    .reinterpret(extentBytes(), handle.dataArena(), null);
            return Native.tensor_is_readonly(u.get(0)) != 0 ? seg.asReadOnly() : seg;
        }
    }

    /**
     * @param index one index per dim, each within its size
     * @return the byte offset of that element in {@link #data()}
     * @throws IndexOutOfBoundsException for a wrong index
     */
    public long byteOffset(long... index) {
        long[] sz = sizes();
        long[] st = strides();
        if (index.length != sz.length) {
            throw new IndexOutOfBoundsException(index.length + " indices for " + sz.length + " dims");
        }
        long off = -lowestOffset();
        for (int i = 0; i < sz.length; i++) {
            if (index[i] < 0 || index[i] >= sz[i]) {
                throw new IndexOutOfBoundsException("index " + index[i] + " for size " + sz[i] + " of dim " + i);
            }
            off += index[i] * st[i];
        }
        return off * dtype().itemSize();
    }

    /**
     * @return the elements in C order converted to float64 (a copy; complex: real parts)
     * @throws CTensorException as {@link #to}
     */
    public double[] toDoubleArray() throws CTensorException {
        try (Tensor c = to(DType.FLOAT64, CopyMode.ALWAYS)) {
            return c.data().toArray(JAVA_DOUBLE);
        }
    }

    /**
     * @return the elements in C order converted to float32 (a copy)
     * @throws CTensorException as {@link #to}
     */
    public float[] toFloatArray() throws CTensorException {
        try (Tensor c = to(DType.FLOAT32, CopyMode.ALWAYS)) {
            return c.data().toArray(JAVA_FLOAT);
        }
    }

    /**
     * @return the elements in C order converted to int64 (a copy, by the conversion rules)
     * @throws CTensorException as {@link #to}
     */
    public long[] toLongArray() throws CTensorException {
        try (Tensor c = to(DType.INT64, CopyMode.ALWAYS)) {
            return c.data().toArray(JAVA_LONG);
        }
    }

    /**
     * @return the elements in C order as bool bytes (0/1, a copy)
     * @throws CTensorException as {@link #to}
     */
    public byte[] toBoolArray() throws CTensorException {
        try (Tensor c = to(DType.BOOL, CopyMode.ALWAYS)) {
            return c.data().toArray(JAVA_BYTE);
        }
    }

    @Override
    public String toString() {
        try {
            return "Tensor(" + dtype().torchName() + ", sizes " + java.util.Arrays.toString(sizes()) + ", strides "
                    + java.util.Arrays.toString(strides()) + ")";
        } catch (ClosedException e) {
            return "Tensor(closed)";
        }
    }

    // ---- views -------------------------------------------------------------------------

    /**
     * @param sizes   sizes
     * @param strides strides, or null for contiguous
     * @param offset  storage offset
     * @return a view of the same storage with this geometry (torch.as_strided)
     * @throws CTensorException {@link BoundsException} if it reaches outside the storage, ...
     */
    public Tensor asStrided(long[] sizes, long[] strides, long offset) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_as_strided(out, t, sizes.length, longs(a, sizes),
                strides == null ? MemorySegment.NULL : longs(a, strides), offset));
    }

    /**
     * @param sizes new sizes, one may be -1
     * @return Tensor.view(sizes)
     * @throws CTensorException {@link ShapeException}, {@link StrideException} (would need a copy)
     */
    public Tensor view(long... sizes) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_view(out, t, sizes.length, longs(a, sizes)));
    }

    /**
     * @param sizes new sizes, one may be -1
     * @return a view if possible, else a contiguous copy (torch.reshape)
     * @throws CTensorException {@link ShapeException}, ...
     */
    public Tensor reshape(long... sizes) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_reshape(out, t, sizes.length, longs(a, sizes)));
    }

    /**
     * @param dim0 a dim
     * @param dim1 another dim
     * @return the view with dims dim0 and dim1 swapped
     * @throws CTensorException {@link InvalidArgumentException} for a dim out of range
     */
    public Tensor transpose(long dim0, long dim1) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_transpose(out, t, dim0, dim1));
    }

    /**
     * @param dims a permutation of the dims
     * @return the permuted view
     * @throws CTensorException {@link InvalidArgumentException}
     */
    public Tensor permute(long... dims) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_permute(out, t, dims.length, longs(a, dims)));
    }

    /**
     * Python's {@code t[start:stop:step]} along dim (bounds clamped; {@link Index#END} and
     * {@code Long.MIN_VALUE} for the open ends).
     * @param dim   the dim
     * @param start first index
     * @param stop  end index (exclusive)
     * @param step  not 0
     * @return the view
     * @throws CTensorException {@link InvalidArgumentException} (step 0, bad dim)
     */
    public Tensor slice(long dim, long start, long stop, long step) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_slice(out, t, dim, start, stop, step));
    }

    /**
     * @param dim   the dim
     * @param index an index, negative from the end
     * @return the view without dim at that index
     * @throws CTensorException {@link BoundsException}
     */
    public Tensor select(long dim, long index) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_select(out, t, dim, index));
    }

    /**
     * @param dim    the dim
     * @param start  first index
     * @param length count
     * @return torch.narrow
     * @throws CTensorException {@link BoundsException}
     */
    public Tensor narrow(long dim, long start, long length) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_narrow(out, t, dim, start, length));
    }

    /**
     * @param sizes new sizes (-1 keeps a size)
     * @return torch.expand (zero strides, no copy)
     * @throws CTensorException {@link ShapeException}
     */
    public Tensor expand(long... sizes) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_expand(out, t, sizes.length, longs(a, sizes)));
    }

    /**
     * @param sizes the target shape
     * @return torch.broadcast_to
     * @throws CTensorException {@link ShapeException}
     */
    public Tensor broadcastTo(long... sizes) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_broadcast_to(out, t, sizes.length, longs(a, sizes)));
    }

    /**
     * @param dim a dim (left alone if its size is not 1)
     * @return the view without that size-1 dim
     * @throws CTensorException {@link InvalidArgumentException}
     */
    public Tensor squeeze(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_squeeze(out, t, dim));
    }

    /**
     * @return the view without any size-1 dim
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public Tensor squeeze() throws CTensorException {
        return squeeze(Native.TENSOR_ALL_DIMS);
    }

    /**
     * @param dim where the new dim goes
     * @return the view with a new size-1 dim
     * @throws CTensorException {@link InvalidArgumentException}
     */
    public Tensor unsqueeze(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_unsqueeze(out, t, dim));
    }

    /**
     * @param startDim first dim flattened
     * @param endDim   last dim flattened
     * @return torch.flatten (a view where possible, else a copy)
     * @throws CTensorException {@link InvalidArgumentException}
     */
    public Tensor flatten(long startDim, long endDim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_flatten(out, t, startDim, endDim));
    }

    /**
     * @param dtype the new element type
     * @return Tensor.view(dtype): the same bytes seen as another dtype
     * @throws CTensorException {@link DTypeException}, ...
     */
    public Tensor viewAs(DType dtype) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_view_dtype(out, t, dtype.code()));
    }

    /**
     * Basic indexing in one call: {@code t[items...]}.
     * @param items integers, slices, new axes, ellipses, bools
     * @return the view
     * @throws CTensorException {@link BoundsException}, {@link InvalidArgumentException}
     */
    public Tensor index(Index... items) throws CTensorException {
        int[] kinds = new int[items.length];
        long[] values = new long[3 * items.length];
        for (int i = 0; i < items.length; i++) {
            kinds[i] = items[i].kind();
            values[3 * i] = items[i].a();
            values[3 * i + 1] = items[i].b();
            values[3 * i + 2] = items[i].c();
        }
        return derive((out, t, a) -> Native.tensor_index(out, t, items.length,
                kinds.length == 0 ? MemorySegment.NULL : a.allocateFrom(JAVA_INT, kinds), longs(a, values)));
    }

    // ---- copies and casts --------------------------------------------------------------

    /**
     * @return this tensor (a new handle) if contiguous, else a contiguous copy
     * @throws CTensorException {@link DeviceException}, ...
     */
    public Tensor contiguous() throws CTensorException {
        return derive((out, t, a) -> Native.tensor_contiguous(out, t));
    }

    /**
     * @return a new contiguous, writable copy (torch.clone)
     * @throws CTensorException {@link DeviceException}, ...
     */
    public Tensor copy() throws CTensorException {
        return derive((out, t, a) -> Native.tensor_clone(out, t));
    }

    /**
     * {@code this[...] = src}: broadcasts src and converts its dtype.
     * @param src the source (may share memory with this)
     * @throws CTensorException {@link ReadOnlyException}, {@link OverlapException}, {@link ShapeException}
     */
    public void copyFrom(Tensor src) throws CTensorException {
        try (Use u = Use.of(this, src)) {
            Call.run(a -> Native.tensor_copy(u.get(0), u.get(1)));
        }
    }

    /**
     * @param dtype the target dtype
     * @param mode  torch.asarray's copy rule
     * @return this tensor (a new handle) or a converted contiguous copy
     * @throws CTensorException {@link CopyException} for {@link CopyMode#NEVER} when a copy is needed
     */
    public Tensor to(DType dtype, CopyMode mode) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_to(out, t, dtype.code(), mode.code()));
    }

    /**
     * Sets every element, converted as from a float64.
     * @param value the value
     * @throws CTensorException as {@link #copyFrom}
     */
    public void fill(double value) throws CTensorException {
        try (Use u = Use.of(this)) {
            Call.run(a -> Native.tensor_fill(u.get(0), value));
        }
    }

    // ---- math --------------------------------------------------------------------------

    /**
     * @param other the other operand
     * @return the dtype binary ops of this and other compute in (torch.result_type)
     * @throws CTensorException {@link DTypeException}
     */
    public DType resultType(Tensor other) throws CTensorException {
        try (Use u = Use.of(this, other); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            CTensorException.check(Native.tensor_result_type(out, u.get(0), u.get(1)));
            return DType.of(out.get(JAVA_INT, 0));
        }
    }

    /**
     * torch.promote_types: the dtype two tensors of dtypes a and b (both with dims) compute in.
     * @param a a dtype
     * @param b another
     * @return the promoted dtype
     * @throws CTensorException {@link DTypeException} (uint64 with a signed integer)
     */
    public static DType promoteTypes(DType a, DType b) throws CTensorException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            CTensorException.check(Native.tensor_promote_types(out, a.code(), b.code()));
            return DType.of(out.get(JAVA_INT, 0));
        }
    }

    /**
     * @param b other operand (broadcast)
     * @return this + b
     * @throws CTensorException {@link ShapeException}, {@link DTypeException}, ...
     */
    public Tensor add(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_add);
    }

    /**
     * @param b other operand
     * @return this - b
     * @throws CTensorException as {@link #add}
     */
    public Tensor sub(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_sub);
    }

    /**
     * @param b other operand
     * @return this * b
     * @throws CTensorException as {@link #add}
     */
    public Tensor mul(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_mul);
    }

    /**
     * @param b other operand
     * @return true division this / b (integers give float32)
     * @throws CTensorException as {@link #add}
     */
    public Tensor div(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_div);
    }

    /**
     * @param b exponent
     * @return this ** b
     * @throws CTensorException as {@link #add}
     */
    public Tensor pow(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_pow);
    }

    /**
     * @param b other operand
     * @return torch.maximum (NaN wins)
     * @throws CTensorException as {@link #add}
     */
    public Tensor maximum(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_maximum);
    }

    /**
     * @param b other operand
     * @return torch.minimum (NaN wins)
     * @throws CTensorException as {@link #add}
     */
    public Tensor minimum(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_minimum);
    }

    /**
     * @param b other operand
     * @return this == b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor eq(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_eq);
    }

    /**
     * @param b other operand
     * @return this != b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor ne(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_ne);
    }

    /**
     * @param b other operand
     * @return this &lt; b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor lt(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_lt);
    }

    /**
     * @param b other operand
     * @return this &lt;= b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor le(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_le);
    }

    /**
     * @param b other operand
     * @return this &gt; b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor gt(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_gt);
    }

    /**
     * @param b other operand
     * @return this &gt;= b (bool)
     * @throws CTensorException as {@link #add}
     */
    public Tensor ge(Tensor b) throws CTensorException {
        return binary(b, Native::tensor_ge);
    }

    /**
     * {@code this = op(a, b)} with PyTorch's out= rules (this may be a or b: in place).
     * @param op the operation
     * @param a  first operand
     * @param b  second operand
     * @throws CTensorException {@link ShapeException}, {@link DTypeException}, {@link ReadOnlyException}, ...
     */
    public void binaryInto(BinaryOp op, Tensor a, Tensor b) throws CTensorException {
        try (Use u = Use.of(this, a, b)) {
            Call.run(arena -> Native.tensor_binary_into(u.get(0), op.code(), u.get(1), u.get(2)));
        }
    }

    /**
     * An element-wise unary op in a new tensor of this shape, laid out as {@link #add} lays out
     * its result ({@code tensor_unary}); each op also has a named method ({@link #exp}, ...).
     * @param op the operation
     * @return op(this), in the op's result dtype (see {@link UnaryOp})
     * @throws CTensorException {@link DTypeException} (a dtype the op refuses, as PyTorch),
     *         {@link DeviceException}, {@link OutOfMemoryException}
     */
    public Tensor unary(UnaryOp op) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_unary(out, op.code(), t));
    }

    /**
     * {@code this = op(a)} with PyTorch's out= rules ({@code tensor_unary_into}): this has a's
     * shape and a dtype the op's result can be cast to; this may be a itself (in place, as
     * {@code a.exp_()}).
     * @param op the operation
     * @param a  the operand
     * @throws CTensorException {@link ShapeException}, {@link DTypeException} (refused dtype, or
     *         no cast to this dtype), {@link ReadOnlyException}, {@link OverlapException}, ...
     */
    public void unaryInto(UnaryOp op, Tensor a) throws CTensorException {
        into(a, (d, s) -> Native.tensor_unary_into(d, op.code(), s));
    }

    /** The named C function of {@code op} ({@code tensor_exp}, ...). */
    private Tensor apply(UnaryOp op) throws CTensorException {
        return derive((out, t, a) -> op.function.call(out, t));
    }

    /**
     * @return {@link UnaryOp#NEG} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor neg() throws CTensorException {
        return apply(UnaryOp.NEG);
    }

    /**
     * @return {@link UnaryOp#ABS} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor abs() throws CTensorException {
        return apply(UnaryOp.ABS);
    }

    /**
     * @return {@link UnaryOp#EXP} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor exp() throws CTensorException {
        return apply(UnaryOp.EXP);
    }

    /**
     * @return {@link UnaryOp#EXP2} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor exp2() throws CTensorException {
        return apply(UnaryOp.EXP2);
    }

    /**
     * @return {@link UnaryOp#EXPM1} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor expm1() throws CTensorException {
        return apply(UnaryOp.EXPM1);
    }

    /**
     * @return {@link UnaryOp#LOG} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor log() throws CTensorException {
        return apply(UnaryOp.LOG);
    }

    /**
     * @return {@link UnaryOp#LOG2} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor log2() throws CTensorException {
        return apply(UnaryOp.LOG2);
    }

    /**
     * @return {@link UnaryOp#LOG10} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor log10() throws CTensorException {
        return apply(UnaryOp.LOG10);
    }

    /**
     * @return {@link UnaryOp#LOG1P} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor log1p() throws CTensorException {
        return apply(UnaryOp.LOG1P);
    }

    /**
     * @return {@link UnaryOp#SQRT} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor sqrt() throws CTensorException {
        return apply(UnaryOp.SQRT);
    }

    /**
     * @return {@link UnaryOp#RSQRT} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor rsqrt() throws CTensorException {
        return apply(UnaryOp.RSQRT);
    }

    /**
     * @return {@link UnaryOp#SIN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor sin() throws CTensorException {
        return apply(UnaryOp.SIN);
    }

    /**
     * @return {@link UnaryOp#COS} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor cos() throws CTensorException {
        return apply(UnaryOp.COS);
    }

    /**
     * @return {@link UnaryOp#TAN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor tan() throws CTensorException {
        return apply(UnaryOp.TAN);
    }

    /**
     * @return {@link UnaryOp#ASIN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor asin() throws CTensorException {
        return apply(UnaryOp.ASIN);
    }

    /**
     * @return {@link UnaryOp#ACOS} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor acos() throws CTensorException {
        return apply(UnaryOp.ACOS);
    }

    /**
     * @return {@link UnaryOp#ATAN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor atan() throws CTensorException {
        return apply(UnaryOp.ATAN);
    }

    /**
     * @return {@link UnaryOp#SINH} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor sinh() throws CTensorException {
        return apply(UnaryOp.SINH);
    }

    /**
     * @return {@link UnaryOp#COSH} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor cosh() throws CTensorException {
        return apply(UnaryOp.COSH);
    }

    /**
     * @return {@link UnaryOp#TANH} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor tanh() throws CTensorException {
        return apply(UnaryOp.TANH);
    }

    /**
     * @return {@link UnaryOp#SIGMOID} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor sigmoid() throws CTensorException {
        return apply(UnaryOp.SIGMOID);
    }

    /**
     * @return {@link UnaryOp#RELU} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor relu() throws CTensorException {
        return apply(UnaryOp.RELU);
    }

    /**
     * @return {@link UnaryOp#GELU} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor gelu() throws CTensorException {
        return apply(UnaryOp.GELU);
    }

    /**
     * @return {@link UnaryOp#ERF} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor erf() throws CTensorException {
        return apply(UnaryOp.ERF);
    }

    /**
     * @return {@link UnaryOp#FLOOR} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor floor() throws CTensorException {
        return apply(UnaryOp.FLOOR);
    }

    /**
     * @return {@link UnaryOp#CEIL} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor ceil() throws CTensorException {
        return apply(UnaryOp.CEIL);
    }

    /**
     * @return {@link UnaryOp#ROUND} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor round() throws CTensorException {
        return apply(UnaryOp.ROUND);
    }

    /**
     * @return {@link UnaryOp#TRUNC} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor trunc() throws CTensorException {
        return apply(UnaryOp.TRUNC);
    }

    /**
     * @return {@link UnaryOp#FRAC} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor frac() throws CTensorException {
        return apply(UnaryOp.FRAC);
    }

    /**
     * @return {@link UnaryOp#SIGN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor sign() throws CTensorException {
        return apply(UnaryOp.SIGN);
    }

    /**
     * @return {@link UnaryOp#RECIPROCAL} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor reciprocal() throws CTensorException {
        return apply(UnaryOp.RECIPROCAL);
    }

    /**
     * @return {@link UnaryOp#SQUARE} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor square() throws CTensorException {
        return apply(UnaryOp.SQUARE);
    }

    /**
     * @return {@link UnaryOp#ISNAN} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor isnan() throws CTensorException {
        return apply(UnaryOp.ISNAN);
    }

    /**
     * @return {@link UnaryOp#ISINF} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor isinf() throws CTensorException {
        return apply(UnaryOp.ISINF);
    }

    /**
     * @return {@link UnaryOp#ISFINITE} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor isfinite() throws CTensorException {
        return apply(UnaryOp.ISFINITE);
    }

    /**
     * @return {@link UnaryOp#LOGICAL_NOT} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor logicalNot() throws CTensorException {
        return apply(UnaryOp.LOGICAL_NOT);
    }

    /**
     * @return {@link UnaryOp#BITWISE_NOT} of this, element-wise
     * @throws CTensorException as {@link #unary}
     */
    public Tensor bitwiseNot() throws CTensorException {
        return apply(UnaryOp.BITWISE_NOT);
    }

    /**
     * torch.clamp (clip): min(max(this, min), max) element-wise in a new tensor
     * ({@code tensor_clamp}). The bounds are tensors or wrapped numbers ({@link #scalar}); this,
     * min and max broadcast together and compute in their result type. A NaN element stays NaN,
     * a NaN bound gives NaN (except a NaN wrapped number as the only bound, passed over as
     * PyTorch's clamp_min/clamp_max do), min &gt; max gives max.
     * @param min the lower bound, or null for none
     * @param max the upper bound, or null for none (not both null)
     * @return the clamped tensor, laid out as {@link #add}'s result
     * @throws CTensorException {@link InvalidArgumentException} (both bounds null),
     *         {@link ShapeException} (no broadcast), {@link DTypeException} (complex; bool with
     *         both bounds), ...
     */
    public Tensor clamp(Tensor min, Tensor max) throws CTensorException {
        try (Use u = Use.ofNullable(this, min, max)) {
            return new Tensor(Call.out((out, a) -> Native.tensor_clamp(out, u.get(0), u.get(1), u.get(2))));
        }
    }

    /**
     * @param min lower bound (a wrapped float: an integer tensor gives float32)
     * @param max upper bound
     * @return {@link #clamp(Tensor, Tensor)} with wrapped-number bounds
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clamp(double min, double max) throws CTensorException {
        try (Tensor lo = scalar(min); Tensor hi = scalar(max)) {
            return clamp(lo, hi);
        }
    }

    /**
     * @param min lower bound (a wrapped int: an integer tensor keeps its dtype)
     * @param max upper bound
     * @return {@link #clamp(Tensor, Tensor)} with wrapped-number bounds
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clamp(long min, long max) throws CTensorException {
        try (Tensor lo = scalar(min); Tensor hi = scalar(max)) {
            return clamp(lo, hi);
        }
    }

    /**
     * @param min lower bound (a wrapped float)
     * @return torch.clamp_min: {@link #clamp(Tensor, Tensor)} without an upper bound
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clampMin(double min) throws CTensorException {
        try (Tensor lo = scalar(min)) {
            return clamp(lo, null);
        }
    }

    /**
     * @param min lower bound (a wrapped int)
     * @return torch.clamp_min: {@link #clamp(Tensor, Tensor)} without an upper bound
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clampMin(long min) throws CTensorException {
        try (Tensor lo = scalar(min)) {
            return clamp(lo, null);
        }
    }

    /**
     * @param max upper bound (a wrapped float)
     * @return torch.clamp_max: {@link #clamp(Tensor, Tensor)} without a lower bound
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clampMax(double max) throws CTensorException {
        try (Tensor hi = scalar(max)) {
            return clamp(null, hi);
        }
    }

    /**
     * @param max upper bound (a wrapped int)
     * @return torch.clamp_max: {@link #clamp(Tensor, Tensor)} without a lower bound
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}
     */
    public Tensor clampMax(long max) throws CTensorException {
        try (Tensor hi = scalar(max)) {
            return clamp(null, hi);
        }
    }

    /**
     * {@code this = clamp(a, min, max)} with the out= rules of {@link #binaryInto}
     * ({@code tensor_clamp_into}); this may be a itself (in place, clamp_).
     * @param a   the input
     * @param min the lower bound, or null
     * @param max the upper bound, or null (not both null)
     * @throws CTensorException as {@link #clamp(Tensor, Tensor)}, and {@link ShapeException},
     *         {@link DTypeException} (no cast), {@link ReadOnlyException} for this
     */
    public void clampInto(Tensor a, Tensor min, Tensor max) throws CTensorException {
        try (Use u = Use.ofNullable(this, a, min, max)) {
            Call.run(arena -> Native.tensor_clamp_into(u.get(0), u.get(1), u.get(2), u.get(3)));
        }
    }

    /**
     * torch.where: a where cond is true, else b ({@code tensor_where}); the three broadcast,
     * a and b are converted to their result type (either may be a wrapped number).
     * @param cond bool or uint8 (non-zero is true)
     * @param a    taken where cond is true
     * @param b    taken elsewhere
     * @return the new tensor, laid out as {@link #add}'s result over cond, a and b
     * @throws CTensorException {@link ShapeException} (no broadcast), {@link DTypeException}
     *         (cond of another dtype, no result type), ...
     */
    public static Tensor where(Tensor cond, Tensor a, Tensor b) throws CTensorException {
        try (Use u = Use.of(cond, a, b)) {
            return new Tensor(Call.out((out, arena) -> Native.tensor_where(out, u.get(0), u.get(1), u.get(2))));
        }
    }

    /**
     * {@code this = where(cond, a, b)} with the out= rules of {@link #clampInto}
     * ({@code tensor_where_into}).
     * @param cond bool or uint8
     * @param a    taken where cond is true
     * @param b    taken elsewhere
     * @throws CTensorException as {@link #where} and {@link #clampInto}
     */
    public void whereInto(Tensor cond, Tensor a, Tensor b) throws CTensorException {
        try (Use u = Use.of(this, cond, a, b)) {
            Call.run(arena -> Native.tensor_where_into(u.get(0), u.get(1), u.get(2), u.get(3)));
        }
    }

    /** The dim argument of {@link #argmax(long, boolean)} and {@link #argmin(long, boolean)} searching every dim. */
    public static final long ALL_DIMS = Native.TENSOR_ALL_DIMS;

    /**
     * torch.argmax ({@code tensor_argmax}): the index of the first largest element along dim,
     * as a new contiguous int64 tensor; NaN is larger than every number.
     * @param dim     the dim (negative from the end), or {@link #ALL_DIMS} for the flattened
     *                tensor (C order)
     * @param keepdim keep the reduced dim (every dim for ALL_DIMS) as size 1
     * @return the indices
     * @throws CTensorException {@link InvalidArgumentException} (dim out of range),
     *         {@link ShapeException} (the dim has size 0), {@link DTypeException} (bool, complex)
     */
    public Tensor argmax(long dim, boolean keepdim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_argmax(out, t, dim, keepdim ? 1 : 0));
    }

    /**
     * @return torch.argmax(this): the flat (C order) index of the first largest element, 0-dim int64
     * @throws CTensorException as {@link #argmax(long, boolean)}
     */
    public Tensor argmax() throws CTensorException {
        return argmax(ALL_DIMS, false);
    }

    /**
     * torch.argmin ({@code tensor_argmin}), as {@link #argmax(long, boolean)}; NaN is smaller
     * than every number.
     * @param dim     the dim, or {@link #ALL_DIMS}
     * @param keepdim keep the reduced dim as size 1
     * @return the indices
     * @throws CTensorException as {@link #argmax(long, boolean)}
     */
    public Tensor argmin(long dim, boolean keepdim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_argmin(out, t, dim, keepdim ? 1 : 0));
    }

    /**
     * @return torch.argmin(this): the flat index of the first smallest element, 0-dim int64
     * @throws CTensorException as {@link #argmax(long, boolean)}
     */
    public Tensor argmin() throws CTensorException {
        return argmin(ALL_DIMS, false);
    }

    @FunctionalInterface
    private interface Into {
        int call(MemorySegment dst, MemorySegment src);
    }

    /** Runs a {@code tensor_*_into(dst = this, src, ...)} call. */
    private void into(Tensor src, Into fn) throws CTensorException {
        try (Use u = Use.of(this, src)) {
            Call.run(arena -> fn.call(u.get(0), u.get(1)));
        }
    }

    /**
     * {@code this = argmax(t, dim, keepdim)} ({@code tensor_argmax_into}): this is int64 and
     * has the result's shape.
     * @param t       the input
     * @param dim     the dim, or {@link #ALL_DIMS}
     * @param keepdim keep the reduced dim as size 1
     * @throws CTensorException as {@link #argmax(long, boolean)}; {@link ShapeException},
     *         {@link DTypeException} (this not int64), {@link ReadOnlyException} for this
     */
    public void argmaxInto(Tensor t, long dim, boolean keepdim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_argmax_into(d, s, dim, keepdim ? 1 : 0));
    }

    /**
     * {@code this = argmin(t, dim, keepdim)}, as {@link #argmaxInto} ({@code tensor_argmin_into}).
     * @param t       the input
     * @param dim     the dim, or {@link #ALL_DIMS}
     * @param keepdim keep the reduced dim as size 1
     * @throws CTensorException as {@link #argmaxInto}
     */
    public void argminInto(Tensor t, long dim, boolean keepdim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_argmin_into(d, s, dim, keepdim ? 1 : 0));
    }

    /**
     * torch.cumsum ({@code tensor_cumsum}): element k along dim is the sum of elements 0..k,
     * in a new contiguous tensor. bool and integers give int64 (wrapping); float32 and float64
     * accumulate in float64, float16 and bfloat16 in float32. Convert first ({@link #to}) for
     * another dtype.
     * @param dim the dim (negative from the end)
     * @return the running sums
     * @throws CTensorException {@link InvalidArgumentException} (dim out of range), ...
     */
    public Tensor cumsum(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_cumsum(out, t, dim));
    }

    /**
     * torch.cumprod ({@code tensor_cumprod}), as {@link #cumsum} with the running product.
     * @param dim the dim (negative from the end)
     * @return the running products
     * @throws CTensorException as {@link #cumsum}
     */
    public Tensor cumprod(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_cumprod(out, t, dim));
    }

    /**
     * {@code this = cumsum(t, dim)} ({@code tensor_cumsum_into}): this has t's shape and a dtype
     * the result can be cast to.
     * @param t   the input
     * @param dim the dim
     * @throws CTensorException as {@link #cumsum} and {@link #clampInto}
     */
    public void cumsumInto(Tensor t, long dim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_cumsum_into(d, s, dim));
    }

    /**
     * {@code this = cumprod(t, dim)}, as {@link #cumsumInto} ({@code tensor_cumprod_into}).
     * @param t   the input
     * @param dim the dim
     * @throws CTensorException as {@link #cumsumInto}
     */
    public void cumprodInto(Tensor t, long dim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_cumprod_into(d, s, dim));
    }

    /**
     * torch.softmax ({@code tensor_softmax}): exp(x - max) / sum(exp(x - max)) along dim, in a
     * new contiguous tensor of this dtype. A lane holding NaN or +inf, or only -inf, gives NaN.
     * @param dim the dim (negative from the end)
     * @return the softmax
     * @throws CTensorException {@link DTypeException} (not a floating dtype),
     *         {@link InvalidArgumentException} (dim out of range), ...
     */
    public Tensor softmax(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_softmax(out, t, dim));
    }

    /**
     * torch.log_softmax ({@code tensor_log_softmax}): x - max - log(sum(exp(x - max))) along
     * dim, as {@link #softmax}.
     * @param dim the dim (negative from the end)
     * @return the log-softmax
     * @throws CTensorException as {@link #softmax}
     */
    public Tensor logSoftmax(long dim) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_log_softmax(out, t, dim));
    }

    /**
     * {@code this = softmax(t, dim)} ({@code tensor_softmax_into}): this has t's shape and dtype.
     * @param t   the input
     * @param dim the dim
     * @throws CTensorException as {@link #softmax}; {@link ShapeException}, {@link DTypeException}
     *         (this dtype differs), {@link ReadOnlyException} for this
     */
    public void softmaxInto(Tensor t, long dim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_softmax_into(d, s, dim));
    }

    /**
     * {@code this = logSoftmax(t, dim)}, as {@link #softmaxInto} ({@code tensor_log_softmax_into}).
     * @param t   the input
     * @param dim the dim
     * @throws CTensorException as {@link #softmaxInto}
     */
    public void logSoftmaxInto(Tensor t, long dim) throws CTensorException {
        into(t, (d, s) -> Native.tensor_log_softmax_into(d, s, dim));
    }

    /**
     * @param keepdim keep reduced dims as size 1
     * @param dims    dims to reduce (none: all)
     * @return torch.sum (bool and integers give int64)
     * @throws CTensorException {@link InvalidArgumentException} (dim out of range or repeated)
     */
    public Tensor sum(boolean keepdim, long... dims) throws CTensorException {
        return reduce(Native::tensor_sum, dims, keepdim);
    }

    /**
     * @param keepdim keep reduced dims as size 1
     * @param dims    dims to reduce (none: all)
     * @return torch.mean (float or complex only)
     * @throws CTensorException {@link DTypeException} for other dtypes
     */
    public Tensor mean(boolean keepdim, long... dims) throws CTensorException {
        return reduce(Native::tensor_mean, dims, keepdim);
    }

    /**
     * @param keepdim keep reduced dims as size 1
     * @param dims    dims to reduce (none: all)
     * @return torch.prod
     * @throws CTensorException as {@link #sum}
     */
    public Tensor prod(boolean keepdim, long... dims) throws CTensorException {
        return reduce(Native::tensor_prod, dims, keepdim);
    }

    /**
     * @param keepdim keep reduced dims as size 1
     * @param dims    dims to reduce (none: all)
     * @return torch.amax
     * @throws CTensorException {@link ShapeException} for an empty reduction
     */
    public Tensor amax(boolean keepdim, long... dims) throws CTensorException {
        return reduce(Native::tensor_amax, dims, keepdim);
    }

    /**
     * @param keepdim keep reduced dims as size 1
     * @param dims    dims to reduce (none: all)
     * @return torch.amin
     * @throws CTensorException {@link ShapeException} for an empty reduction
     */
    public Tensor amin(boolean keepdim, long... dims) throws CTensorException {
        return reduce(Native::tensor_amin, dims, keepdim);
    }

    /**
     * @return the single element converted to float64
     * @throws CTensorException {@link ShapeException} if numel is not 1
     */
    public double itemDouble() throws CTensorException {
        try (Use u = Use.of(this); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_DOUBLE);
            CTensorException.check(Native.tensor_item_float64(out, u.get(0)));
            return out.get(JAVA_DOUBLE, 0);
        }
    }

    /**
     * @return the single element converted to int64
     * @throws CTensorException {@link ShapeException} if numel is not 1
     */
    public long itemLong() throws CTensorException {
        try (Use u = Use.of(this); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            CTensorException.check(Native.tensor_item_int64(out, u.get(0)));
            return out.get(JAVA_LONG, 0);
        }
    }

    /**
     * @param other the other tensor
     * @return torch.equal: same sizes and all elements equal
     * @throws CTensorException {@link DTypeException}
     */
    public boolean equal(Tensor other) throws CTensorException {
        try (Use u = Use.of(this, other); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            CTensorException.check(Native.tensor_equal(out, u.get(0), u.get(1)));
            return out.get(JAVA_INT, 0) != 0;
        }
    }

    /**
     * @param other    the other tensor (same dtype, broadcast)
     * @param rtol     relative tolerance
     * @param atol     absolute tolerance
     * @param equalNan whether NaNs compare equal
     * @return torch.allclose
     * @throws CTensorException {@link DTypeException} (dtypes differ), {@link ShapeException}
     */
    public boolean allclose(Tensor other, double rtol, double atol, boolean equalNan) throws CTensorException {
        try (Use u = Use.of(this, other); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            CTensorException.check(Native.tensor_allclose(out, u.get(0), u.get(1), rtol, atol, equalNan ? 1 : 0));
            return out.get(JAVA_INT, 0) != 0;
        }
    }

    /**
     * @param dim     the dim to join along
     * @param tensors at least one tensor
     * @return torch.cat
     * @throws CTensorException {@link ShapeException}, {@link InvalidArgumentException}
     */
    public static Tensor cat(long dim, Tensor... tensors) throws CTensorException {
        try (Use u = Use.of(tensors)) {
            return new Tensor(Call.out((out, a) -> Native.tensor_cat(out, tensors.length, u.array(a, 0), dim)));
        }
    }

    /**
     * @param dim     the new dim
     * @param tensors at least one tensor, all of one shape
     * @return torch.stack
     * @throws CTensorException {@link ShapeException}, {@link InvalidArgumentException}
     */
    public static Tensor stack(long dim, Tensor... tensors) throws CTensorException {
        try (Use u = Use.of(tensors)) {
            return new Tensor(Call.out((out, a) -> Native.tensor_stack(out, tensors.length, u.array(a, 0), dim)));
        }
    }

    // ---- files -------------------------------------------------------------------------

    /** {@link #loadNpy} flag: read into owned, writable memory. */
    public static final int LOAD_COPY = Native.TENSOR_LOAD_COPY;
    /** {@link #loadNpy} flag: map copy-on-write (writable, writes never reach the file). */
    public static final int LOAD_WRITABLE = Native.TENSOR_LOAD_WRITABLE;

    /**
     * Loads a .npy file; flags 0 maps it read-only without copying.
     * @param path  the file
     * @param flags 0, {@link #LOAD_COPY} or {@link #LOAD_WRITABLE}
     * @return the tensor
     * @throws CTensorException {@link IOFailureException}, {@link FormatException}, {@link DTypeException}
     */
    public static Tensor loadNpy(Path path, int flags) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_load_npy(out, a.allocateFrom(path.toString()), flags)));
    }

    /**
     * Saves as a .npy file (C order, NumPy 1.24's header), atomically.
     * @param path the file (no ".npy" is appended)
     * @throws CTensorException {@link IOFailureException}, {@link DTypeException} (bfloat16)
     */
    public void saveNpy(Path path) throws CTensorException {
        try (Use u = Use.of(this)) {
            Call.run(a -> Native.tensor_save_npy(u.get(0), a.allocateFrom(path.toString())));
        }
    }

    // ---- DLPack ------------------------------------------------------------------------

    /**
     * Exports as a DLPack 1.x {@code DLManagedTensorVersioned} without copying. The result
     * holds a reference to this tensor until its deleter runs: pass it to a consumer that
     * takes it over, or call {@link DLPack#deleteVersioned} exactly once.
     * @return the managed tensor ({@link DLPack#MANAGED_TENSOR_VERSIONED} bytes)
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public MemorySegment toDLPack() throws CTensorException {
        try (Use u = Use.of(this)) {
            return Call.out((out, a) -> Native.tensor_to_dlpack(out, u.get(0), 0))
                    .reinterpret(DLPack.MANAGED_TENSOR_VERSIONED.byteSize());
        }
    }

    /**
     * Exports as a pre-1.0 {@code DLManagedTensor} (for older consumers); see {@link #toDLPack}.
     * @return the managed tensor ({@link DLPack#MANAGED_TENSOR} bytes); delete with {@link DLPack#deleteLegacy}
     * @throws CTensorException {@link ReadOnlyException} (the legacy format cannot say read-only)
     */
    public MemorySegment toDLPackLegacy() throws CTensorException {
        try (Use u = Use.of(this)) {
            return Call.out((out, a) -> Native.tensor_to_dlpack_legacy(out, u.get(0)))
                    .reinterpret(DLPack.MANAGED_TENSOR.byteSize());
        }
    }

    /**
     * Imports a DLPack 1.x managed tensor without copying. On success ctensor owns it and
     * calls its deleter once, when the last tensor viewing it is released; on failure the
     * caller still owns it.
     * @param managed address of a {@code DLManagedTensorVersioned}
     * @return the tensor
     * @throws CTensorException {@link UnsupportedException} (major version not 1), {@link DTypeException}, ...
     */
    public static Tensor fromDLPack(MemorySegment managed) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_from_dlpack(out, managed)));
    }

    /**
     * As {@link #fromDLPack} for a pre-1.0 {@code DLManagedTensor}.
     * @param managed address of a {@code DLManagedTensor}
     * @return the tensor (writable)
     * @throws CTensorException as {@link #fromDLPack}
     */
    public static Tensor fromDLPackLegacy(MemorySegment managed) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_from_dlpack_legacy(out, managed)));
    }

    // ---- Arrow -------------------------------------------------------------------------

    /**
     * Exports this tensor through the Arrow C Data Interface ({@code tensor_to_arrow}): ndim
     * &gt;= 2 as {@code arrow.fixed_shape_tensor} (dim 0 the array's length), ndim 1 as a
     * primitive array; without copying when the layout allows (bool is always copied). The
     * arrays hold a reference to the tensor until released. On success the caller owns both
     * structs and releases each once (a consumer such as Arrow Java's {@code Data.importVector}
     * does); on failure both are left released.
     * @param schemaOut an {@link Arrow#SCHEMA} struct to fill (native memory)
     * @param arrayOut  an {@link Arrow#ARRAY} struct to fill
     * @param flags     0 or {@link Arrow#NO_COPY}
     * @throws CTensorException {@link ShapeException} (0-dim), {@link CopyException} (a copy is
     *         needed and NO_COPY is set), {@link DeviceException}, ...
     */
    public void toArrow(MemorySegment schemaOut, MemorySegment arrayOut, int flags) throws CTensorException {
        try (Use u = Use.of(this)) {
            Call.run(a -> Native.tensor_to_arrow(schemaOut, arrayOut, u.get(0), flags));
        }
    }

    /**
     * A read-only tensor viewing an Arrow array without copying (bool excepted: a writable
     * copy) ({@code tensor_from_arrow}): {@code arrow.fixed_shape_tensor} gives [length,
     * *shape], a FixedSizeList [length, list_size, ...], a primitive array [length]. The
     * schema is only read (the caller releases it); the array is moved on success (its
     * release struct field set to NULL, the producer's release called once when the last
     * tensor on it goes) and untouched on failure.
     * @param schema an {@link Arrow#SCHEMA} struct
     * @param array  an {@link Arrow#ARRAY} struct, taken over on success
     * @return the tensor
     * @throws CTensorException {@link FormatException} (malformed, nulls), {@link DTypeException},
     *         {@link UnsupportedException} (dictionaries, other nested types), ...
     */
    public static Tensor fromArrow(MemorySegment schema, MemorySegment array) throws CTensorException {
        return new Tensor(Call.out((out, a) -> Native.tensor_from_arrow(out, schema, array)));
    }

    // ---- experimental ------------------------------------------------------------------

    /**
     * @param offset diagonal offset (positive: above)
     * @param dim1   first dim
     * @param dim2   second dim
     * @return torch.diagonal (a view)
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public Tensor diagonal(long offset, long dim1, long dim2) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_diagonal(out, t, offset, dim1, dim2));
    }

    /**
     * @param dim  the dim
     * @param size window size
     * @param step window step
     * @return Tensor.unfold (a view of sliding windows)
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public Tensor unfold(long dim, long size, long step) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_unfold(out, t, dim, size, step));
    }

    /**
     * @param source      dims moved
     * @param destination where they go
     * @return torch.movedim (a view)
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public Tensor movedim(long[] source, long[] destination) throws CTensorException {
        if (source.length != destination.length) {
            throw new IllegalArgumentException("movedim: " + source.length + " sources, "
                    + destination.length + " destinations");
        }
        return derive((out, t, a) -> Native.tensor_movedim(out, t, source.length, longs(a, source),
                longs(a, destination)));
    }

    /**
     * @param dim   the dim split
     * @param sizes its new sizes (one may be -1)
     * @return torch.unflatten (a view)
     * @throws CTensorException {@link ShapeException}
     */
    @Experimental
    public Tensor unflatten(long dim, long... sizes) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_unflatten(out, t, dim, sizes.length, longs(a, sizes)));
    }

    /**
     * @param minDims 1, 2 or 3
     * @return torch.atleast_1d/2d/3d
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public Tensor atleast(long minDims) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_atleast(out, t, minDims));
    }

    @FunctionalInterface
    private interface Pieces {
        int call(MemorySegment out, long capacity, MemorySegment count, MemorySegment t, Arena arena);
    }

    /** A split call made twice, snprintf-style: once for the count, once for the pieces. */
    private List<Tensor> pieces(Pieces fn) throws CTensorException {
        try (Use u = Use.of(this); Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_LONG);
            CTensorException.check(fn.call(MemorySegment.NULL, 0, count, u.get(0), a));
            long n = count.get(JAVA_LONG, 0);
            MemorySegment out = a.allocate(ADDRESS, Math.max(n, 1));
            CTensorException.check(fn.call(out, n, count, u.get(0), a));
            Tensor[] views = new Tensor[(int) n];
            for (int i = 0; i < n; i++) {
                views[i] = new Tensor(out.getAtIndex(ADDRESS, i));
            }
            return List.of(views);
        }
    }

    /**
     * @param splitSize elements per piece (the last may be shorter)
     * @param dim       the dim
     * @return torch.split: views of consecutive pieces
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public List<Tensor> split(long splitSize, long dim) throws CTensorException {
        return pieces((out, cap, count, t, a) -> Native.tensor_split(out, cap, count, t, splitSize, dim));
    }

    /**
     * @param sizes the pieces' sizes, summing to the dim's size
     * @param dim   the dim
     * @return torch.split with a list of sizes
     * @throws CTensorException {@link ShapeException} if the sizes do not sum up
     */
    @Experimental
    public List<Tensor> splitWithSizes(long[] sizes, long dim) throws CTensorException {
        return pieces((out, cap, count, t, a) ->
                Native.tensor_split_with_sizes(out, cap, count, t, sizes.length, longs(a, sizes), dim));
    }

    /**
     * @param chunks the number of chunks wanted (possibly fewer come)
     * @param dim    the dim
     * @return torch.chunk
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public List<Tensor> chunk(long chunks, long dim) throws CTensorException {
        return pieces((out, cap, count, t, a) -> Native.tensor_chunk(out, cap, count, t, chunks, dim));
    }

    /**
     * @param sections exactly this many pieces (np.array_split)
     * @param dim      the dim
     * @return torch.tensor_split
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public List<Tensor> tensorSplit(long sections, long dim) throws CTensorException {
        return pieces((out, cap, count, t, a) -> Native.tensor_tensor_split(out, cap, count, t, sections, dim));
    }

    /**
     * @param indices where to cut (as slice bounds)
     * @param dim     the dim
     * @return torch.tensor_split with indices: indices.length + 1 pieces
     * @throws CTensorException {@link InvalidArgumentException}
     */
    @Experimental
    public List<Tensor> tensorSplitAt(long[] indices, long dim) throws CTensorException {
        return pieces((out, cap, count, t, a) ->
                Native.tensor_tensor_split_indices(out, cap, count, t, indices.length, longs(a, indices), dim));
    }

    /**
     * @param others more tensors
     * @return torch.broadcast_tensors(this, others...): views expanded to a common shape
     * @throws CTensorException {@link ShapeException}
     */
    @Experimental
    public List<Tensor> broadcastWith(Tensor... others) throws CTensorException {
        Tensor[] all = join(this, others);
        try (Use u = Use.of(all); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS, all.length);
            CTensorException.check(Native.tensor_broadcast_tensors(out, all.length, u.array(a, 0)));
            Tensor[] views = new Tensor[all.length];
            for (int i = 0; i < all.length; i++) {
                views[i] = new Tensor(out.getAtIndex(ADDRESS, i));
            }
            return List.of(views);
        }
    }

    /**
     * @return torch.conj_physical (a copy; non-complex dtypes copied as they are)
     * @throws CTensorException {@link DeviceException}, ...
     */
    @Experimental
    public Tensor conjPhysical() throws CTensorException {
        return derive((out, t, a) -> Native.tensor_conj_physical(out, t));
    }

    /**
     * @return torch.conj (values computed; a complex result is read-only, as a lazy conjugate would be)
     * @throws CTensorException {@link DeviceException}, ...
     */
    @Experimental
    public Tensor conj() throws CTensorException {
        return derive((out, t, a) -> Native.tensor_conj(out, t));
    }

    /**
     * @param dtype          the new tensor's dtype
     * @param preserveLayout true: PyTorch's preserve_format strides; false: C order
     * @return torch.empty_like: uninitialised, this tensor's shape
     * @throws CTensorException {@link OverflowException}, ...
     */
    @Experimental
    public Tensor emptyLike(DType dtype, boolean preserveLayout) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_empty_like(out, t, dtype.code(), format(preserveLayout)));
    }

    /**
     * @param dtype          the new tensor's dtype
     * @param preserveLayout true: PyTorch's preserve_format strides; false: C order
     * @return torch.zeros_like
     * @throws CTensorException {@link OverflowException}, ...
     */
    @Experimental
    public Tensor zerosLike(DType dtype, boolean preserveLayout) throws CTensorException {
        return derive((out, t, a) -> Native.tensor_zeros_like(out, t, dtype.code(), format(preserveLayout)));
    }

    private static int format(boolean preserveLayout) {
        return preserveLayout ? Native.TENSOR_PRESERVE_FORMAT : Native.TENSOR_CONTIGUOUS_FORMAT;
    }

    /**
     * @return torch.nonzero: an int64 [count, ndim] tensor of the non-zero elements' coordinates
     * @throws CTensorException {@link DeviceException}, ...
     */
    @Experimental
    public Tensor nonzero() throws CTensorException {
        return derive((out, t, a) -> Native.tensor_nonzero(out, t));
    }

    /**
     * Advanced indexing (a copy): index tensor {@code indices[k]} picks positions along {@code dims[k]}.
     * @param dims    the indexed dims, ascending
     * @param indices integer index tensors, one per dim
     * @return the gathered elements
     * @throws CTensorException {@link BoundsException}, {@link ShapeException}, ...
     */
    @Experimental
    public Tensor indexGather(long[] dims, Tensor... indices) throws CTensorException {
        try (Use u = Use.of(join(this, indices))) {
            return new Tensor(Call.out((out, a) -> Native.tensor_index_gather(out, u.get(0), dims.length,
                    longs(a, dims), u.array(a, 1))));
        }
    }

    /**
     * {@code this[indices...] = values} through advanced indexing.
     * @param dims    the indexed dims, ascending
     * @param values  broadcast to the indexing result
     * @param indices integer index tensors, one per dim
     * @throws CTensorException {@link BoundsException}, {@link ReadOnlyException}, ...
     */
    @Experimental
    public void indexPut(long[] dims, Tensor values, Tensor... indices) throws CTensorException {
        try (Use u = Use.of(join(this, join(values, indices)))) {
            Call.run(a -> Native.tensor_index_put(u.get(0), dims.length, longs(a, dims), u.array(a, 2), u.get(1)));
        }
    }
}
