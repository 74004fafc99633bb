//! Zero-copy exchange with arrow-rs arrays through the Arrow C Data Interface
//! (`include/ctensor_arrow.h`): the `arrow` feature.
//!
//! A tensor of ndim >= 2 is a `FixedSizeList` array whose [`Field`] carries the
//! canonical extension `arrow.fixed_shape_tensor` (`ARROW:extension:name` and
//! `ARROW:extension:metadata` with `shape` and, for a permuted layout,
//! `permutation`); a 1-d tensor is a primitive array. `docs/arrow.md` has the
//! dtype mapping (bfloat16 and complex carry ctensor's own extension names).

use std::ptr;

use arrow_array::ffi::{from_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef};
use arrow_schema::{ArrowError, Field};

use crate::error::{check, Error, Result, Status};
use crate::{sys, Tensor};

/// An arrow-rs error as this crate's (the FFI structs it failed on are Arrow's).
fn arrow_error(op: &str, err: ArrowError) -> Error {
    Error::new(Status::Format, format!("{op}: arrow: {err}"))
}

/// The field (the type and its metadata) that describes `array` to ctensor.
fn ffi_schema(op: &str, array: &dyn Array, field: Option<&Field>) -> Result<FFI_ArrowSchema> {
    let schema = match field {
        Some(f) if f.data_type() != array.data_type() => {
            return Err(Error::new(
                Status::Invalid,
                format!("{op}: the field's type {} is not the array's type {}", f.data_type(), array.data_type()),
            ))
        }
        Some(f) => FFI_ArrowSchema::try_from(f),
        None => FFI_ArrowSchema::try_from(array.data_type()),
    };
    schema.map_err(|e| arrow_error(op, e))
}

impl Tensor {
    /// Exports this tensor as an arrow-rs array and the field describing it (see
    /// the module docs). The array views this tensor's memory when a permutation
    /// describes its layout (bool always copies: Arrow's bool is bit-packed);
    /// with `no_copy`, a layout that needs a copy fails with [`Status::Copy`].
    /// The array's buffers hold their own reference to the tensor.
    ///
    /// ```
    /// use arrow_array::{cast::AsArray, types::Float32Type, Array};
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[1f32, 2., 3., 4., 5., 6.], &[2, 3])?;
    /// let (field, array) = t.to_arrow(true)?;
    /// assert_eq!(field.metadata()["ARROW:extension:name"], "arrow.fixed_shape_tensor");
    /// let values = array.as_fixed_size_list().values().as_primitive::<Float32Type>().values().as_ptr();
    /// assert_eq!(values as *mut u8, t.data_ptr()); // zero-copy
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn to_arrow(&self, no_copy: bool) -> Result<(Field, ArrayRef)> {
        let mut schema = FFI_ArrowSchema::empty();
        let mut array = FFI_ArrowArray::empty();
        let flags = if no_copy { sys::TENSOR_ARROW_NO_COPY } else { 0 };
        // SAFETY: both structs are empty (release NULL) and have the C layout
        // the header declares; on failure they stay empty.
        check(unsafe {
            sys::tensor_to_arrow(
                ptr::from_mut(&mut schema).cast(),
                ptr::from_mut(&mut array).cast(),
                self.as_raw(),
                flags,
            )
        })?;
        let field = Field::try_from(&schema).map_err(|e| arrow_error("to_arrow", e))?;
        // SAFETY: a valid array of that schema; from_ffi takes it over.
        let data = unsafe { from_ffi(array, &schema) }.map_err(|e| arrow_error("to_arrow", e))?;
        Ok((field, make_array(data)))
    }

    /// A read-only tensor viewing `array` without copying (bool excepted): with
    /// a `field` of `arrow.fixed_shape_tensor`, `[length, *shape]` with its
    /// permutation applied as strides; a `FixedSizeList` without extension,
    /// `[length, list_size, ...]` (one dim per nested list); a primitive array,
    /// `[length]`. The array's offset is honoured; nulls are refused
    /// ([`Status::Format`]). The tensor keeps the array's buffers alive until its
    /// last view goes. `field`, when given, must have the array's type.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{FixedSizeListArray, Float64Array};
    /// use arrow_schema::{DataType, Field};
    /// use ctensor::Tensor;
    /// let item = Arc::new(Field::new_list_field(DataType::Float64, false));
    /// let values = Arc::new(Float64Array::from(vec![1., 2., 3., 4., 5., 6.]));
    /// let array = FixedSizeListArray::try_new(item, 3, values, None).unwrap();
    /// let t = Tensor::from_arrow(&array, None)?;
    /// assert_eq!(t.sizes(), &[2, 3]);
    /// assert_eq!(t.to_vec::<f64>()?, vec![1., 2., 3., 4., 5., 6.]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_arrow(array: &dyn Array, field: Option<&Field>) -> Result<Tensor> {
        let schema = ffi_schema("from_arrow", array, field)?;
        let mut ffi_array = FFI_ArrowArray::new(&array.to_data());
        // SAFETY: valid structs of the header's layout. On success ctensor moves
        // the array out (release set to NULL, so its drop here is a no-op) and
        // calls arrow-rs's release when the last view goes; on failure the
        // array is untouched and dropping it releases it.
        Tensor::make(|out| unsafe {
            sys::tensor_from_arrow(out, ptr::from_ref(&schema).cast_mut().cast(), ptr::from_mut(&mut ffi_array).cast())
        })
    }

    /// The rows of an `arrow.variable_shape_tensor` array (`field` carries the
    /// extension), one read-only tensor per row, each viewing the array's memory
    /// without copying; the buffers live until the last row's tensor goes.
    pub fn from_arrow_variable_shape(array: &dyn Array, field: &Field) -> Result<Vec<Tensor>> {
        let schema = ffi_schema("from_arrow_variable_shape", array, Some(field))?;
        let mut ffi_array = FFI_ArrowArray::new(&array.to_data());
        let mut list: *mut *mut sys::tensor_t = ptr::null_mut();
        let mut count = 0i64;
        // SAFETY: as in from_arrow; on success list holds count new references.
        check(unsafe {
            sys::tensor_from_arrow_variable_shape(
                &mut list,
                &mut count,
                ptr::from_ref(&schema).cast_mut().cast(),
                ptr::from_mut(&mut ffi_array).cast(),
            )
        })?;
        let rows = (0..count as usize)
            // SAFETY: each entry is a live tensor; the Vec takes a reference of its
            // own before the list (and its references) is released below.
            .map(|i| unsafe {
                Tensor::from_new_reference(sys::tensor_retain(*list.add(i)))
            })
            .collect();
        // SAFETY: the list tensor_from_arrow_variable_shape made, released once.
        unsafe { sys::tensor_arrow_list_release(list, count) };
        Ok(rows)
    }
}
