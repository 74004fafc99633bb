//! ndarray views of tensors and tensors from ndarray arrays (feature `ndarray`).

use ndarray::{Array, ArrayViewD, ArrayViewMutD, Axis, Dimension, IxDyn, ShapeBuilder};

use crate::borrow::{Access, Borrow};
use crate::dtype::Element;
use crate::error::{Error, Result, Status};
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A tensor's elements as an ndarray view, borrowed for reading; see
/// [`Tensor::as_array`]. [`ArrayRead::view`] gives the `ArrayViewD`.
#[derive(Debug)]
pub struct ArrayRead<'a, T> {
    view: ArrayViewD<'a, T>,
    _borrow: Borrow,
}

impl<T> ArrayRead<'_, T> {
    /// The view, living as long as this borrow.
    pub fn view(&self) -> ArrayViewD<'_, T> {
        self.view.view()
    }
}

/// A tensor's elements as a mutable ndarray view, borrowed for writing; see
/// [`Tensor::as_array_mut`].
#[derive(Debug)]
pub struct ArrayWrite<'a, T> {
    view: ArrayViewMutD<'a, T>,
    _borrow: Borrow,
}

impl<T> ArrayWrite<'_, T> {
    /// The view, living as long as this borrow.
    pub fn view(&self) -> ArrayViewD<'_, T> {
        self.view.view()
    }

    /// The mutable view, living as long as this borrow.
    pub fn view_mut(&mut self) -> ArrayViewMutD<'_, T> {
        self.view.view_mut()
    }
}

impl Tensor {
    /// The lowest-addressed element, the shape, the absolute strides and the axes
    /// to invert: ndarray builds views from non-negative strides (as rust-numpy does).
    fn ndarray_layout<T>(&self) -> (*mut T, Vec<usize>, Vec<usize>, Vec<usize>) {
        let shape: Vec<usize> = self.sizes().iter().map(|&s| s as usize).collect();
        let strides: Vec<usize> = self.strides().iter().map(|s| s.unsigned_abs() as usize).collect();
        let inverted: Vec<usize> = (0..self.ndim()).filter(|&d| self.strides()[d] < 0).collect();
        let mut lowest = self.element_ptr::<T>().as_ptr();
        if self.numel() > 0 {
            for &d in &inverted {
                // SAFETY: the lowest element lies inside the storage (checked at creation).
                lowest = unsafe { lowest.offset((self.sizes()[d] - 1) as isize * self.strides()[d] as isize) };
            }
        }
        (lowest, shape, strides, inverted)
    }

    /// The elements as an `ArrayViewD` in place, for any strides (negative and
    /// zero included), borrowed for reading. Fails as [`Tensor::as_slice`]
    /// does, except that any layout works.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
    /// let reversed = t.slice(1, None, None, -1)?;
    /// let a = reversed.as_array::<f32>()?;
    /// assert_eq!(a.view(), ndarray::array![[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]].into_dyn());
    /// assert_eq!(a.view().strides(), reversed.strides().iter().map(|&s| s as isize).collect::<Vec<_>>());
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn as_array<T: Element>(&self) -> Result<ArrayRead<'_, T>> {
        self.expect_readable_in_place::<T>("as_array")?;
        let borrow = self.borrow("as_array", Access::Shared)?;
        let (lowest, shape, strides, inverted) = self.ndarray_layout::<T>();
        // SAFETY: every element is inside the storage that self keeps alive, aligned,
        // valid and on the CPU (checked above); strides are non-negative; the borrow
        // excludes writers for the view's lifetime.
        let mut view = unsafe { ArrayViewD::from_shape_ptr(IxDyn(&shape).strides(IxDyn(&strides)), lowest) };
        for d in inverted {
            view.invert_axis(Axis(d));
        }
        Ok(ArrayRead { view, _borrow: borrow })
    }

    /// The elements as an `ArrayViewMutD` in place, borrowed for writing. Needs a
    /// writable storage and a layout where no two indices reach the same element
    /// (else [`Status::Overlap`], e.g. for an expanded tensor).
    pub fn as_array_mut<T: Element>(&self) -> Result<ArrayWrite<'_, T>> {
        self.expect_writable_in_place::<T>("as_array_mut")?;
        if !self.is_non_overlapping() {
            return Err(Error::new(
                Status::Overlap,
                format!(
                    "as_array_mut: sizes {:?} with strides {:?} reach some elements twice",
                    self.sizes(),
                    self.strides()
                ),
            ));
        }
        let borrow = self.borrow("as_array_mut", Access::Exclusive)?;
        let (lowest, shape, strides, inverted) = self.ndarray_layout::<T>();
        // SAFETY: as as_array, plus: writable, no element reached twice, and the
        // exclusive borrow excludes every other access.
        let mut view = unsafe { ArrayViewMutD::from_shape_ptr(IxDyn(&shape).strides(IxDyn(&strides)), lowest) };
        for d in inverted {
            view.invert_axis(Axis(d));
        }
        Ok(ArrayWrite { view, _borrow: borrow })
    }

    /// A sufficient test that no two indices address the same element: sorted by
    /// |stride|, each dim of size > 1 steps over everything the smaller ones span.
    fn is_non_overlapping(&self) -> bool {
        let mut dims: Vec<(i64, i64)> = self
            .sizes()
            .iter()
            .zip(self.strides())
            .filter(|(&size, _)| size > 1)
            .map(|(&size, &stride)| (size, stride.abs()))
            .collect();
        dims.sort_by_key(|&(_, stride)| stride);
        let mut span = 0i128;
        for (size, stride) in dims {
            if i128::from(stride) <= span {
                return false;
            }
            span += i128::from(size - 1) * i128::from(stride);
        }
        true
    }

    /// A tensor that takes over `array`'s memory without copying, with its
    /// strides (negative ones included) and offset.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let mut a = ndarray::Array::from_shape_vec((2, 3), vec![1i32, 2, 3, 4, 5, 6]).unwrap();
    /// a.invert_axis(ndarray::Axis(1));
    /// let t = Tensor::from_array(a)?;
    /// assert_eq!(t.strides(), [3, -1]);
    /// assert_eq!(t.to_vec::<i32>()?, [3, 2, 1, 6, 5, 4]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_array<T: Element, D: Dimension>(array: Array<T, D>) -> Result<Tensor> {
        let sizes: Vec<i64> = array.shape().iter().map(|&s| s as i64).collect();
        let strides: Vec<i64> = array.strides().iter().map(|&s| s as i64).collect();
        let (data, offset) = array.into_raw_vec_and_offset();
        let storage = Storage::from_vec(data, false)?;
        Tensor::from_storage(&storage, T::DTYPE, &sizes, Some(&strides), offset.unwrap_or(0) as i64)
    }
}
