//! The `arrow` feature against arrow-rs: round trips of every dtype, zero-copy
//! proven by addresses, permutations by the fixed_shape_tensor spec's rule,
//! arrays built by arrow-rs, nulls, and when arrow-rs's buffers are released.
#![cfg(feature = "arrow")]

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type};
use arrow_array::{Array, FixedSizeListArray, Float32Array, Int32Array};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use ctensor::{bf16, f16, Complex, DType, Element, Status, Tensor};

/// The bytes of `values` (bit-exact comparison, NaN payloads included).
fn bytes<T: Element>(values: &[T]) -> Vec<u8> {
    // SAFETY: Element types are plain data without padding.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values)) }.to_vec()
}

/// Exports `values` as [2, 3] (fixed_shape_tensor) and as [6] (primitive) and
/// imports both back: same dtype, sizes and elements.
fn round_trip<T: Element>(values: [T; 6]) {
    let dtype = T::DTYPE;
    for sizes in [&[2i64, 3][..], &[6][..], &[1, 2, 3][..]] {
        let t = Tensor::from_slice(&values, sizes).unwrap();
        let (field, array) = t.to_arrow(false).unwrap();
        assert_eq!(array.len() as i64, sizes[0], "{dtype:?} {sizes:?}");
        let back = Tensor::from_arrow(array.as_ref(), Some(&field)).unwrap();
        assert_eq!((back.dtype(), back.sizes()), (dtype, sizes), "{dtype:?}");
        assert_eq!(bytes(&back.to_vec::<T>().unwrap()), bytes(&values), "{dtype:?} {sizes:?}");
        assert!(back.is_readonly() || dtype == DType::Bool);
        if dtype != DType::Bool {
            // zero-copy both ways: the tensor read back views t's own memory
            assert_eq!(back.data_ptr(), t.data_ptr(), "{dtype:?} {sizes:?}");
        }
    }
}

#[test]
fn every_dtype_round_trips_bit_exact() {
    round_trip([0u8, 1, 2, 127, 128, 255]);
    round_trip([i8::MIN, -1, 0, 1, 2, i8::MAX]);
    round_trip([i16::MIN, -1, 0, 1, 2, i16::MAX]);
    round_trip([0u16, 1, 2, 3, 40000, u16::MAX]);
    round_trip([i32::MIN, -1, 0, 1, 2, i32::MAX]);
    round_trip([0u32, 1, 2, 3, 4_000_000_000, u32::MAX]);
    round_trip([i64::MIN, -1, 0, 1, 2, i64::MAX]);
    round_trip([0u64, 1, 2, 3, 1 << 63, u64::MAX]);
    round_trip([f16::from_f32(-1.5), f16::NAN, f16::INFINITY, f16::MIN_POSITIVE, f16::ZERO, f16::MAX]);
    round_trip([bf16::from_f32(-1.5), bf16::NAN, bf16::INFINITY, bf16::MIN_POSITIVE, bf16::ZERO, bf16::MAX]);
    round_trip([-1.5f32, f32::NAN, f32::INFINITY, f32::MIN_POSITIVE, -0.0, f32::MAX]);
    round_trip([-1.5f64, f64::NAN, f64::INFINITY, f64::MIN_POSITIVE, -0.0, f64::MAX]);
    round_trip([Complex::new(1f32, -2.), Complex::new(0., 3.5), Complex::new(-0., 1.), Complex::new(7., 8.), Complex::new(9., 10.), Complex::new(f32::MAX, f32::MIN)]);
    round_trip([Complex::new(1f64, -2.), Complex::new(0., 3.5), Complex::new(-0., 1.), Complex::new(7., 8.), Complex::new(9., 10.), Complex::new(f64::MAX, f64::MIN)]);
    round_trip([true, false, false, true, true, false]);
}

#[test]
fn export_is_a_fixed_shape_tensor_viewing_the_tensor() {
    let t = Tensor::from_slice(&[1f32, 2., 3., 4., 5., 6.], &[2, 3]).unwrap();
    let (field, array) = t.to_arrow(true).unwrap();
    assert_eq!(field.metadata()["ARROW:extension:name"], "arrow.fixed_shape_tensor");
    assert_eq!(field.metadata()["ARROW:extension:metadata"], r#"{"shape":[3]}"#);
    let list = array.as_fixed_size_list();
    assert_eq!((list.len(), list.value_length()), (2, 3));
    let values = list.values().as_primitive::<Float32Type>();
    assert_eq!(values.values().as_ptr() as *mut u8, t.data_ptr());
    assert_eq!(values.values().to_vec(), vec![1., 2., 3., 4., 5., 6.]);
}

/// Logical element dim i is physical dim permutation[i] (the spec's rule), so
/// the elements of a permuted view read back equal the view's own.
#[test]
fn permuted_tensor_is_exported_with_its_permutation_and_read_back() {
    let phys: Vec<i32> = (0..48).collect();
    let base = Tensor::from_slice(&phys, &[2, 2, 3, 4]).unwrap();
    let t = base.permute(&[0, 3, 1, 2]).unwrap(); // element shape [4, 2, 3]
    let (field, array) = t.to_arrow(true).unwrap();
    let meta = &field.metadata()["ARROW:extension:metadata"];
    assert!(meta.contains(r#""shape":[2,3,4]"#) && meta.contains(r#""permutation":[2,0,1]"#), "{meta}");
    let values = array.as_fixed_size_list().values().as_primitive::<Int32Type>().values().as_ptr();
    assert_eq!(values as *mut u8, t.data_ptr());
    let back = Tensor::from_arrow(array.as_ref(), Some(&field)).unwrap();
    assert_eq!(back.sizes(), &[2, 4, 2, 3]);
    assert_eq!(back.data_ptr(), t.data_ptr());
    // by the rule: logical[b][i][j][k] = phys[b][j][k][i]
    let expect: Vec<i32> = (0..2)
        .flat_map(|b| (0..4).flat_map(move |i| (0..2).flat_map(move |j| (0..3).map(move |k| b * 24 + j * 12 + k * 4 + i))))
        .collect();
    assert_eq!(back.contiguous().unwrap().to_vec::<i32>().unwrap(), expect);
    assert_eq!(t.contiguous().unwrap().to_vec::<i32>().unwrap(), expect);
}

#[test]
fn a_layout_without_permutation_copies_or_is_refused() {
    let t = Tensor::from_slice(&(0..12).collect::<Vec<i64>>(), &[3, 4]).unwrap().slice(1, Some(0), None, 2).unwrap();
    assert_eq!(t.to_arrow(true).unwrap_err().status, Status::Copy);
    let (field, array) = t.to_arrow(false).unwrap();
    let back = Tensor::from_arrow(array.as_ref(), Some(&field)).unwrap();
    assert_eq!(back.to_vec::<i64>().unwrap(), vec![0, 2, 4, 6, 8, 10]);
}

#[test]
fn arrays_built_by_arrow_rs_are_viewed_element_by_element() {
    let item = Arc::new(Field::new_list_field(DataType::Float32, false));
    let values = Float32Array::from((0..12).map(|v| v as f32 * 0.5).collect::<Vec<_>>());
    let array = FixedSizeListArray::try_new(item, 4, Arc::new(values.clone()), None).unwrap();
    let t = Tensor::from_arrow(&array, None).unwrap();
    assert_eq!((t.dtype(), t.sizes()), (DType::Float32, &[3i64, 4][..]));
    assert_eq!(t.data_ptr() as *const f32, values.values().as_ptr());
    for row in 0..3 {
        for col in 0..4 {
            let expect = array.value(row).as_primitive::<Float32Type>().value(col);
            assert_eq!(t.get::<f32>(&[row as i64, col as i64]).unwrap(), expect);
        }
    }
    // a sliced array's offset is honoured
    let sliced = array.slice(1, 2);
    let t = Tensor::from_arrow(&sliced, None).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), values.values()[4..12].to_vec());
    let ints = Int32Array::from(vec![5, 6, 7, 8]).slice(1, 3);
    assert_eq!(Tensor::from_arrow(&ints, None).unwrap().to_vec::<i32>().unwrap(), vec![6, 7, 8]);
}

#[test]
fn nulls_are_refused() {
    let ints = Int32Array::from(vec![Some(1), None, Some(3)]);
    let err = Tensor::from_arrow(&ints, None).unwrap_err();
    assert_eq!(err.status, Status::Format, "{err}");
    let item = Arc::new(Field::new_list_field(DataType::Int32, false));
    let values = Arc::new(Int32Array::from(vec![1, 2, 3, 4]));
    let list = FixedSizeListArray::try_new(item, 2, values, Some(NullBuffer::from(vec![true, false]))).unwrap();
    let err = Tensor::from_arrow(&list, None).unwrap_err();
    assert_eq!(err.status, Status::Format, "{err}");
    let mismatch = Field::new("x", DataType::Int64, false);
    assert_eq!(Tensor::from_arrow(&Int32Array::from(vec![1]), Some(&mismatch)).unwrap_err().status, Status::Invalid);
}

/// The tensor holds arrow-rs's buffer (one more strong reference) until its last
/// view goes, and gives it back exactly once; a refused import takes nothing.
#[test]
fn arrow_buffers_are_released_when_the_last_view_goes() {
    let buffer = Buffer::from_vec((0..8).collect::<Vec<i32>>());
    let array = Int32Array::new(ScalarBuffer::new(buffer.clone(), 0, 8), None);
    let before = buffer.strong_count();
    let t = Tensor::from_arrow(&array, None).unwrap();
    assert_eq!(buffer.strong_count(), before + 1);
    let view = t.slice(0, Some(2), Some(6), 1).unwrap();
    drop(t);
    assert_eq!(buffer.strong_count(), before + 1);
    assert_eq!(view.to_vec::<i32>().unwrap(), vec![2, 3, 4, 5]);
    drop(view);
    assert_eq!(buffer.strong_count(), before);
    let bad = Field::new("x", DataType::Int32, false).with_metadata(
        [("ARROW:extension:name".to_string(), "arrow.fixed_shape_tensor".to_string())].into(),
    );
    assert_eq!(Tensor::from_arrow(&array, Some(&bad)).unwrap_err().status, Status::Format);
    assert_eq!(buffer.strong_count(), before);
}

/// The exported array holds its own tensor reference, dropped with the array.
#[test]
fn exported_arrays_hold_the_tensor() {
    let t = Tensor::from_slice(&[1u16, 2, 3, 4], &[2, 2]).unwrap();
    let before = t.refcount();
    let (_, array) = t.to_arrow(true).unwrap();
    assert!(t.refcount() > before);
    drop(array);
    assert_eq!(t.refcount(), before);
}

/// An `arrow.variable_shape_tensor` built by arrow-rs: one view per row, in place.
#[test]
fn variable_shape_rows_are_viewed() {
    use arrow_array::{ListArray, StructArray};
    use arrow_buffer::OffsetBuffer;
    let values = Float32Array::from((0..10).map(|v| v as f32).collect::<Vec<_>>());
    let item = Arc::new(Field::new_list_field(DataType::Float32, false));
    let data = ListArray::new(item, OffsetBuffer::from_lengths([6, 4]), Arc::new(values.clone()), None);
    let dim = Arc::new(Field::new_list_field(DataType::Int32, false));
    let shape = FixedSizeListArray::try_new(dim, 2, Arc::new(Int32Array::from(vec![2, 3, 1, 4])), None).unwrap();
    let storage = StructArray::from(vec![
        (Arc::new(Field::new("data", data.data_type().clone(), false)), Arc::new(data) as Arc<dyn Array>),
        (Arc::new(Field::new("shape", shape.data_type().clone(), false)), Arc::new(shape) as Arc<dyn Array>),
    ]);
    let field = Field::new("t", storage.data_type().clone(), false).with_metadata(
        [
            ("ARROW:extension:name".to_string(), "arrow.variable_shape_tensor".to_string()),
            ("ARROW:extension:metadata".to_string(), "{}".to_string()),
        ]
        .into(),
    );
    let rows = Tensor::from_arrow_variable_shape(&storage, &field).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].sizes(), rows[1].sizes()), (&[2i64, 3][..], &[1i64, 4][..]));
    assert_eq!(rows[0].to_vec::<f32>().unwrap(), vec![0., 1., 2., 3., 4., 5.]);
    assert_eq!(rows[1].to_vec::<f32>().unwrap(), vec![6., 7., 8., 9.]);
    assert_eq!(rows[1].data_ptr() as *const f32, values.values()[6..].as_ptr());
}
