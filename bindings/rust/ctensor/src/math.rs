//! Math: element-wise operations with PyTorch's type promotion, reductions,
//! cat/stack and comparisons of whole tensors (docs/math.md). Every method
//! returns a `Result`: shape, dtype and device mismatches are `Err`, never a panic.

use std::ptr;

use ctensor_sys as sys;

use crate::borrow::{self, Access, Borrow};
use crate::dtype::DType;
use crate::error::{check, Result};
use crate::tensor::Tensor;
use crate::Complex;

/// The operations of [`Tensor::binary_into`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    fn code(self) -> sys::tensor_op_t {
        match self {
            BinaryOp::Add => sys::TENSOR_OP_ADD,
            BinaryOp::Sub => sys::TENSOR_OP_SUB,
            BinaryOp::Mul => sys::TENSOR_OP_MUL,
            BinaryOp::Div => sys::TENSOR_OP_DIV,
            BinaryOp::Pow => sys::TENSOR_OP_POW,
            BinaryOp::Maximum => sys::TENSOR_OP_MAXIMUM,
            BinaryOp::Minimum => sys::TENSOR_OP_MINIMUM,
            BinaryOp::Eq => sys::TENSOR_OP_EQ,
            BinaryOp::Ne => sys::TENSOR_OP_NE,
            BinaryOp::Lt => sys::TENSOR_OP_LT,
            BinaryOp::Le => sys::TENSOR_OP_LE,
            BinaryOp::Gt => sys::TENSOR_OP_GT,
            BinaryOp::Ge => sys::TENSOR_OP_GE,
        }
    }
}

/// Borrows every tensor's elements for reading while the library reads them.
fn reading(op: &str, tensors: &[&Tensor]) -> Result<Borrow> {
    let spans: Vec<_> = tensors.iter().map(|t| (t.span(), Access::Shared)).collect();
    borrow::acquire(op, &spans)
}

/// The binary operations that make a new tensor: `self op other`.
macro_rules! binary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
            let _read = reading(stringify!($name), &[self, other])?;
            // SAFETY: live handles; the elements are borrowed for reading.
            Tensor::make(|out| unsafe { sys::$c(out, self.as_raw(), other.as_raw()) })
        }
    )*};
}

/// The reductions: `dims` empty reduces every dim.
macro_rules! reductions {
    ($($(#[$doc:meta])* $name:ident => $c:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self, dims: &[i64], keepdim: bool) -> Result<Tensor> {
            let _read = reading(stringify!($name), &[self])?;
            // SAFETY: dims has ndims entries; the elements are borrowed for reading.
            Tensor::make(|out| unsafe {
                sys::$c(out, self.as_raw(), dims.len() as i64, dims.as_ptr(), i32::from(keepdim))
            })
        }
    )*};
}

/// The unary operations.
macro_rules! unary_ops {
    ($($(#[$doc:meta])* $name:ident => $c:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> Result<Tensor> {
            let _read = reading(stringify!($name), &[self])?;
            // SAFETY: live handle; the elements are borrowed for reading.
            Tensor::make(|out| unsafe { sys::$c(out, self.as_raw()) })
        }
    )*};
}

impl Tensor {
    /// A wrapped number (a 0-dim tensor that promotes as a Python `bool` does in PyTorch).
    pub fn scalar_bool(value: bool) -> Result<Tensor> {
        // SAFETY: a plain out-parameter.
        Tensor::make(|out| unsafe { sys::tensor_scalar_bool(out, i32::from(value)) })
    }

    /// A wrapped number that promotes as a Python `int`: `int8 + 1` stays int8.
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// let t = Tensor::from_slice(&[100i8, 120], &[2])?;
    /// let r = t.add(&Tensor::scalar_int64(10)?)?;
    /// assert_eq!((r.dtype(), r.to_vec::<i8>()?), (DType::Int8, vec![110, -126])); // wraps
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn scalar_int64(value: i64) -> Result<Tensor> {
        // SAFETY: a plain out-parameter.
        Tensor::make(|out| unsafe { sys::tensor_scalar_int64(out, value) })
    }

    /// A wrapped number that promotes as a Python `float`: `int32 * 0.5` is float32.
    pub fn scalar_float64(value: f64) -> Result<Tensor> {
        // SAFETY: a plain out-parameter.
        Tensor::make(|out| unsafe { sys::tensor_scalar_float64(out, value) })
    }

    /// A wrapped number that promotes as a Python `complex`.
    pub fn scalar_complex128(value: Complex<f64>) -> Result<Tensor> {
        // SAFETY: a plain out-parameter.
        Tensor::make(|out| unsafe { sys::tensor_scalar_complex128(out, value.re, value.im) })
    }

    /// `torch.result_type(self, other)`: the dtype binary operations compute in.
    pub fn result_type(&self, other: &Tensor) -> Result<DType> {
        let mut dtype = 0;
        // SAFETY: live handles and a valid out pointer.
        check(unsafe { sys::tensor_result_type(&mut dtype, self.as_raw(), other.as_raw()) })?;
        Ok(DType::from_raw(dtype))
    }

    binary_ops! {
        /// `self + other` in a new tensor: broadcast, promoted as PyTorch does
        /// (`Err(Shape)` when the shapes do not broadcast, `Err(DType)` without a
        /// result type); integers wrap.
        ///
        /// ```
        /// use ctensor::{Status, Tensor};
        /// let a = Tensor::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
        /// let b = Tensor::from_slice(&[10i32, 20], &[2, 1])?;
        /// assert_eq!(a.add(&b)?.to_vec::<f32>()?, [11.0, 12.0, 13.0, 21.0, 22.0, 23.0]);
        /// assert_eq!(a.add(&Tensor::zeros(ctensor::DType::Float32, &[2])?).unwrap_err().status, Status::Shape);
        /// # Ok::<(), ctensor::Error>(())
        /// ```
        add => tensor_add;
        /// `self - other`, as [`Tensor::add`]; bool operands are `Err(DType)`.
        sub => tensor_sub;
        /// `self * other`, as [`Tensor::add`].
        mul => tensor_mul;
        /// True division, as [`Tensor::add`]; integers divide in float32.
        div => tensor_div;
        /// `self ** other`, as [`Tensor::add`].
        pow => tensor_pow;
        /// `torch.maximum` (NaN wins).
        maximum => tensor_maximum;
        /// `torch.minimum` (NaN wins).
        minimum => tensor_minimum;
        /// `self == other` element-wise: a bool tensor.
        eq => tensor_eq;
        /// `self != other` element-wise.
        ne => tensor_ne;
        /// `self < other` element-wise.
        lt => tensor_lt;
        /// `self <= other` element-wise.
        le => tensor_le;
        /// `self > other` element-wise.
        gt => tensor_gt;
        /// `self >= other` element-wise.
        ge => tensor_ge;
    }

    /// `self = op(a, b)` (PyTorch's `out=`): `self` must have the broadcast shape
    /// and a dtype the result casts to; `self` may be `a` or `b` (in place).
    ///
    /// ```
    /// use ctensor::{BinaryOp, Tensor};
    /// let a = Tensor::from_slice(&[1.0f64, 2.0], &[2])?;
    /// a.binary_into(BinaryOp::Mul, &a, &Tensor::scalar_float64(3.0)?)?; // a *= 3
    /// assert_eq!(a.to_vec::<f64>()?, [3.0, 6.0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn binary_into(&self, op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<()> {
        let _borrow = borrow::acquire(
            "binary_into",
            &[(self.span(), Access::Exclusive), (a.span(), Access::Shared), (b.span(), Access::Shared)],
        )?;
        // SAFETY: live handles; dst is borrowed for writing, a and b for reading
        // (the library handles their overlap with dst).
        check(unsafe { sys::tensor_binary_into(self.as_raw(), op.code(), a.as_raw(), b.as_raw()) })
    }

    unary_ops! {
        /// `-self` (integers wrap; bool is `Err(DType)`).
        neg => tensor_neg;
        /// `|self|` (complex gives its real dtype; bool is `Err(DType)`).
        abs => tensor_abs;
        /// `torch.conj_physical`: complex values conjugated into a new tensor; any
        /// other dtype gives the same tensor back (a new handle to it).
        #[cfg(feature = "experimental")]
        conj_physical => tensor_conj_physical;
        #[cfg(feature = "experimental")]
        /// `torch.conj` for a library without a conjugate bit: as
        /// [`conj_physical`](Tensor::conj_physical), but a complex result is
        /// read-only, so a write that PyTorch's conjugate view would send to `self`
        /// fails with `Err(ReadOnly)` instead of being lost.
        ///
        /// ```
        /// use ctensor::{Complex, Status, Tensor};
        /// let z = Tensor::from_slice(&[Complex::new(1.0f32, 2.0)], &[1])?;
        /// let c = z.conj()?;
        /// assert_eq!(c.to_vec::<Complex<f32>>()?, [Complex::new(1.0, -2.0)]);
        /// assert!(c.is_readonly());
        /// assert_eq!(c.fill(0.0).unwrap_err().status, Status::ReadOnly);
        /// # Ok::<(), ctensor::Error>(())
        /// ```
        conj => tensor_conj;
    }

    reductions! {
        /// `torch.sum(self, dims, keepdim)`; `dims` empty reduces every dim.
        /// Integers and bool give int64; float sums are pairwise.
        ///
        /// ```
        /// use ctensor::Tensor;
        /// let t = Tensor::from_slice(&[1i32, 2, 3, 4, 5, 6], &[2, 3])?;
        /// assert_eq!(t.sum(&[1], false)?.to_vec::<i64>()?, [6, 15]);
        /// assert_eq!(t.sum(&[], false)?.item_i64()?, 21);
        /// assert_eq!(t.sum(&[2], false).unwrap_err().status, ctensor::Status::Invalid);
        /// # Ok::<(), ctensor::Error>(())
        /// ```
        sum => tensor_sum;
        /// `torch.mean`; float and complex dtypes only (else `Err(DType)`).
        mean => tensor_mean;
        /// `torch.prod`, as [`Tensor::sum`].
        prod => tensor_prod;
        /// `torch.amax`; an empty reduction is `Err(Shape)`.
        amax => tensor_amax;
        /// `torch.amin`, as [`Tensor::amax`].
        amin => tensor_amin;
    }

    /// The single element (numel 1, else `Err(Shape)`) as a float64 (complex: the real part).
    pub fn item_f64(&self) -> Result<f64> {
        let _read = reading("item", &[self])?;
        let mut value = 0.0;
        // SAFETY: live handle, valid out pointer; the element is borrowed for reading.
        check(unsafe { sys::tensor_item_float64(&mut value, self.as_raw()) })?;
        Ok(value)
    }

    /// The single element as an int64 (floats truncate toward zero and saturate).
    pub fn item_i64(&self) -> Result<i64> {
        let _read = reading("item", &[self])?;
        let mut value = 0;
        // SAFETY: as item_f64.
        check(unsafe { sys::tensor_item_int64(&mut value, self.as_raw()) })?;
        Ok(value)
    }

    /// `torch.cat(tensors, dim)`: a new contiguous tensor in the promoted dtype.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let a = Tensor::from_slice(&[1u8, 2], &[1, 2])?;
    /// let b = Tensor::from_slice(&[3.5f32, 4.5], &[1, 2])?;
    /// assert_eq!(Tensor::cat(&[&a, &b], 0)?.to_vec::<f32>()?, [1.0, 2.0, 3.5, 4.5]);
    /// assert_eq!(Tensor::stack(&[&a, &a], 2)?.sizes(), [1, 2, 2]);
    /// assert_eq!(Tensor::cat(&[], 0).unwrap_err().status, ctensor::Status::Invalid);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn cat(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let _read = reading("cat", tensors)?;
        let handles: Vec<*const sys::tensor_t> = tensors.iter().map(|t| t.as_raw().cast_const()).collect();
        // SAFETY: handles has n live entries (C reads none when n is 0); borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_cat(out, handles.len() as i64, opt_handles(&handles), dim) })
    }

    /// `torch.stack(tensors, dim)`: the tensors (one shape) joined along a new dim.
    pub fn stack(tensors: &[&Tensor], dim: i64) -> Result<Tensor> {
        let _read = reading("stack", tensors)?;
        let handles: Vec<*const sys::tensor_t> = tensors.iter().map(|t| t.as_raw().cast_const()).collect();
        // SAFETY: as cat.
        Tensor::make(|out| unsafe { sys::tensor_stack(out, handles.len() as i64, opt_handles(&handles), dim) })
    }

    /// `torch.equal`: the same sizes and every element equal (NaN never is).
    pub fn equal(&self, other: &Tensor) -> Result<bool> {
        let _read = reading("equal", &[self, other])?;
        let mut out = 0;
        // SAFETY: live handles, valid out pointer; borrowed for reading.
        check(unsafe { sys::tensor_equal(&mut out, self.as_raw(), other.as_raw()) })?;
        Ok(out != 0)
    }

    /// `torch.allclose(self, other, rtol, atol, equal_nan)`: the dtypes must
    /// match (`Err(DType)`), the shapes broadcast.
    pub fn allclose(&self, other: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<bool> {
        let _read = reading("allclose", &[self, other])?;
        let mut out = 0;
        // SAFETY: as equal.
        check(unsafe {
            sys::tensor_allclose(&mut out, self.as_raw(), other.as_raw(), rtol, atol, i32::from(equal_nan))
        })?;
        Ok(out != 0)
    }
}

/// The tensor array C reads: NULL for none, which the library reports as `Err(Invalid)`.
fn opt_handles(handles: &[*const sys::tensor_t]) -> *const *const sys::tensor_t {
    if handles.is_empty() {
        ptr::null()
    } else {
        handles.as_ptr()
    }
}
