package dev.ctensor;

import java.lang.foreign.MemorySegment;

/**
 * The element-wise unary operations ({@code TENSOR_UOP_*}), for {@link Tensor#unary} and
 * {@link Tensor#unaryInto}; each also has a named method ({@link Tensor#exp}, ...). Result
 * dtypes follow PyTorch 1.13: the floating-point functions give float32 for bool and integer
 * inputs; the predicates give bool. Accuracy per function is stated in {@code ctensor.h}.
 */
public enum UnaryOp {
    /** -a (integers wrap; bool refused) ({@code tensor_neg}) */
    NEG(Native.TENSOR_UOP_NEG, Native::tensor_neg),
    /** |a| (complex: the modulus, in its real dtype; bool refused) ({@code tensor_abs}) */
    ABS(Native.TENSOR_UOP_ABS, Native::tensor_abs),
    /** e^a; bool and integers give float32 ({@code tensor_exp}) */
    EXP(Native.TENSOR_UOP_EXP, Native::tensor_exp),
    /** 2^a; bool and integers give float32 ({@code tensor_exp2}) */
    EXP2(Native.TENSOR_UOP_EXP2, Native::tensor_exp2),
    /** e^a - 1; bool and integers give float32 ({@code tensor_expm1}) */
    EXPM1(Native.TENSOR_UOP_EXPM1, Native::tensor_expm1),
    /** the natural logarithm (log 0 is -inf, negatives give NaN); bool and integers give float32 ({@code tensor_log}) */
    LOG(Native.TENSOR_UOP_LOG, Native::tensor_log),
    /** the base-2 logarithm; bool and integers give float32 ({@code tensor_log2}) */
    LOG2(Native.TENSOR_UOP_LOG2, Native::tensor_log2),
    /** the base-10 logarithm; bool and integers give float32 ({@code tensor_log10}) */
    LOG10(Native.TENSOR_UOP_LOG10, Native::tensor_log10),
    /** log(1 + a); bool and integers give float32 ({@code tensor_log1p}) */
    LOG1P(Native.TENSOR_UOP_LOG1P, Native::tensor_log1p),
    /** the square root (negatives give NaN); bool and integers give float32 ({@code tensor_sqrt}) */
    SQRT(Native.TENSOR_UOP_SQRT, Native::tensor_sqrt),
    /** 1 / sqrt(a); bool and integers give float32 ({@code tensor_rsqrt}) */
    RSQRT(Native.TENSOR_UOP_RSQRT, Native::tensor_rsqrt),
    /** the sine; bool and integers give float32 ({@code tensor_sin}) */
    SIN(Native.TENSOR_UOP_SIN, Native::tensor_sin),
    /** the cosine; bool and integers give float32 ({@code tensor_cos}) */
    COS(Native.TENSOR_UOP_COS, Native::tensor_cos),
    /** the tangent; bool and integers give float32 ({@code tensor_tan}) */
    TAN(Native.TENSOR_UOP_TAN, Native::tensor_tan),
    /** the arcsine (|a| &gt; 1 gives NaN); bool and integers give float32 ({@code tensor_asin}) */
    ASIN(Native.TENSOR_UOP_ASIN, Native::tensor_asin),
    /** the arccosine (|a| &gt; 1 gives NaN); bool and integers give float32 ({@code tensor_acos}) */
    ACOS(Native.TENSOR_UOP_ACOS, Native::tensor_acos),
    /** the arctangent; bool and integers give float32 ({@code tensor_atan}) */
    ATAN(Native.TENSOR_UOP_ATAN, Native::tensor_atan),
    /** the hyperbolic sine; bool and integers give float32 ({@code tensor_sinh}) */
    SINH(Native.TENSOR_UOP_SINH, Native::tensor_sinh),
    /** the hyperbolic cosine; bool and integers give float32 ({@code tensor_cosh}) */
    COSH(Native.TENSOR_UOP_COSH, Native::tensor_cosh),
    /** the hyperbolic tangent; bool and integers give float32 ({@code tensor_tanh}) */
    TANH(Native.TENSOR_UOP_TANH, Native::tensor_tanh),
    /** 1 / (1 + e^-a); bool and integers give float32 ({@code tensor_sigmoid}) */
    SIGMOID(Native.TENSOR_UOP_SIGMOID, Native::tensor_sigmoid),
    /** max(a, 0), keeping NaN and -0 (integers keep their dtype) ({@code tensor_relu}) */
    RELU(Native.TENSOR_UOP_RELU, Native::tensor_relu),
    /** a/2 * (1 + erf(a / sqrt 2)), PyTorch's default form (float dtypes only) ({@code tensor_gelu}) */
    GELU(Native.TENSOR_UOP_GELU, Native::tensor_gelu),
    /** the error function; bool and integers give float32 ({@code tensor_erf}) */
    ERF(Native.TENSOR_UOP_ERF, Native::tensor_erf),
    /** rounded down (integers as they are) ({@code tensor_floor}) */
    FLOOR(Native.TENSOR_UOP_FLOOR, Native::tensor_floor),
    /** rounded up (integers as they are) ({@code tensor_ceil}) */
    CEIL(Native.TENSOR_UOP_CEIL, Native::tensor_ceil),
    /** rounded to the nearest integer, halves to even (integers as they are) ({@code tensor_round}) */
    ROUND(Native.TENSOR_UOP_ROUND, Native::tensor_round),
    /** rounded toward zero (integers as they are) ({@code tensor_trunc}) */
    TRUNC(Native.TENSOR_UOP_TRUNC, Native::tensor_trunc),
    /** a - trunc(a), with a's sign ({@code tensor_frac}) */
    FRAC(Native.TENSOR_UOP_FRAC, Native::tensor_frac),
    /** -1, 0 or 1 (NaN gives 0; integers and bool keep their dtype) ({@code tensor_sign}) */
    SIGN(Native.TENSOR_UOP_SIGN, Native::tensor_sign),
    /** 1 / a; bool and integers give float32 ({@code tensor_reciprocal}) */
    RECIPROCAL(Native.TENSOR_UOP_RECIPROCAL, Native::tensor_reciprocal),
    /** a * a (integers wrap; bool gives int64) ({@code tensor_square}) */
    SQUARE(Native.TENSOR_UOP_SQUARE, Native::tensor_square),
    /** whether a is NaN, as bool ({@code tensor_isnan}) */
    ISNAN(Native.TENSOR_UOP_ISNAN, Native::tensor_isnan),
    /** whether a is +-inf, as bool ({@code tensor_isinf}) */
    ISINF(Native.TENSOR_UOP_ISINF, Native::tensor_isinf),
    /** whether a is neither NaN nor +-inf, as bool ({@code tensor_isfinite}) */
    ISFINITE(Native.TENSOR_UOP_ISFINITE, Native::tensor_isfinite),
    /** a == 0, as bool ({@code tensor_logical_not}) */
    LOGICAL_NOT(Native.TENSOR_UOP_LOGICAL_NOT, Native::tensor_logical_not),
    /** ~a in a's dtype (bool: not a; bool and integers only) ({@code tensor_bitwise_not}) */
    BITWISE_NOT(Native.TENSOR_UOP_BITWISE_NOT, Native::tensor_bitwise_not);

    /** A named C function {@code tensor_x(out, a)}. */
    @FunctionalInterface
    interface Function {
        int call(MemorySegment out, MemorySegment a);
    }

    private final int code;
    final Function function;

    UnaryOp(int code, Function function) {
        this.code = code;
        this.function = function;
    }

    /** @return the C value */
    public int code() {
        return code;
    }
}
