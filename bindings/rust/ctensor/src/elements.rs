//! Element access: copies out, borrow-checked slices and iterators.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use ctensor_sys as sys;

use crate::borrow::{self, Access, Borrow, Span};
use crate::dtype::{expect_dtype, Element};
use crate::error::{Error, Result, Status};
use crate::tensor::{Index, Tensor};

/// Element offsets (in elements, from element `[0, ..., 0]`) in C order.
#[derive(Debug, Clone)]
pub(crate) struct Offsets {
    sizes: Vec<i64>,
    strides: Vec<i64>,
    index: Vec<i64>,
    offset: i64,
    remaining: usize,
}

impl Offsets {
    pub(crate) fn new(t: &Tensor) -> Offsets {
        Offsets {
            sizes: t.sizes().to_vec(),
            strides: t.strides().to_vec(),
            index: vec![0; t.ndim()],
            offset: 0,
            remaining: t.numel(),
        }
    }
}

impl Iterator for Offsets {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.offset;
        for d in (0..self.sizes.len()).rev() {
            self.index[d] += 1;
            self.offset += self.strides[d];
            if self.index[d] < self.sizes[d] {
                break;
            }
            self.offset -= self.strides[d] * self.sizes[d];
            self.index[d] = 0;
        }
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl Tensor {
    /// The bytes this tensor's elements span (lowest to highest), `None` if it has
    /// no elements.
    pub(crate) fn span(&self) -> Option<Span> {
        if self.numel() == 0 {
            return None;
        }
        let (mut low, mut high) = (0i128, 0i128);
        for (&size, &stride) in self.sizes().iter().zip(self.strides()) {
            let reach = i128::from(size - 1) * i128::from(stride);
            if reach < 0 {
                low += reach;
            } else {
                high += reach;
            }
        }
        let item = self.dtype().size() as i128;
        let base = self.data_ptr() as usize as i128;
        // The library checked the view against its storage, so these are real addresses.
        Some(Span { lo: (base + low * item) as usize, hi: (base + (high + 1) * item) as usize })
    }

    pub(crate) fn borrow(&self, op: &str, access: Access) -> Result<Borrow> {
        borrow::acquire(op, &[(self.span(), access)])
    }

    /// `Err(Device)` unless the CPU may touch the memory (kDLCPU, kDLCUDAHost,
    /// kDLCUDAManaged, as the library's own element access decides).
    fn expect_cpu(&self, op: &str) -> Result<()> {
        let (kind, id) = self.device();
        if matches!(kind as u32, sys::kDLCPU | sys::kDLCUDAHost | sys::kDLCUDAManaged) {
            return Ok(());
        }
        Err(Error::new(Status::Device, format!("{op}: memory on device type {kind} (id {id}) is not CPU memory")))
    }

    /// Checks direct access as `&T`: dtype, CPU memory, alignment, valid values.
    pub(crate) fn expect_readable_in_place<T: Element>(&self, op: &str) -> Result<()> {
        expect_dtype::<T>(op, self.dtype())?;
        self.expect_cpu(op)?;
        if self.numel() == 0 {
            return Ok(());
        }
        if self.data_ptr() as usize % std::mem::align_of::<T>() != 0 {
            return Err(Error::new(
                Status::Invalid,
                format!(
                    "{op}: data at {:p} is not aligned for {} ({} bytes); use to_vec or iter",
                    self.data_ptr(),
                    std::any::type_name::<T>(),
                    std::mem::align_of::<T>()
                ),
            ));
        }
        if T::ANY_BITS_VALID {
            return Ok(());
        }
        let item = std::mem::size_of::<T>();
        for offset in Offsets::new(self) {
            // SAFETY: every offset of a view lies inside its storage (checked at creation).
            let bytes = unsafe { std::slice::from_raw_parts(self.data_ptr().offset(offset as isize * item as isize), item) };
            if !T::is_valid(bytes) {
                return Err(Error::new(
                    Status::DType,
                    format!("{op}: byte {} at element offset {offset} is not a valid {}", bytes[0], std::any::type_name::<T>()),
                ));
            }
        }
        Ok(())
    }

    /// Checks direct access as `&mut T`: as for reading, and a writable storage.
    pub(crate) fn expect_writable_in_place<T: Element>(&self, op: &str) -> Result<()> {
        self.expect_readable_in_place::<T>(op)?;
        if self.is_readonly() {
            return Err(Error::new(Status::ReadOnly, format!("{op}: the tensor's storage is read-only")));
        }
        Ok(())
    }

    fn expect_contiguous(&self, op: &str) -> Result<()> {
        if self.is_contiguous() {
            return Ok(());
        }
        Err(Error::new(
            Status::Stride,
            format!(
                "{op}: sizes {:?} with strides {:?} are not contiguous; use contiguous(), to_vec() or iter()",
                self.sizes(),
                self.strides()
            ),
        ))
    }

    /// The elements in C order, copied out; any layout.
    ///
    /// ```
    /// use ctensor::{Status, Tensor};
    /// let t = Tensor::from_slice(&[1.5f32, 2.5, 3.5, 4.5], &[2, 2])?;
    /// assert_eq!(t.transpose(0, 1)?.to_vec::<f32>()?, [1.5, 3.5, 2.5, 4.5]);
    /// assert_eq!(t.to_vec::<f64>().unwrap_err().status, Status::DType);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        expect_dtype::<T>("to_vec", self.dtype())?;
        // contiguous() returns a contiguous tensor itself, without looking at its memory.
        self.expect_cpu("to_vec")?;
        let _read = self.borrow("to_vec", Access::Shared)?;
        let packed = self.contiguous()?;
        let item = std::mem::size_of::<T>();
        let base = packed.data_ptr();
        // SAFETY: packed is a contiguous CPU tensor of numel elements; T::read
        // accepts any alignment.
        Ok((0..packed.numel()).map(|i| unsafe { T::read(base.add(i * item)) }).collect())
    }

    /// One element, by a full index (negative entries count from the end).
    ///
    /// ```
    /// use ctensor::{Status, Tensor};
    /// let t = Tensor::from_slice(&[1i64, 2, 3, 4, 5, 6], &[2, 3])?;
    /// assert_eq!(t.get::<i64>(&[1, -1])?, 6);
    /// let err = t.get::<i64>(&[2, 0]).unwrap_err();
    /// assert_eq!(err.status, Status::Bounds);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn get<T: Element>(&self, index: &[i64]) -> Result<T> {
        expect_dtype::<T>("get", self.dtype())?;
        if index.len() != self.ndim() {
            return Err(Error::new(
                Status::Invalid,
                format!("get: {} indices for a tensor with {} dims", index.len(), self.ndim()),
            ));
        }
        let items: Vec<Index> = index.iter().map(|&i| Index::Int(i)).collect();
        let element = self.index(&items)?;
        element.expect_cpu("get")?;
        let _read = element.borrow("get", Access::Shared)?;
        // SAFETY: a 0-dim CPU view addresses one element inside its storage.
        Ok(unsafe { T::read(element.data_ptr()) })
    }

    /// The elements of a contiguous tensor in place, borrowed for reading.
    ///
    /// Fails with `DType` for another element type (or a bool tensor holding bytes
    /// other than 0 and 1), `Stride` if not contiguous, `Device` for non-CPU
    /// memory, `Invalid` if the memory is not aligned for `T`, and `Overlap` while
    /// the bytes are borrowed for writing.
    ///
    /// ```
    /// use ctensor::{Status, Tensor};
    /// let t = Tensor::from_slice(&[1u16, 2, 3, 4], &[2, 2])?;
    /// assert_eq!(&*t.as_slice::<u16>()?, &[1, 2, 3, 4]);
    /// assert_eq!(t.transpose(0, 1)?.as_slice::<u16>().unwrap_err().status, Status::Stride);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn as_slice<T: Element>(&self) -> Result<Slice<'_, T>> {
        self.expect_readable_in_place::<T>("as_slice")?;
        self.expect_contiguous("as_slice")?;
        let borrow = self.borrow("as_slice", Access::Shared)?;
        let data = self.element_ptr::<T>();
        // SAFETY: checked above: contiguous, aligned, valid CPU elements inside the
        // storage that self keeps alive; the borrow excludes writers.
        let slice = unsafe { std::slice::from_raw_parts(data.as_ptr(), self.numel()) };
        Ok(Slice { slice, _borrow: borrow })
    }

    /// The elements of a contiguous, writable tensor in place, borrowed for
    /// writing: no other slice, view or copy may touch these bytes meanwhile.
    ///
    /// ```
    /// use ctensor::{Status, Tensor};
    /// let t = Tensor::zeros(ctensor::DType::Int32, &[3])?;
    /// let alias = t.clone();
    /// {
    ///     let mut s = t.as_slice_mut::<i32>()?;
    ///     s[1] = 7;
    ///     assert_eq!(alias.as_slice::<i32>().unwrap_err().status, Status::Overlap);
    /// }
    /// assert_eq!(alias.to_vec::<i32>()?, [0, 7, 0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn as_slice_mut<T: Element>(&self) -> Result<SliceMut<'_, T>> {
        self.expect_writable_in_place::<T>("as_slice_mut")?;
        self.expect_contiguous("as_slice_mut")?;
        let borrow = self.borrow("as_slice_mut", Access::Exclusive)?;
        let data = self.element_ptr::<T>();
        // SAFETY: as as_slice, writable, and the exclusive borrow excludes every
        // other access to these bytes.
        let slice = unsafe { std::slice::from_raw_parts_mut(data.as_ptr(), self.numel()) };
        Ok(SliceMut { slice, _borrow: borrow })
    }

    /// The elements in C order, read in place; any layout and alignment.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[1i8, 2, 3, 4, 5, 6], &[2, 3])?;
    /// let column: Vec<i8> = t.select(1, 1)?.iter::<i8>()?.collect();
    /// assert_eq!(column, [2, 5]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn iter<T: Element>(&self) -> Result<Iter<'_, T>> {
        expect_dtype::<T>("iter", self.dtype())?;
        self.expect_cpu("iter")?;
        let borrow = self.borrow("iter", Access::Shared)?;
        Ok(Iter { base: self.data_ptr(), offsets: Offsets::new(self), _borrow: borrow, _tensor: PhantomData })
    }

    /// Element `[0, ..., 0]` as a `T` pointer, dangling (but aligned) when empty.
    pub(crate) fn element_ptr<T>(&self) -> NonNull<T> {
        if self.numel() == 0 {
            return NonNull::dangling();
        }
        NonNull::new(self.data_ptr().cast::<T>()).expect("a tensor with elements has data")
    }
}

/// A contiguous tensor's elements, borrowed for reading; derefs to `[T]`.
#[derive(Debug)]
pub struct Slice<'a, T> {
    slice: &'a [T],
    _borrow: Borrow,
}

impl<T> Deref for Slice<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.slice
    }
}

/// A contiguous tensor's elements, borrowed for writing; derefs to `[T]` and `mut [T]`.
#[derive(Debug)]
pub struct SliceMut<'a, T> {
    slice: &'a mut [T],
    _borrow: Borrow,
}

impl<T> Deref for SliceMut<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.slice
    }
}

impl<T> DerefMut for SliceMut<'_, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.slice
    }
}

/// The elements of any tensor in C order, by value; the tensor's bytes stay
/// borrowed for reading while it lives. `Send + Sync` as `std::slice::Iter`.
#[derive(Debug)]
pub struct Iter<'a, T> {
    base: *mut u8,
    offsets: Offsets,
    _borrow: Borrow,
    _tensor: PhantomData<&'a T>,
}

// SAFETY: an Iter only reads, through a shared borrow of the tensor for 'a and a
// read borrow in the process-wide registry (not tied to a thread) that keeps
// writers out: as a &'a [T], which is Send and Sync when T is Sync.
unsafe impl<T: Sync> Send for Iter<'_, T> {}
unsafe impl<T: Sync> Sync for Iter<'_, T> {}

impl<T: Element> Iterator for Iter<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let offset = self.offsets.next()?;
        let item = std::mem::size_of::<T>() as isize;
        // SAFETY: every offset lies inside the storage (checked at view creation),
        // the tensor outlives 'a, and the borrow excludes writers.
        Some(unsafe { T::read(self.base.offset(offset as isize * item)) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.offsets.size_hint()
    }
}

impl<T: Element> ExactSizeIterator for Iter<'_, T> {}
