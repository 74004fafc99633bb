//! Advanced indexing: gathering and writing the elements that integer index
//! tensors name (NumPy's and PyTorch's `t[idx0, :, idx1]`), and `nonzero`, whose
//! columns turn a boolean mask into such index tensors.

use ctensor_sys as sys;

use crate::borrow::{self, Access};
use crate::error::{check, Error, Result, Status};
use crate::tensor::Tensor;

/// The index tensors' handles, one per dim (`Err(Invalid)` when the counts differ).
fn handles(op: &str, dims: &[i64], indices: &[&Tensor]) -> Result<Vec<*const sys::tensor_t>> {
    if dims.len() != indices.len() {
        return Err(Error::new(
            Status::Invalid,
            format!("{op}: {} dims for {} index tensors", dims.len(), indices.len()),
        ));
    }
    Ok(indices.iter().map(|t| t.as_raw().cast_const()).collect())
}

impl Tensor {
    /// `self[..., indices[0], ..., indices[1], ...]` as a new contiguous tensor:
    /// index tensor `k` (any integer dtype, negative values counting from the end)
    /// picks positions along dim `dims[k]` (ascending). The index tensors broadcast
    /// together; their dims replace the indexed ones where those are adjacent, else
    /// lead the result (NumPy's rule, as PyTorch). An index outside its dim is
    /// `Err(Bounds)`; index tensors that do not broadcast are `Err(Shape)`; a
    /// boolean one is `Err(DType)` (index with [`Tensor::nonzero`]'s columns).
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[0i32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], &[3, 4])?;
    /// let rows = Tensor::from_slice(&[2i64, 0], &[2])?;
    /// let cols = Tensor::from_slice(&[-1i32], &[1])?;
    /// assert_eq!(t.index_gather(&[0], &[&rows])?.to_vec::<i32>()?, [8, 9, 10, 11, 0, 1, 2, 3]);
    /// assert_eq!(t.index_gather(&[0, 1], &[&rows, &cols])?.to_vec::<i32>()?, [11, 3]);
    /// assert_eq!(t.index_gather(&[1], &[&rows])?.sizes(), [3, 2]);
    /// let bad = Tensor::from_slice(&[4i64], &[1])?;
    /// let err = t.index_gather(&[1], &[&bad]).unwrap_err();
    /// assert_eq!(err.status, ctensor::Status::Bounds);
    /// assert_eq!(err.message, "index_gather: index 4 is out of bounds for dimension 1 with size 4");
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn index_gather(&self, dims: &[i64], indices: &[&Tensor]) -> Result<Tensor> {
        let handles = handles("index_gather", dims, indices)?;
        let mut spans = vec![(self.span(), Access::Shared)];
        spans.extend(indices.iter().map(|t| (t.span(), Access::Shared)));
        let _read = borrow::acquire("index_gather", &spans)?;
        // SAFETY: live handles, dims and handles have n entries; the elements are borrowed for reading.
        Tensor::make(|out| unsafe {
            sys::tensor_index_gather(out, self.as_raw(), handles.len() as i64, dims.as_ptr(), handles.as_ptr())
        })
    }

    /// `self[same index] = values`: `values` broadcast to [`Tensor::index_gather`]'s
    /// result shape and converted to `self`'s dtype as copies convert. Where several
    /// positions name one element, the last in C order of the index shape wins.
    /// Every index is checked before anything is written; a read-only `self` is
    /// `Err(ReadOnly)`, an expanded one `Err(Overlap)`.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[0.0f32; 5], &[5])?;
    /// let at = Tensor::from_slice(&[1i64, 3, 1], &[3])?;
    /// t.index_put(&[0], &[&at], &Tensor::from_slice(&[7i32, 8, 9], &[3])?)?;
    /// assert_eq!(t.to_vec::<f32>()?, [0.0, 9.0, 0.0, 8.0, 0.0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn index_put(&self, dims: &[i64], indices: &[&Tensor], values: &Tensor) -> Result<()> {
        let handles = handles("index_put", dims, indices)?;
        let mut spans = vec![(self.span(), Access::Exclusive), (values.span(), Access::Shared)];
        spans.extend(indices.iter().map(|t| (t.span(), Access::Shared)));
        let _borrow = borrow::acquire("index_put", &spans)?;
        // SAFETY: live handles, dims and handles have n entries; self is borrowed for
        // writing, the others for reading (the library reads them all before writing).
        check(unsafe {
            sys::tensor_index_put(self.as_raw(), handles.len() as i64, dims.as_ptr(), handles.as_ptr(), values.as_raw())
        })
    }

    /// `torch.nonzero(self)`: the coordinates of the elements that are not zero, one
    /// row each in C order, as an int64 `[count, ndim]` tensor. Column `d`
    /// (`select(1, d)`) indexes dim `d`, so a mask indexes through its columns.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[1.5f64, 2.0, -3.0, 4.0], &[2, 2])?;
    /// let mask = Tensor::from_slice(&[true, false, false, true], &[2, 2])?;
    /// let nz = mask.nonzero()?;
    /// assert_eq!((nz.sizes(), nz.to_vec::<i64>()?), (&[2, 2][..], vec![0, 0, 1, 1]));
    /// let (rows, cols) = (nz.select(1, 0)?, nz.select(1, 1)?);
    /// assert_eq!(t.index_gather(&[0, 1], &[&rows, &cols])?.to_vec::<f64>()?, [1.5, 4.0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn nonzero(&self) -> Result<Tensor> {
        let _read = borrow::acquire("nonzero", &[(self.span(), Access::Shared)])?;
        // SAFETY: a live handle; the elements are borrowed for reading.
        Tensor::make(|out| unsafe { sys::tensor_nonzero(out, self.as_raw()) })
    }
}
