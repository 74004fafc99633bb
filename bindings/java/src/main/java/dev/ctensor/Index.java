package dev.ctensor;

/**
 * One item of basic indexing for {@link Tensor#index(Index...)}: an integer, a slice, a new
 * axis, an ellipsis or a bool, as in {@code t[1, ::2, None, ...]}.
 *
 * @param kind the C kind ({@code TENSOR_INDEX_*})
 * @param a    the integer, the slice's start or the bool (0/1)
 * @param b    the slice's stop
 * @param c    the slice's step
 */
public record Index(int kind, long a, long b, long c) {
    /** {@code ...}: the dims no integer or slice names. */
    public static final Index ELLIPSIS = new Index(Native.TENSOR_INDEX_ELLIPSIS, 0, 0, 0);
    /** {@code None}: a new dim of size 1. */
    public static final Index NEWAXIS = new Index(Native.TENSOR_INDEX_NEWAXIS, 0, 0, 0);
    /** The open end of a slice ({@code Long.MAX_VALUE}; {@code Long.MIN_VALUE} is the other). */
    public static final long END = Native.TENSOR_SLICE_END;

    /**
     * @param i an index, negative from the end
     * @return the item {@code i}
     */
    public static Index at(long i) {
        return new Index(Native.TENSOR_INDEX_INT, i, 0, 0);
    }

    /**
     * @param start first index (clamped as Python's)
     * @param stop  end index, exclusive ({@link #END} for the open end)
     * @param step  not 0; negative walks backwards
     * @return the item {@code start:stop:step}
     */
    public static Index slice(long start, long stop, long step) {
        return new Index(Native.TENSOR_INDEX_SLICE, start, stop, step);
    }

    /**
     * @param value true: a new dim of size 1; false: of size 0
     * @return a bool item
     */
    public static Index bool(boolean value) {
        return new Index(Native.TENSOR_INDEX_BOOL, value ? 1 : 0, 0, 0);
    }
}
