//! Safe Rust API for libctensor: PyTorch's memory model (refcounted storages,
//! tensors as bounds-checked strided views onto them) behind a stable C ABI.
//!
//! ```
//! use ctensor::{DType, Tensor};
//!
//! let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?; // zero-copy
//! let tt = t.transpose(0, 1)?;                                              // a view
//! assert_eq!((tt.sizes(), tt.strides()), (&[3, 2][..], &[1, 3][..]));
//! assert_eq!(tt.to_vec::<f32>()?, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
//! let err = t.as_strided(&[2, 3], None, 1).unwrap_err();                     // out of bounds
//! assert_eq!(err.status, ctensor::Status::Bounds);
//! assert_eq!(t.to(DType::Int64)?.to_vec::<i64>()?, [1, 2, 3, 4, 5, 6]);
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! Handles ([`Tensor`], [`Storage`]) are refcounted: `Clone` is a new reference,
//! `Drop` releases one, in any order and on any thread. Every failure is an
//! [`Error`] with the library's [`Status`] and message. Element access is
//! borrow-checked per byte range, so safe code never sees a write race or two
//! aliasing `&mut` (see [`Tensor`]).
//!
//! Misuse that safe code cannot even express does not compile: a handle used
//! after it was released,
//!
//! ```compile_fail,E0382
//! let t = ctensor::Tensor::zeros(ctensor::DType::Float32, &[2])?;
//! drop(t);
//! let n = t.numel(); // use of moved value
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! a slice that outlives its tensor,
//!
//! ```compile_fail,E0505
//! let t = ctensor::Tensor::zeros(ctensor::DType::Float32, &[2])?;
//! let s = t.as_slice::<f32>()?;
//! drop(t); // cannot move out of `t` while it is borrowed
//! let first = s[0];
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! element slices sent to a thread that may outlive their tensor (handles are
//! `Send + Sync`: [`Tensor`], [`Storage`], [`SafeTensors`], the DLPack capsules
//! and the element guards; the C library's only per-thread state is the last
//! error message, which every wrapper reads right after its call),
//!
//! ```compile_fail,E0597
//! let t = ctensor::Tensor::zeros(ctensor::DType::Float32, &[2])?;
//! let s = t.as_slice::<f32>()?;
//! std::thread::spawn(move || s[0]); // `t` does not live long enough
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! and an element type that holds no dtype:
//!
//! ```compile_fail,E0277
//! let t = ctensor::Tensor::zeros(ctensor::DType::Int64, &[2])?;
//! let v = t.to_vec::<usize>()?; // usize is not an Element
//! # Ok::<(), ctensor::Error>(())
//! ```
//!
//! Features: `ndarray` adds [`Tensor::as_array`], [`Tensor::as_array_mut`] and
//! [`Tensor::from_array`].

#[cfg(feature = "experimental")]
mod advanced;
mod borrow;
mod creation;
mod dlpack;
mod dtype;
mod elements;
mod error;
mod files;
mod math;
mod storage;
mod tensor;
mod unary;

#[cfg(feature = "ndarray")]
mod array;
#[cfg(feature = "arrow")]
mod arrow;

pub use ctensor_sys as sys;
pub use dlpack::{Dlpack, DlpackLegacyTensor, DlpackTensor, ManagedTensor};
pub use dtype::{DType, Element, Kind};
#[cfg(feature = "experimental")]
pub use dtype::convert;
pub use elements::{Iter, Slice, SliceMut};
pub use error::{Error, Result, Status};
pub use files::{LoadMode, LoadOptions, MapMode, SafeTensors};
pub use math::BinaryOp;
pub use half::{bf16, f16};
pub use num_complex::Complex;
pub use storage::Storage;
pub use unary::UnaryOp;
pub use tensor::{CopyMode, Index, IndexInt, SliceRange, Tensor};
#[cfg(feature = "experimental")]
pub use tensor::{Conversion, MemoryFormat, ToOptions};

#[cfg(feature = "ndarray")]
pub use array::{ArrayRead, ArrayWrite};

/// The library's version string, e.g. `"0.2.0"`.
pub fn version() -> &'static str {
    // SAFETY: a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(sys::tensor_version_string()) }.to_str().expect("ASCII version")
}

/// Sets how many threads a large copy, element-wise op or reduction may use
/// (process-wide; results never change).
pub fn set_num_threads(n: i32) -> Result<()> {
    // SAFETY: a plain call.
    error::check(unsafe { sys::tensor_set_num_threads(n) })
}

/// The thread count set by [`set_num_threads`]; until then `CTENSOR_NUM_THREADS`
/// when it holds a positive integer, else the number of CPUs the process may use.
pub fn num_threads() -> i32 {
    // SAFETY: a plain call.
    unsafe { sys::tensor_get_num_threads() }
}

/// The README's examples, run as doc tests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
