//! Element types: the library's dtypes and the Rust types that hold them.

use std::ffi::CStr;
use std::fmt;

use ctensor_sys as sys;
use half::{bf16, f16};
use num_complex::Complex;

use crate::error::{Error, Result, Status};

/// A tensor's element type; the values equal PyTorch's `ScalarType` (and the C
/// `TENSOR_*` dtype constants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum DType {
    UInt8 = sys::TENSOR_UINT8,
    Int8 = sys::TENSOR_INT8,
    Int16 = sys::TENSOR_INT16,
    Int32 = sys::TENSOR_INT32,
    Int64 = sys::TENSOR_INT64,
    Float16 = sys::TENSOR_FLOAT16,
    Float32 = sys::TENSOR_FLOAT32,
    Float64 = sys::TENSOR_FLOAT64,
    Complex64 = sys::TENSOR_COMPLEX64,
    Complex128 = sys::TENSOR_COMPLEX128,
    Bool = sys::TENSOR_BOOL,
    BFloat16 = sys::TENSOR_BFLOAT16,
    UInt16 = sys::TENSOR_UINT16,
    UInt32 = sys::TENSOR_UINT32,
    UInt64 = sys::TENSOR_UINT64,
}

impl DType {
    /// Every dtype, in code order.
    pub const ALL: [DType; 15] = [
        DType::UInt8,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::Bool,
        DType::BFloat16,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
    ];

    /// The C value.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The dtype with C value `code`, `None` if unknown.
    pub fn from_code(code: i32) -> Option<DType> {
        DType::ALL.iter().copied().find(|d| d.code() == code)
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        // SAFETY: a plain query; every DType is known to the library.
        unsafe { sys::tensor_dtype_size(self.code()) }
    }

    /// PyTorch's name without `torch.` (`"float32"`, `"bfloat16"`, `"bool"`, ...).
    pub fn name(self) -> &'static str {
        // SAFETY: the library returns a static NUL-terminated string for known dtypes.
        let name = unsafe { CStr::from_ptr(sys::tensor_dtype_name(self.code())) };
        name.to_str().expect("dtype names are ASCII")
    }

    /// The kind of dtype, in PyTorch's promotion order.
    pub fn kind(self) -> Kind {
        // SAFETY: a plain query.
        match unsafe { sys::tensor_dtype_kind(self.code()) } {
            sys::TENSOR_KIND_BOOL => Kind::Bool,
            sys::TENSOR_KIND_INT => Kind::Int,
            sys::TENSOR_KIND_FLOAT => Kind::Float,
            sys::TENSOR_KIND_COMPLEX => Kind::Complex,
            other => unreachable!("the library gave kind {other} for a known dtype"),
        }
    }

    /// `torch.dtype.is_signed`: the signed integers and every float and complex dtype.
    pub fn is_signed(self) -> bool {
        // SAFETY: a plain query.
        unsafe { sys::tensor_dtype_is_signed(self.code()) != 0 }
    }

    /// `torch.promote_types(self, other)`: the dtype binary operations on tensors of
    /// these dtypes compute in; `Err(DType)` for `UInt64` with a signed integer
    /// (exactly where [`Tensor::result_type`](crate::Tensor::result_type) fails).
    ///
    /// ```
    /// use ctensor::DType;
    /// assert_eq!(DType::UInt32.promote_types(DType::Int32)?, DType::Int64);
    /// assert!(DType::UInt64.promote_types(DType::Int64).is_err());
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn promote_types(self, other: DType) -> crate::error::Result<DType> {
        let mut dtype = 0;
        // SAFETY: a valid out pointer.
        crate::error::check(unsafe { sys::tensor_promote_types(&mut dtype, self.code(), other.code()) })?;
        Ok(DType::from_raw(dtype))
    }

    pub(crate) fn from_raw(code: i32) -> DType {
        DType::from_code(code).expect("the library returned an unknown dtype")
    }
}

/// Kinds of dtype (the C `TENSOR_KIND_*` values), in PyTorch's type-promotion order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(i32)]
pub enum Kind {
    Bool = sys::TENSOR_KIND_BOOL,
    /// Signed and unsigned integers.
    Int = sys::TENSOR_KIND_INT,
    /// float16, bfloat16, float32, float64.
    Float = sys::TENSOR_KIND_FLOAT,
    /// complex64, complex128.
    Complex = sys::TENSOR_KIND_COMPLEX,
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that holds one element of a dtype, with the same size and layout.
///
/// Sealed: implemented for `u8 i8 i16 i32 i64 u16 u32 u64 f32 f64 bool`,
/// [`half::f16`], [`half::bf16`], [`Complex<f32>`] and [`Complex<f64>`].
pub trait Element: sealed::Sealed + Copy + Send + Sync + 'static {
    /// The dtype this type holds.
    const DTYPE: DType;

    /// Reads one element from memory the library wrote, at any alignment.
    ///
    /// # Safety
    /// `p` must point at `size_of::<Self>()` readable bytes.
    #[doc(hidden)]
    unsafe fn read(p: *const u8) -> Self {
        std::ptr::read_unaligned(p.cast::<Self>())
    }

    /// Whether every bit pattern is a valid `Self` (all but `bool`).
    #[doc(hidden)]
    const ANY_BITS_VALID: bool = true;

    /// Whether these bytes are a valid `Self`.
    #[doc(hidden)]
    fn is_valid(_bytes: &[u8]) -> bool {
        true
    }
}

macro_rules! elements {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
        }
    )*};
}

elements! {
    u8 => UInt8, i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u16 => UInt16, u32 => UInt32, u64 => UInt64, f32 => Float32, f64 => Float64,
    f16 => Float16, bf16 => BFloat16, Complex<f32> => Complex64, Complex<f64> => Complex128,
}

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    const ANY_BITS_VALID: bool = false;

    /// Any non-zero byte is `true` (as the library's conversions treat it).
    unsafe fn read(p: *const u8) -> bool {
        *p != 0
    }

    fn is_valid(bytes: &[u8]) -> bool {
        bytes[0] <= 1
    }
}

/// `Err(DType)` unless the tensor's dtype is `T`'s.
pub(crate) fn expect_dtype<T: Element>(op: &str, actual: DType) -> Result<()> {
    if actual == T::DTYPE {
        return Ok(());
    }
    Err(Error::new(
        Status::DType,
        format!(
            "{op}: tensor has dtype {actual}, but the element type {} holds {}",
            std::any::type_name::<T>(),
            T::DTYPE
        ),
    ))
}

/// Converts `src` into `dst` element by element with the library's conversion
/// rules (those of [`Tensor::copy_from`](crate::Tensor::copy_from): float to
/// integer truncates and saturates, anything to `bool` is `x != 0`), without
/// making tensors. `Err(Shape)` when the lengths differ.
///
/// ```
/// use ctensor::convert;
/// let mut out = [0u8; 4];
/// convert(&mut out, &[-1.5f64, 2.7, 300.0, f64::NAN])?;
/// assert_eq!(out, [0, 2, 255, 0]);
/// let mut flags = [false; 2];
/// convert(&mut flags, &[0i64, -7])?;
/// assert_eq!(flags, [false, true]);
/// # Ok::<(), ctensor::Error>(())
/// ```
#[cfg(feature = "experimental")]
pub fn convert<D: Element, S: Element>(dst: &mut [D], src: &[S]) -> Result<()> {
    if dst.len() != src.len() {
        return Err(Error::new(
            Status::Shape,
            format!("convert: {} destination elements for {} source elements", dst.len(), src.len()),
        ));
    }
    // SAFETY: both slices hold len elements of their dtypes and cannot overlap
    // (one is borrowed mutably); every value the library writes is valid for D.
    crate::error::check(unsafe {
        sys::tensor_convert(dst.as_mut_ptr().cast(), D::DTYPE.code(), src.as_ptr().cast(), S::DTYPE.code(), src.len() as i64)
    })
}
