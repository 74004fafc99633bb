package dev.ctensor;

/** The binary operations of {@link Tensor#binaryInto}, with their C values ({@code TENSOR_OP_*}). */
public enum BinaryOp {
    /** a + b */
    ADD(Native.TENSOR_OP_ADD),
    /** a - b */
    SUB(Native.TENSOR_OP_SUB),
    /** a * b */
    MUL(Native.TENSOR_OP_MUL),
    /** true division a / b */
    DIV(Native.TENSOR_OP_DIV),
    /** a ** b */
    POW(Native.TENSOR_OP_POW),
    /** torch.maximum */
    MAXIMUM(Native.TENSOR_OP_MAXIMUM),
    /** torch.minimum */
    MINIMUM(Native.TENSOR_OP_MINIMUM),
    /** a == b */
    EQ(Native.TENSOR_OP_EQ),
    /** a != b */
    NE(Native.TENSOR_OP_NE),
    /** a &lt; b */
    LT(Native.TENSOR_OP_LT),
    /** a &lt;= b */
    LE(Native.TENSOR_OP_LE),
    /** a &gt; b */
    GT(Native.TENSOR_OP_GT),
    /** a &gt;= b */
    GE(Native.TENSOR_OP_GE);

    private final int code;

    BinaryOp(int code) {
        this.code = code;
    }

    /** @return the C value */
    public int code() {
        return code;
    }
}
