//! The unary family (`exp`, `sqrt`, `isnan`, ...): one list below makes the
//! [`UnaryOp`] enum for [`Tensor::unary`] / [`Tensor::unary_into`] and a method per
//! op (`t.exp()?`). Result dtypes follow PyTorch 1.13: the floating-point functions
//! give float32 for bool and integer inputs, the predicates give bool, and a dtype
//! an op refuses is `Err(DType)` (docs/math.md, and each function in the header).

use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::math::{reading, writing};
use crate::tensor::Tensor;

/// Makes the enum, its codes and one method per op from the list.
macro_rules! unary_family {
    ($($(#[$doc:meta])* $name:ident => $variant:ident, $code:ident, $c:ident;)*) => {
        /// The operations of [`Tensor::unary`] and [`Tensor::unary_into`]; each also
        /// has its own method (`UnaryOp::Exp` is [`Tensor::exp`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum UnaryOp {
            $($(#[$doc])* $variant,)*
        }

        impl UnaryOp {
            /// Every op, in the order of the header's `TENSOR_UOP_*` codes.
            pub const ALL: &'static [UnaryOp] = &[$(UnaryOp::$variant,)*];

            /// The method's name (`"exp"`, `"logical_not"`), as PyTorch spells the op.
            pub fn name(self) -> &'static str {
                match self {
                    $(UnaryOp::$variant => stringify!($name),)*
                }
            }

            fn code(self) -> sys::tensor_unary_op_t {
                match self {
                    $(UnaryOp::$variant => sys::$code,)*
                }
            }
        }

        impl Tensor {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> Result<Tensor> {
                    let _read = reading(stringify!($name), &[self])?;
                    // SAFETY: live handle; the elements are borrowed for reading.
                    Tensor::make(|out| unsafe { sys::$c(out, self.as_raw()) })
                }
            )*
        }
    };
}

unary_family! {
    /// `-self` (integers wrap; bool is `Err(DType)`).
    neg => Neg, TENSOR_UOP_NEG, tensor_neg;
    /// `|self|` (complex gives its real dtype; bool is `Err(DType)`).
    abs => Abs, TENSOR_UOP_ABS, tensor_abs;
    /// `e^self`; bool and integers give float32.
    exp => Exp, TENSOR_UOP_EXP, tensor_exp;
    /// `2^self`; bool and integers give float32.
    exp2 => Exp2, TENSOR_UOP_EXP2, tensor_exp2;
    /// `e^self - 1`; bool and integers give float32.
    expm1 => Expm1, TENSOR_UOP_EXPM1, tensor_expm1;
    /// The natural logarithm (negative gives NaN, 0 gives -inf); bool and integers give float32.
    log => Log, TENSOR_UOP_LOG, tensor_log;
    /// The base-2 logarithm; bool and integers give float32.
    log2 => Log2, TENSOR_UOP_LOG2, tensor_log2;
    /// The base-10 logarithm; bool and integers give float32.
    log10 => Log10, TENSOR_UOP_LOG10, tensor_log10;
    /// `ln(1 + self)`; bool and integers give float32.
    log1p => Log1p, TENSOR_UOP_LOG1P, tensor_log1p;
    /// The square root (negative gives NaN); bool and integers give float32.
    sqrt => Sqrt, TENSOR_UOP_SQRT, tensor_sqrt;
    /// `1 / sqrt(self)`; bool and integers give float32.
    rsqrt => Rsqrt, TENSOR_UOP_RSQRT, tensor_rsqrt;
    /// The sine; bool and integers give float32.
    sin => Sin, TENSOR_UOP_SIN, tensor_sin;
    /// The cosine; bool and integers give float32.
    cos => Cos, TENSOR_UOP_COS, tensor_cos;
    /// The tangent; bool and integers give float32.
    tan => Tan, TENSOR_UOP_TAN, tensor_tan;
    /// The arcsine (`|x| > 1` gives NaN); bool and integers give float32.
    asin => Asin, TENSOR_UOP_ASIN, tensor_asin;
    /// The arccosine (`|x| > 1` gives NaN); bool and integers give float32.
    acos => Acos, TENSOR_UOP_ACOS, tensor_acos;
    /// The arctangent; bool and integers give float32.
    atan => Atan, TENSOR_UOP_ATAN, tensor_atan;
    /// The hyperbolic sine; bool and integers give float32.
    sinh => Sinh, TENSOR_UOP_SINH, tensor_sinh;
    /// The hyperbolic cosine; bool and integers give float32.
    cosh => Cosh, TENSOR_UOP_COSH, tensor_cosh;
    /// The hyperbolic tangent; bool and integers give float32.
    tanh => Tanh, TENSOR_UOP_TANH, tensor_tanh;
    /// `1 / (1 + e^-self)`; bool and integers give float32.
    sigmoid => Sigmoid, TENSOR_UOP_SIGMOID, tensor_sigmoid;
    /// `max(self, 0)`; integers keep their dtype.
    relu => Relu, TENSOR_UOP_RELU, tensor_relu;
    /// `torch.nn.functional.gelu` (the exact, erf form).
    gelu => Gelu, TENSOR_UOP_GELU, tensor_gelu;
    /// The error function; bool and integers give float32.
    erf => Erf, TENSOR_UOP_ERF, tensor_erf;
    /// Rounded down; integers are returned as they are.
    floor => Floor, TENSOR_UOP_FLOOR, tensor_floor;
    /// Rounded up; integers are returned as they are.
    ceil => Ceil, TENSOR_UOP_CEIL, tensor_ceil;
    /// Rounded to the nearest integer, ties to even (as `torch.round`).
    round => Round, TENSOR_UOP_ROUND, tensor_round;
    /// Rounded toward zero; integers are returned as they are.
    trunc => Trunc, TENSOR_UOP_TRUNC, tensor_trunc;
    /// `self - trunc(self)`.
    frac => Frac, TENSOR_UOP_FRAC, tensor_frac;
    /// -1, 0 or 1 (NaN and both zeros give +0, as PyTorch 1.13); integers and bool keep their dtype.
    sign => Sign, TENSOR_UOP_SIGN, tensor_sign;
    /// `1 / self`; bool and integers give float32.
    reciprocal => Reciprocal, TENSOR_UOP_RECIPROCAL, tensor_reciprocal;
    /// `self * self`; every dtype keeps its own, bool gives int64 (as PyTorch).
    square => Square, TENSOR_UOP_SQUARE, tensor_square;
    /// Whether each element is NaN: a bool tensor.
    isnan => Isnan, TENSOR_UOP_ISNAN, tensor_isnan;
    /// Whether each element is +-inf: a bool tensor.
    isinf => Isinf, TENSOR_UOP_ISINF, tensor_isinf;
    /// Whether each element is finite: a bool tensor.
    isfinite => Isfinite, TENSOR_UOP_ISFINITE, tensor_isfinite;
    /// `!self` (zero is false): a bool tensor.
    logical_not => LogicalNot, TENSOR_UOP_LOGICAL_NOT, tensor_logical_not;
    /// `~self` (bool: not); float and complex are `Err(DType)`.
    bitwise_not => BitwiseNot, TENSOR_UOP_BITWISE_NOT, tensor_bitwise_not;
}

impl Tensor {
    /// `op(self)` in a new tensor of `self`'s shape (the same as `op`'s own
    /// method: `t.unary(UnaryOp::Exp)` is `t.exp()`).
    ///
    /// ```
    /// use ctensor::{DType, Status, Tensor, UnaryOp};
    /// let t = Tensor::from_slice(&[0i32, 1], &[2])?;
    /// let e = t.unary(UnaryOp::Exp)?; // integers give float32
    /// assert_eq!((e.dtype(), e.to_vec::<f32>()?), (DType::Float32, vec![1.0, std::f32::consts::E]));
    /// let f = Tensor::from_slice(&[1.5f32], &[1])?;
    /// assert_eq!(f.unary(UnaryOp::BitwiseNot).unwrap_err().status, Status::DType);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn unary(&self, op: UnaryOp) -> Result<Tensor> {
        let _read = reading(op.name(), &[self])?;
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_unary(out, op.code(), self.as_raw()) })
    }

    /// `self = op(a)` (PyTorch's `out=`): `self` must have `a`'s shape and a dtype
    /// the op's result casts to (`Err(DType)` otherwise, e.g. float32 into int32);
    /// `self` may be `a` itself (in place, as `a.exp_()`).
    ///
    /// ```
    /// use ctensor::{Tensor, UnaryOp};
    /// let t = Tensor::from_slice(&[4.0f64, 9.0], &[2])?;
    /// t.unary_into(UnaryOp::Sqrt, &t)?; // in place
    /// assert_eq!(t.to_vec::<f64>()?, [2.0, 3.0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn unary_into(&self, op: UnaryOp, a: &Tensor) -> Result<()> {
        let _borrow = writing(op.name(), self, &[a])?;
        // SAFETY: live handles; dst is borrowed for writing, a for reading (the
        // library handles their overlap).
        check(unsafe { sys::tensor_unary_into(self.as_raw(), op.code(), a.as_raw()) })
    }
}
