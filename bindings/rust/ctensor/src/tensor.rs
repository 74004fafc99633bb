//! Tensors: refcounted strided views, their constructors, views and copies.

use std::fmt;
use std::ptr::{self, NonNull};

use ctensor_sys as sys;

use crate::borrow::{self, Access};
use crate::dtype::{DType, Element};
use crate::error::{check, Error, Result, Status};
use crate::storage::Storage;

/// A strided view (dtype, sizes, strides, storage offset) onto a [`Storage`]:
/// PyTorch's memory model. Views share the storage; the tensor they were made
/// from is never changed.
///
/// `Clone` adds a reference to the same handle (`tensor_retain`) and `Drop`
/// removes one; a tensor holds its storage, so handles may be dropped in any
/// order. To copy the elements use [`Tensor::clone_data`].
///
/// `Tensor` is `Send + Sync`. Its metadata never changes after creation, so
/// sharing it is always safe. Its *elements* may be shared with other tensors
/// (and with other threads); every access to them is borrow-checked at run time
/// per byte range: any number of readers ([`Tensor::as_slice`], iterators, array
/// views, the copies the library makes) or one writer ([`Tensor::as_slice_mut`],
/// [`Tensor::fill`], [`Tensor::copy_from`]). A conflicting access fails with
/// [`Status::Overlap`] rather than racing.
pub struct Tensor {
    raw: NonNull<sys::tensor_t>,
}

// SAFETY: tensor handles are immutable and atomically refcounted; element memory
// is only touched under the borrow registry.
unsafe impl Send for Tensor {}
unsafe impl Sync for Tensor {}

/// How [`Tensor::to_with`] may share memory (torch.asarray's `copy=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyMode {
    /// Share when the dtype already matches (`copy=None`).
    IfNeeded,
    /// Always make a new tensor (`copy=True`).
    Always,
    /// Fail with [`Status::Copy`] when a copy would be needed (`copy=False`).
    Never,
}

impl CopyMode {
    fn code(self) -> i32 {
        match self {
            CopyMode::IfNeeded => sys::TENSOR_COPY_IF_NEEDED,
            CopyMode::Always => sys::TENSOR_COPY_ALWAYS,
            CopyMode::Never => sys::TENSOR_COPY_NEVER,
        }
    }
}

/// The layout of a tensor made like another ([`Tensor::empty_like`],
/// [`Tensor::to_with_options`]): PyTorch's `memory_format=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg(feature = "experimental")]
pub enum MemoryFormat {
    /// `torch.preserve_format`: the source's own strides when it is non-overlapping
    /// and dense (or has no elements), else dense strides in its dims' stride order
    /// (a transposed tensor stays column-major); PyTorch's strides exactly.
    #[default]
    Preserve,
    /// `torch.contiguous_format`: C order.
    Contiguous,
}

#[cfg(feature = "experimental")]
impl MemoryFormat {
    fn code(self) -> i32 {
        match self {
            MemoryFormat::Preserve => sys::TENSOR_PRESERVE_FORMAT,
            MemoryFormat::Contiguous => sys::TENSOR_CONTIGUOUS_FORMAT,
        }
    }
}

/// How elements convert between dtypes ([`Tensor::copy_from_with`],
/// [`Tensor::to_with_options`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg(feature = "experimental")]
pub enum Conversion {
    /// The library's rules, as [`Tensor::copy_from`] and [`Tensor::to`] convert:
    /// float to integer truncates and saturates (NaN to 0), 16-bit floats round once.
    #[default]
    Library,
    /// PyTorch 1.13's results on x86-64: float to int8/int16/int32 through a 32-bit
    /// truncation and to uint8/int64 through a 64-bit one, keeping the low bits
    /// (`-3.7` to u8 253, NaN and out-of-range values through `INT_MIN`); float64,
    /// complex128, int32 and int64 to f16/bf16 rounded through f32; complex to bool
    /// by the real part. The dtypes PyTorch 1.13 lacks (u16, u32, u64) keep the
    /// library's rules.
    TorchX86,
}

#[cfg(feature = "experimental")]
impl Conversion {
    fn code(self) -> u32 {
        match self {
            Conversion::Library => sys::TENSOR_CONVERT_LIBRARY,
            Conversion::TorchX86 => sys::TENSOR_CONVERT_TORCH_X86,
        }
    }
}

/// What [`Tensor::to_with_options`] does: PyTorch's `Tensor.to(dtype, copy=...,
/// memory_format=...)` and the conversion policy. The default is
/// `{ IfNeeded, Preserve, Library }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(feature = "experimental")]
pub struct ToOptions {
    /// When to share instead of copying (the memory format never decides it).
    pub copy: CopyMode,
    /// The layout of a copy.
    pub memory_format: MemoryFormat,
    /// How the elements convert.
    pub conversion: Conversion,
}

#[cfg(feature = "experimental")]
impl Default for ToOptions {
    fn default() -> ToOptions {
        ToOptions { copy: CopyMode::IfNeeded, memory_format: MemoryFormat::Preserve, conversion: Conversion::Library }
    }
}

/// One item of [`Tensor::index`]: NumPy/PyTorch basic indexing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Index {
    /// An integer (negative counts from the end); removes the dim.
    Int(i64),
    /// `start:stop:step` as [`Tensor::slice`] takes them (`None`: an open end).
    Slice { start: Option<i64>, stop: Option<i64>, step: i64 },
    /// `None` / `np.newaxis`: a new dim of size 1.
    NewAxis,
    /// `...`: the dims that no integer or slice names.
    Ellipsis,
    /// `True` (a new dim of size 1) or `False` (a new dim of size 0).
    Bool(bool),
}

impl Index {
    /// `..` (a whole dim).
    pub const FULL: Index = Index::Slice { start: None, stop: None, step: 1 };

    /// `range` with `step` (the `start..stop;step` of [`s!`](crate::s)); Python's
    /// meaning, so `Index::stepped(.., -1)` is `::-1`.
    pub fn stepped(range: impl SliceRange, step: i64) -> Index {
        let (start, stop) = range.bounds();
        Index::Slice { start, stop, step }
    }

    /// The C kind and three values.
    fn encode(self) -> (i32, [i64; 3]) {
        match self {
            Index::Int(i) => (sys::TENSOR_INDEX_INT, [i, 0, 0]),
            Index::Slice { start, stop, step } => {
                let (start, stop) = slice_bounds(start, stop, step);
                (sys::TENSOR_INDEX_SLICE, [start, stop, step])
            }
            Index::NewAxis => (sys::TENSOR_INDEX_NEWAXIS, [0; 3]),
            Index::Ellipsis => (sys::TENSOR_INDEX_ELLIPSIS, [0; 3]),
            Index::Bool(b) => (sys::TENSOR_INDEX_BOOL, [i64::from(b), 0, 0]),
        }
    }
}

/// An integer taken as an index, a position or a count: `i64` (negative values
/// count from the end where the operation says so), and `usize`, `isize`, `u32`
/// and `i32` (the type an unsuffixed literal falls back to), so `t.select(0, n)`
/// and `s![..n]` compile with a `usize` `n`. A `usize` above `i64::MAX` becomes
/// `i64::MAX`, which no dim reaches: the library then reports it out of range
/// (or clamps it, as a slice bound), never a wrapped negative index.
pub trait IndexInt: Copy + sealed::Sealed {
    /// The value as the library's `int64_t`.
    fn to_i64(self) -> i64;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! index_ints {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl IndexInt for $t {
            fn to_i64(self) -> i64 {
                i64::try_from(self).unwrap_or(i64::MAX)
            }
        }
        impl From<$t> for Index {
            fn from(i: $t) -> Index {
                Index::Int(i.to_i64())
            }
        }
        slice_ranges! {
            std::ops::Range<$t> => |r| (Some(r.start.to_i64()), Some(r.end.to_i64()));
            std::ops::RangeFrom<$t> => |r| (Some(r.start.to_i64()), None);
            std::ops::RangeTo<$t> => |r| (None, Some(r.end.to_i64()));
        }
    )*};
}

impl From<bool> for Index {
    fn from(b: bool) -> Index {
        Index::Bool(b)
    }
}

/// The ranges that name a slice: `a..b`, `a..`, `..b` and `..` (Python's `a:b`,
/// `a:`, `:b`, `:`; negative bounds count from the end), of any [`IndexInt`].
pub trait SliceRange {
    /// `(start, stop)`, `None` for an open end.
    fn bounds(self) -> (Option<i64>, Option<i64>);
}

macro_rules! slice_ranges {
    ($($range:ty => |$r:ident| $bounds:expr;)*) => {$(
        impl SliceRange for $range {
            fn bounds(self) -> (Option<i64>, Option<i64>) {
                let $r = self;
                $bounds
            }
        }
        impl From<$range> for Index {
            fn from(range: $range) -> Index {
                Index::stepped(range, 1)
            }
        }
    )*};
}

slice_ranges! {
    std::ops::RangeFull => |_r| (None, None);
}

index_ints!(i64, i32, isize, usize, u32);

/// NumPy/PyTorch basic indexing as an array of [`Index`] items for
/// [`Tensor::index`]: integers, ranges (`a..b`, `a..`, `..b`, `..`; of `i64`,
/// `usize` or any [`IndexInt`]), a
/// range with a step after `;` (`1..10;2`, `..;-1`, Python's meaning), `NewAxis`,
/// `...` (the ellipsis) and any expression convertible to [`Index`] (a `bool`, an
/// `Index`). Bounds and steps are checked by the library: a step of 0 or an
/// integer out of range is an `Err`, never a panic.
///
/// ```
/// use ctensor::{s, Tensor};
/// let t = Tensor::from_slice(&(0..24).collect::<Vec<i32>>(), &[2, 3, 4])?;
/// // t[-1, ..., None, 1::2]
/// let v = t.index(s![-1, ..., NewAxis, 1..;2])?;
/// assert_eq!(v.sizes(), [3, 1, 2]);
/// assert_eq!(t.index(s![0, 1, ..;-1])?.to_vec::<i32>()?, [7, 6, 5, 4]);
/// assert_eq!(t.index(s![.., 1..3, 3])?.to_vec::<i32>()?, [7, 11, 19, 23]);
/// assert_eq!(t.index(s![0, 0, ..;0]).unwrap_err().status, ctensor::Status::Invalid);
/// # Ok::<(), ctensor::Error>(())
/// ```
#[macro_export]
macro_rules! s {
    (@items [$($item:expr,)*]) => { [$($item,)*] };
    (@items [$($item:expr,)*] ... $(, $($rest:tt)*)?) => {
        $crate::s!(@items [$($item,)* $crate::Index::Ellipsis,] $($($rest)*)?)
    };
    (@items [$($item:expr,)*] NewAxis $(, $($rest:tt)*)?) => {
        $crate::s!(@items [$($item,)* $crate::Index::NewAxis,] $($($rest)*)?)
    };
    (@items [$($item:expr,)*] $range:expr ; $step:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@items [$($item,)* $crate::Index::stepped($range, $step),] $($($rest)*)?)
    };
    (@items [$($item:expr,)*] $index:expr $(, $($rest:tt)*)?) => {
        $crate::s!(@items [$($item,)* <$crate::Index as ::core::convert::From<_>>::from($index),] $($($rest)*)?)
    };
    ($($items:tt)*) => { $crate::s!(@items [] $($items)*) };
}

/// A slice's bounds with `None` as the C open ends: the bound past which
/// clamping reaches the first or last element in the step's direction.
fn slice_bounds(start: Option<i64>, stop: Option<i64>, step: i64) -> (i64, i64) {
    let (open_start, open_stop) =
        if step < 0 { (sys::TENSOR_SLICE_END, i64::MIN) } else { (i64::MIN, sys::TENSOR_SLICE_END) };
    (start.unwrap_or(open_start), stop.unwrap_or(open_stop))
}

/// Runs a snprintf-style split twice: for the count, then to fill that many handles.
#[cfg(feature = "experimental")]
fn pieces(split: impl Fn(*mut *mut sys::tensor_t, i64, *mut i64) -> sys::tensor_status_t) -> Result<Vec<Tensor>> {
    let mut count = 0;
    check(split(ptr::null_mut(), 0, &mut count))?;
    let mut out = vec![ptr::null_mut(); count as usize];
    // On failure the library leaves every handle NULL, so nothing leaks.
    check(split(out.as_mut_ptr(), count, &mut count))?;
    Ok(out.into_iter().map(Tensor::from_new_reference).collect())
}

fn ndim_of(sizes: &[i64]) -> i64 {
    sizes.len() as i64
}

/// The pointer C reads `n` entries from: NULL only for an empty array.
fn opt_ptr(values: Option<&[i64]>) -> *const i64 {
    values.map_or(ptr::null(), <[i64]>::as_ptr)
}

impl Tensor {
    /// Takes over a reference the library gave out (non-null after `TENSOR_OK`).
    pub(crate) fn from_new_reference(raw: *mut sys::tensor_t) -> Tensor {
        Tensor { raw: NonNull::new(raw).expect("the library returned TENSOR_OK with a NULL tensor") }
    }

    /// Runs a C function that writes a new tensor through `out`.
    pub(crate) fn make(f: impl FnOnce(*mut *mut sys::tensor_t) -> sys::tensor_status_t) -> Result<Tensor> {
        let mut out = ptr::null_mut();
        check(f(&mut out))?;
        Ok(Tensor::from_new_reference(out))
    }

    /// The C handle, borrowed (valid while `self` lives).
    pub fn as_raw(&self) -> *mut sys::tensor_t {
        self.raw.as_ptr()
    }

    /// Gives up this reference as a C handle the caller must release.
    pub fn into_raw(self) -> *mut sys::tensor_t {
        let raw = self.raw.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// Takes over one reference to a C handle; `None` for NULL.
    ///
    /// # Safety
    /// `raw` must be NULL or a live tensor whose reference the caller owns and gives up.
    pub unsafe fn from_raw(raw: *mut sys::tensor_t) -> Option<Tensor> {
        NonNull::new(raw).map(|raw| Tensor { raw })
    }

    // ----- creation -------------------------------------------------------

    /// A new zero-filled contiguous tensor.
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// let t = Tensor::zeros(DType::Float32, &[2, 3])?;
    /// assert_eq!(t.to_vec::<f32>()?, vec![0.0; 6]);
    /// assert_eq!(Tensor::zeros(DType::Float32, &[-1]).unwrap_err().status, ctensor::Status::Invalid);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn zeros(dtype: DType, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has ndim entries.
        Tensor::make(|out| unsafe { sys::tensor_zeros(out, ndim_of(sizes), sizes.as_ptr(), dtype.code()) })
    }

    /// A new contiguous tensor whose contents are unspecified (not zero-filled;
    /// always some bytes the process wrote or the system zeroed).
    pub fn empty(dtype: DType, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has ndim entries.
        Tensor::make(|out| unsafe { sys::tensor_empty(out, ndim_of(sizes), sizes.as_ptr(), dtype.code()) })
    }

    /// A new contiguous tensor holding a copy of `data` (C order); `data` must
    /// have exactly as many elements as `sizes` gives.
    ///
    /// ```
    /// use ctensor::{Status, Tensor};
    /// let t = Tensor::from_slice(&[1i32, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(t.transpose(0, 1)?.to_vec::<i32>()?, [1, 4, 2, 5, 3, 6]);
    /// assert_eq!(Tensor::from_slice(&[1i32, 2], &[3]).unwrap_err().status, Status::Shape);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_slice<T: Element>(data: &[T], sizes: &[i64]) -> Result<Tensor> {
        // The library checks the sizes; the element count is then compared with data's.
        let t = Tensor::empty(T::DTYPE, sizes)?;
        t.expect_numel("from_slice", data.len())?;
        if !data.is_empty() {
            // SAFETY: t is a new contiguous, aligned tensor of data.len() elements
            // that nothing else references yet.
            unsafe { ptr::copy_nonoverlapping(data.as_ptr(), t.data_ptr().cast::<T>(), data.len()) };
        }
        Ok(t)
    }

    /// A contiguous tensor that takes over `data` without copying. The `Vec` is
    /// dropped when the last view of it goes away, on whichever thread that is.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let v = vec![1.0f64, 2.0, 3.0, 4.0];
    /// let address = v.as_ptr();
    /// let t = Tensor::from_vec(v, &[2, 2])?;
    /// assert_eq!(t.data_ptr() as *const f64, address);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_vec<T: Element>(data: Vec<T>, sizes: &[i64]) -> Result<Tensor> {
        let len = data.len();
        let t = Tensor::from_storage(&Storage::from_vec(data, false)?, T::DTYPE, sizes, None, 0)?;
        t.expect_numel("from_vec", len)?;
        Ok(t)
    }

    /// A view of `storage` (which gains a reference). `strides` `None` means
    /// contiguous; every element must lie inside the storage.
    pub fn from_storage(
        storage: &Storage,
        dtype: DType,
        sizes: &[i64],
        strides: Option<&[i64]>,
        storage_offset: i64,
    ) -> Result<Tensor> {
        same_len("from_storage", sizes, strides)?;
        // SAFETY: sizes and strides have ndim entries; storage is live.
        Tensor::make(|out| unsafe {
            sys::tensor_from_storage(
                out,
                storage.as_raw(),
                dtype.code(),
                ndim_of(sizes),
                sizes.as_ptr(),
                opt_ptr(strides),
                storage_offset,
            )
        })
    }

    fn expect_numel(&self, op: &str, len: usize) -> Result<()> {
        if self.numel() == len {
            return Ok(());
        }
        Err(Error::new(
            Status::Shape,
            format!("{op}: sizes {:?} hold {} elements but the data has {len}", self.sizes(), self.numel()),
        ))
    }

    // ----- inspection -----------------------------------------------------

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        // SAFETY: live handle.
        unsafe { sys::tensor_ndim(self.as_raw()) as usize }
    }

    /// Sizes, one per dim.
    pub fn sizes(&self) -> &[i64] {
        // SAFETY: the library's array has ndim entries and lives as long as the tensor.
        unsafe { std::slice::from_raw_parts(sys::tensor_sizes(self.as_raw()), self.ndim()) }
    }

    /// Strides in elements, one per dim (negative and zero allowed).
    pub fn strides(&self) -> &[i64] {
        // SAFETY: as sizes().
        unsafe { std::slice::from_raw_parts(sys::tensor_strides(self.as_raw()), self.ndim()) }
    }

    /// Offset of element `[0, ..., 0]` from the storage start, in elements.
    pub fn storage_offset(&self) -> i64 {
        // SAFETY: live handle.
        unsafe { sys::tensor_storage_offset(self.as_raw()) }
    }

    /// Element type.
    pub fn dtype(&self) -> DType {
        // SAFETY: live handle.
        DType::from_raw(unsafe { sys::tensor_dtype(self.as_raw()) })
    }

    /// Number of elements (1 for a 0-dim tensor).
    pub fn numel(&self) -> usize {
        // SAFETY: live handle.
        unsafe { sys::tensor_numel(self.as_raw()) as usize }
    }

    /// Whether the elements are contiguous in C order (PyTorch's rule).
    pub fn is_contiguous(&self) -> bool {
        // SAFETY: live handle.
        unsafe { sys::tensor_is_contiguous(self.as_raw()) != 0 }
    }

    /// Whether the storage is read-only.
    pub fn is_readonly(&self) -> bool {
        // SAFETY: live handle.
        unsafe { sys::tensor_is_readonly(self.as_raw()) != 0 }
    }

    /// Address of element `[0, ..., 0]`. Using it is `unsafe` and bypasses the
    /// borrow checks.
    pub fn data_ptr(&self) -> *mut u8 {
        // SAFETY: live handle.
        unsafe { sys::tensor_data(self.as_raw()).cast() }
    }

    /// The storage viewed (a new reference).
    pub fn storage(&self) -> Storage {
        // SAFETY: the borrowed storage is retained before it is wrapped.
        let raw = unsafe { sys::tensor_storage_retain(sys::tensor_storage(self.as_raw())) };
        Storage::from_new_reference(raw)
    }

    /// Where the memory lives, as a DLPack `(device_type, device_id)`: `(1, 0)`
    /// (kDLCPU) for everything but DLPack imports from other devices.
    pub fn device(&self) -> (i32, i32) {
        let (mut kind, mut id) = (0, 0);
        // SAFETY: live handle and valid out pointers.
        unsafe { sys::tensor_device(self.as_raw(), &mut kind, &mut id) };
        (kind, id)
    }

    /// The current reference count of this handle.
    pub fn refcount(&self) -> i64 {
        // SAFETY: live handle.
        unsafe { sys::tensor_refcount(self.as_raw()) }
    }

    // ----- views ----------------------------------------------------------

    /// `torch.as_strided` onto this tensor's storage; `strides` `None` is contiguous.
    pub fn as_strided(&self, sizes: &[i64], strides: Option<&[i64]>, storage_offset: i64) -> Result<Tensor> {
        same_len("as_strided", sizes, strides)?;
        // SAFETY: sizes and strides have ndim entries.
        Tensor::make(|out| unsafe {
            sys::tensor_as_strided(out, self.as_raw(), ndim_of(sizes), sizes.as_ptr(), opt_ptr(strides), storage_offset)
        })
    }

    /// `Tensor.view(sizes)`; one size may be -1.
    pub fn view(&self, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has ndim entries.
        Tensor::make(|out| unsafe { sys::tensor_view(out, self.as_raw(), ndim_of(sizes), sizes.as_ptr()) })
    }

    /// `Tensor.reshape(sizes)`: a view where possible, else a contiguous copy.
    pub fn reshape(&self, sizes: &[i64]) -> Result<Tensor> {
        let _read = self.borrow("reshape", Access::Shared)?;
        // SAFETY: sizes has ndim entries; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_reshape(out, self.as_raw(), ndim_of(sizes), sizes.as_ptr()) })
    }

    /// Swaps two dims.
    pub fn transpose(&self, dim0: i64, dim1: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_transpose(out, self.as_raw(), dim0, dim1) })
    }

    /// Reorders dims: result dim `i` is input dim `dims[i]`.
    pub fn permute(&self, dims: &[i64]) -> Result<Tensor> {
        // SAFETY: dims has ndim entries.
        Tensor::make(|out| unsafe { sys::tensor_permute(out, self.as_raw(), ndim_of(dims), dims.as_ptr()) })
    }

    /// `t[start:stop:step]` along `dim`, with Python's clamping and negative
    /// indices; `None` is an open end, `step` may be negative (a reversed view).
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[0u8, 1, 2, 3, 4], &[5])?;
    /// assert_eq!(t.slice(0, None, None, -2)?.to_vec::<u8>()?, [4, 2, 0]);
    /// assert_eq!(t.slice(0, Some(-3), None, 1)?.to_vec::<u8>()?, [2, 3, 4]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn slice(&self, dim: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> Result<Tensor> {
        let (start, stop) = slice_bounds(start, stop, step);
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_slice(out, self.as_raw(), dim, start, stop, step) })
    }

    /// `t[items]` with NumPy/PyTorch basic indexing, in one view (as the chain of
    /// `select`, `slice` and `unsqueeze` would give, errors included).
    ///
    /// ```
    /// use ctensor::{Index, Tensor};
    /// let t = Tensor::from_slice(&(0..24).collect::<Vec<i32>>(), &[2, 3, 4])?;
    /// // t[-1, ..., None, 1::2], as PyTorch 1.13 lays it out
    /// let v = t.index(&[
    ///     Index::Int(-1),
    ///     Index::Ellipsis,
    ///     Index::NewAxis,
    ///     Index::Slice { start: Some(1), stop: None, step: 2 },
    /// ])?;
    /// assert_eq!((v.sizes(), v.strides()), (&[3, 1, 2][..], &[4, 4, 2][..]));
    /// assert_eq!(v.to_vec::<i32>()?, [13, 15, 17, 19, 21, 23]);
    /// // negative steps too: t[0, 0, ::-1]
    /// let r = t.index(&[Index::Int(0), Index::Int(0), Index::Slice { start: None, stop: None, step: -1 }])?;
    /// assert_eq!(r.to_vec::<i32>()?, [3, 2, 1, 0]);
    /// assert_eq!(t.index(&[Index::FULL, Index::Int(3)]).unwrap_err().status, ctensor::Status::Bounds);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn index(&self, items: impl AsRef<[Index]>) -> Result<Tensor> {
        let (kinds, values): (Vec<i32>, Vec<[i64; 3]>) = items.as_ref().iter().map(|item| item.encode()).unzip();
        let values: Vec<i64> = values.concat();
        // SAFETY: kinds has n entries and values 3n.
        Tensor::make(|out| unsafe {
            sys::tensor_index(out, self.as_raw(), kinds.len() as i64, kinds.as_ptr(), values.as_ptr())
        })
    }

    /// `t.select(dim, index)`, removing `dim`; a negative index counts from the end.
    /// The index may be any [`IndexInt`] (`t.select(0, n)` with `n: usize`).
    pub fn select(&self, dim: i64, index: impl IndexInt) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_select(out, self.as_raw(), dim, index.to_i64()) })
    }

    /// `t.narrow(dim, start, length)`; `start` and `length` any [`IndexInt`].
    pub fn narrow(&self, dim: i64, start: impl IndexInt, length: impl IndexInt) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_narrow(out, self.as_raw(), dim, start.to_i64(), length.to_i64()) })
    }

    /// `t.expand(sizes)`: size-1 and new leading dims get stride 0; -1 keeps a size.
    pub fn expand(&self, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has ndim entries.
        Tensor::make(|out| unsafe { sys::tensor_expand(out, self.as_raw(), ndim_of(sizes), sizes.as_ptr()) })
    }

    /// `torch.broadcast_to(t, sizes)`: the same view as [`Tensor::expand`].
    pub fn broadcast_to(&self, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has ndim entries.
        Tensor::make(|out| unsafe {
            sys::tensor_broadcast_to(out, self.as_raw(), ndim_of(sizes), sizes.as_ptr())
        })
    }

    /// `torch.broadcast_tensors(*tensors)`: a view of each tensor expanded (as
    /// [`Tensor::expand`]) to the shape they all broadcast to. `Err(Shape)` when
    /// two of them do not broadcast (the message names both).
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let a = Tensor::from_slice(&[1i32, 2, 3], &[3])?;
    /// let b = Tensor::from_slice(&[10i32, 20], &[2, 1])?;
    /// let v = Tensor::broadcast_tensors(&[&a, &b])?;
    /// assert_eq!((v[0].sizes(), v[0].strides()), (&[2, 3][..], &[0, 1][..]));
    /// assert_eq!(v[1].to_vec::<i32>()?, [10, 10, 10, 20, 20, 20]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    #[cfg(feature = "experimental")]
    pub fn broadcast_tensors(tensors: &[&Tensor]) -> Result<Vec<Tensor>> {
        let raws: Vec<*const sys::tensor_t> = tensors.iter().map(|t| t.as_raw().cast_const()).collect();
        let mut out = vec![ptr::null_mut(); raws.len()];
        // SAFETY: out and raws hold n entries each; on failure every out is NULL.
        check(unsafe { sys::tensor_broadcast_tensors(out.as_mut_ptr(), raws.len() as i64, raws.as_ptr()) })?;
        Ok(out.into_iter().map(Tensor::from_new_reference).collect())
    }

    /// Removes `dim` if its size is 1 (else the view is unchanged).
    pub fn squeeze(&self, dim: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_squeeze(out, self.as_raw(), dim) })
    }

    /// Removes every size-1 dim.
    pub fn squeeze_all(&self) -> Result<Tensor> {
        self.squeeze(sys::TENSOR_ALL_DIMS)
    }

    /// Inserts a size-1 dim at `dim` (in `[-ndim-1, ndim]`).
    pub fn unsqueeze(&self, dim: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_unsqueeze(out, self.as_raw(), dim) })
    }

    /// `torch.flatten(t, start_dim, end_dim)`: a view where possible, else a copy.
    pub fn flatten(&self, start_dim: i64, end_dim: i64) -> Result<Tensor> {
        let _read = self.borrow("flatten", Access::Shared)?;
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_flatten(out, self.as_raw(), start_dim, end_dim) })
    }

    /// `Tensor.diagonal(offset, dim1, dim2)`: the diagonal of `dim1` and `dim2`
    /// (removed) as a new last dim; `offset > 0` is above the main diagonal.
    #[cfg(feature = "experimental")]
    pub fn diagonal(&self, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_diagonal(out, self.as_raw(), offset, dim1, dim2) })
    }

    /// `Tensor.unfold(dim, size, step)`: sliding windows of `size` along `dim`,
    /// walked by a new last dim.
    #[cfg(feature = "experimental")]
    pub fn unfold(&self, dim: i64, size: i64, step: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_unfold(out, self.as_raw(), dim, size, step) })
    }

    /// `torch.movedim(t, source, destination)`: dims `source[i]` move to
    /// `destination[i]`; the others keep their order.
    #[cfg(feature = "experimental")]
    pub fn movedim(&self, source: &[i64], destination: &[i64]) -> Result<Tensor> {
        if source.len() != destination.len() {
            return Err(Error::new(
                Status::Invalid,
                format!("movedim: {} source dims but {} destination dims", source.len(), destination.len()),
            ));
        }
        // SAFETY: source and destination have n entries each.
        Tensor::make(|out| unsafe {
            sys::tensor_movedim(out, self.as_raw(), ndim_of(source), source.as_ptr(), destination.as_ptr())
        })
    }

    /// `Tensor.unflatten(dim, sizes)`: `dim` split into `sizes` (one may be -1).
    #[cfg(feature = "experimental")]
    pub fn unflatten(&self, dim: i64, sizes: &[i64]) -> Result<Tensor> {
        // SAFETY: sizes has n entries.
        Tensor::make(|out| unsafe { sys::tensor_unflatten(out, self.as_raw(), dim, ndim_of(sizes), sizes.as_ptr()) })
    }

    /// `torch.atleast_1d` / `atleast_2d` / `atleast_3d` for `min_dims` 1, 2 or 3.
    #[cfg(feature = "experimental")]
    pub fn atleast(&self, min_dims: i64) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_atleast(out, self.as_raw(), min_dims) })
    }

    /// `torch.split(t, split_size, dim)`: views of `split_size` elements along
    /// `dim`, the last one shorter.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[0u8, 1, 2, 3, 4], &[5])?;
    /// let pieces: Vec<Vec<u8>> = t.split(2, 0)?.iter().map(|p| p.to_vec().unwrap()).collect();
    /// assert_eq!(pieces, [vec![0, 1], vec![2, 3], vec![4]]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    #[cfg(feature = "experimental")]
    pub fn split(&self, split_size: impl IndexInt, dim: i64) -> Result<Vec<Tensor>> {
        let split_size = split_size.to_i64();
        // SAFETY: out holds capacity handles (or is NULL with 0).
        pieces(|out, capacity, count| unsafe { sys::tensor_split(out, capacity, count, self.as_raw(), split_size, dim) })
    }

    /// `torch.split(t, sizes, dim)`: pieces of `sizes[i]`, which must sum to the dim's size.
    #[cfg(feature = "experimental")]
    pub fn split_with_sizes(&self, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>> {
        // SAFETY: as split; sizes has n entries.
        pieces(|out, capacity, count| unsafe {
            sys::tensor_split_with_sizes(out, capacity, count, self.as_raw(), ndim_of(sizes), sizes.as_ptr(), dim)
        })
    }

    /// `torch.chunk(t, chunks, dim)`: pieces of `ceil(size / chunks)`, so possibly fewer than `chunks`.
    #[cfg(feature = "experimental")]
    pub fn chunk(&self, chunks: impl IndexInt, dim: i64) -> Result<Vec<Tensor>> {
        let chunks = chunks.to_i64();
        // SAFETY: as split.
        pieces(|out, capacity, count| unsafe { sys::tensor_chunk(out, capacity, count, self.as_raw(), chunks, dim) })
    }

    /// `torch.tensor_split(t, sections, dim)`: exactly `sections` pieces, the first
    /// `size % sections` of them one longer (`np.array_split`).
    #[cfg(feature = "experimental")]
    pub fn tensor_split(&self, sections: impl IndexInt, dim: i64) -> Result<Vec<Tensor>> {
        let sections = sections.to_i64();
        // SAFETY: as split.
        pieces(|out, capacity, count| unsafe {
            sys::tensor_tensor_split(out, capacity, count, self.as_raw(), sections, dim)
        })
    }

    /// `torch.tensor_split(t, indices, dim)`: `indices.len() + 1` pieces cut at
    /// `indices` (clamped and wrapped as slice bounds).
    #[cfg(feature = "experimental")]
    pub fn tensor_split_indices(&self, indices: &[i64], dim: i64) -> Result<Vec<Tensor>> {
        // SAFETY: as split; indices has n entries (C reads none when n is 0).
        pieces(|out, capacity, count| unsafe {
            sys::tensor_tensor_split_indices(out, capacity, count, self.as_raw(), ndim_of(indices), indices.as_ptr(), dim)
        })
    }

    /// `Tensor.view(dtype)`: the same bytes read as another dtype (PyTorch 1.13's rules).
    pub fn view_dtype(&self, dtype: DType) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_view_dtype(out, self.as_raw(), dtype.code()) })
    }

    // ----- copies ---------------------------------------------------------

    /// `self` (one more reference) if contiguous, else a new contiguous copy.
    pub fn contiguous(&self) -> Result<Tensor> {
        let _read = self.borrow("contiguous", Access::Shared)?;
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_contiguous(out, self.as_raw()) })
    }

    /// A new contiguous, writable copy (`Tensor.clone()` in PyTorch).
    pub fn clone_data(&self) -> Result<Tensor> {
        let _read = self.borrow("clone", Access::Shared)?;
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_clone(out, self.as_raw()) })
    }

    /// `self[...] = src`: broadcasts `src` and converts its dtype; correct when
    /// the two share memory.
    pub fn copy_from(&self, src: &Tensor) -> Result<()> {
        let _borrow =
            borrow::acquire("copy", &[(self.span(), Access::Exclusive), (src.span(), Access::Shared)])?;
        // SAFETY: live handles; dst is borrowed for writing and src for reading.
        check(unsafe { sys::tensor_copy(self.as_raw(), src.as_raw()) })
    }

    /// This tensor as `dtype`, sharing when the dtype already matches.
    pub fn to(&self, dtype: DType) -> Result<Tensor> {
        self.to_with(dtype, CopyMode::IfNeeded)
    }

    /// This tensor as `dtype` with torch.asarray's copy rule.
    pub fn to_with(&self, dtype: DType, copy: CopyMode) -> Result<Tensor> {
        let _read = self.borrow("to", Access::Shared)?;
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_to(out, self.as_raw(), dtype.code(), copy.code()) })
    }

    /// `Tensor.to(dtype, copy=..., memory_format=...)` converting by a policy
    /// (experimental): shares under [`CopyMode::IfNeeded`] when the dtype matches,
    /// else a new writable tensor laid out as `options.memory_format` asks.
    /// `clone(memory_format=...)` is `to_with_options(self.dtype(), ...)` with
    /// [`CopyMode::Always`].
    ///
    /// ```
    /// use ctensor::{Conversion, CopyMode, DType, Tensor, ToOptions};
    /// let t = Tensor::from_slice(&[-3.7f64, 300.0, 1.5, 2.0], &[2, 2])?.transpose(0, 1)?;
    /// let torch = ToOptions { copy: CopyMode::Always, conversion: Conversion::TorchX86, ..Default::default() };
    /// let u = t.to_with_options(DType::UInt8, torch)?;
    /// assert_eq!(u.strides(), [1, 2]); // preserve_format: still transposed
    /// assert_eq!(u.to_vec::<u8>()?, [253, 1, 44, 2]);
    /// assert_eq!(t.to(DType::UInt8)?.to_vec::<u8>()?, [0, 1, 255, 2]); // the library saturates
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    #[cfg(feature = "experimental")]
    pub fn to_with_options(&self, dtype: DType, options: ToOptions) -> Result<Tensor> {
        let _read = self.borrow("to_with", Access::Shared)?;
        let (copy, format, conversion) = (options.copy.code(), options.memory_format.code(), options.conversion.code());
        // SAFETY: live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_to_with(out, self.as_raw(), dtype.code(), copy, format, conversion) })
    }

    /// [`Tensor::copy_from`] converting by a policy (experimental).
    #[cfg(feature = "experimental")]
    pub fn copy_from_with(&self, src: &Tensor, conversion: Conversion) -> Result<()> {
        let _borrow =
            borrow::acquire("copy_with", &[(self.span(), Access::Exclusive), (src.span(), Access::Shared)])?;
        // SAFETY: live handles; dst is borrowed for writing and src for reading.
        check(unsafe { sys::tensor_copy_with(self.as_raw(), src.as_raw(), conversion.code()) })
    }

    /// `torch.empty_like(self, dtype=dtype, memory_format=format)` (experimental): a
    /// new tensor of this shape whose contents are unspecified (as [`Tensor::empty`]).
    /// Reads no elements.
    #[cfg(feature = "experimental")]
    pub fn empty_like(&self, dtype: DType, format: MemoryFormat) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_empty_like(out, self.as_raw(), dtype.code(), format.code()) })
    }

    /// `torch.zeros_like(self, dtype=dtype, memory_format=format)` (experimental).
    ///
    /// ```
    /// use ctensor::{DType, MemoryFormat, Tensor};
    /// let t = Tensor::zeros(DType::Float32, &[3, 4])?.transpose(0, 1)?;
    /// assert_eq!(t.zeros_like(DType::Int16, MemoryFormat::Preserve)?.strides(), [1, 4]);
    /// assert_eq!(t.zeros_like(DType::Int16, MemoryFormat::Contiguous)?.strides(), [3, 1]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    #[cfg(feature = "experimental")]
    pub fn zeros_like(&self, dtype: DType, format: MemoryFormat) -> Result<Tensor> {
        // SAFETY: live handle.
        Tensor::make(|out| unsafe { sys::tensor_zeros_like(out, self.as_raw(), dtype.code(), format.code()) })
    }

    /// Sets every element to `value`, converted as from a float64.
    pub fn fill(&self, value: f64) -> Result<()> {
        let _write = self.borrow("fill", Access::Exclusive)?;
        // SAFETY: live handle; the elements are borrowed for writing.
        check(unsafe { sys::tensor_fill(self.as_raw(), value) })
    }

    /// PyTorch's `fill_` with an integer: every element becomes `value`,
    /// range-checked into the dtype (`Err(Overflow)` with PyTorch's message where
    /// [`fill`](Self::fill) would wrap or saturate; -1 into `UInt8` wraps, as in
    /// PyTorch). Unlike `fill`, `self` may have internal overlap (an expanded
    /// view): each place ends up the value.
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// let t = Tensor::zeros(DType::UInt8, &[1])?.expand(&[3])?;
    /// t.fill_int64(7)?;
    /// assert!(t.fill_int64(256).is_err());
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn fill_int64(&self, value: i64) -> Result<()> {
        // SAFETY: `element` has room for any dtype's element.
        self.fill_element(|element, dtype| unsafe { sys::tensor_scalar_convert_int64(element, dtype, value) })
    }

    /// [`fill_int64`](Self::fill_int64) with a float (NaN into an integer dtype overflows).
    pub fn fill_float64(&self, value: f64) -> Result<()> {
        // SAFETY: `element` has room for any dtype's element.
        self.fill_element(|element, dtype| unsafe { sys::tensor_scalar_convert_float64(element, dtype, value) })
    }

    /// [`fill_int64`](Self::fill_int64) with a complex number (a non-zero imaginary
    /// part into a real dtype other than bool overflows).
    pub fn fill_complex128(&self, value: crate::Complex<f64>) -> Result<()> {
        // SAFETY: `element` has room for any dtype's element.
        self.fill_element(|element, dtype| unsafe {
            sys::tensor_scalar_convert_complex128(element, dtype, value.re, value.im)
        })
    }

    fn fill_element(&self, convert: impl FnOnce(*mut std::ffi::c_void, sys::tensor_dtype_t) -> sys::tensor_status_t) -> Result<()> {
        let _write = self.borrow("fill_element", Access::Exclusive)?;
        let mut element = [0f64; 2]; // the widest element: complex128
        let p = element.as_mut_ptr().cast::<std::ffi::c_void>();
        check(convert(p, self.dtype().code()))?;
        // SAFETY: live handle; the elements are borrowed for writing; `p` holds one element.
        check(unsafe { sys::tensor_fill_element(self.as_raw(), p) })
    }
}

/// `Err(Invalid)` when `strides` is given with a length other than `sizes`'s
/// (C would read past the shorter array).
fn same_len(op: &str, sizes: &[i64], strides: Option<&[i64]>) -> Result<()> {
    match strides {
        Some(s) if s.len() != sizes.len() => Err(Error::new(
            Status::Invalid,
            format!("{op}: {} sizes but {} strides", sizes.len(), s.len()),
        )),
        _ => Ok(()),
    }
}

impl Clone for Tensor {
    fn clone(&self) -> Tensor {
        // SAFETY: retaining a live handle.
        unsafe { sys::tensor_retain(self.as_raw()) };
        Tensor { raw: self.raw }
    }
}

impl Drop for Tensor {
    fn drop(&mut self) {
        // SAFETY: this handle owns one reference.
        unsafe { sys::tensor_release(self.as_raw()) }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("dtype", &self.dtype())
            .field("sizes", &self.sizes())
            .field("strides", &self.strides())
            .field("storage_offset", &self.storage_offset())
            .finish()
    }
}
