//! The Rust enums carry exactly the header's values and the library's names.

use std::ffi::CStr;

use ctensor::{sys, bf16, f16, Complex, DType, Element, Status};

#[test]
fn status_values_equal_the_header_constants() {
    let header = [
        (Status::Invalid, sys::TENSOR_E_INVALID),
        (Status::NoMem, sys::TENSOR_E_NOMEM),
        (Status::Bounds, sys::TENSOR_E_BOUNDS),
        (Status::Shape, sys::TENSOR_E_SHAPE),
        (Status::Stride, sys::TENSOR_E_STRIDE),
        (Status::DType, sys::TENSOR_E_DTYPE),
        (Status::Overflow, sys::TENSOR_E_OVERFLOW),
        (Status::ReadOnly, sys::TENSOR_E_READONLY),
        (Status::Overlap, sys::TENSOR_E_OVERLAP),
        (Status::Device, sys::TENSOR_E_DEVICE),
        (Status::Copy, sys::TENSOR_E_COPY),
        (Status::Io, sys::TENSOR_E_IO),
        (Status::Format, sys::TENSOR_E_FORMAT),
        (Status::Unsupported, sys::TENSOR_E_UNSUPPORTED),
        (Status::Internal, sys::TENSOR_E_INTERNAL),
        (Status::Cancelled, sys::TENSOR_E_CANCELLED),
    ];
    for (status, value) in header {
        assert_eq!(status.code(), value, "{status:?}");
        assert_eq!(Status::from_code(value), Some(status));
    }
    assert_eq!(Status::Internal.code(), 15);
    assert_eq!(Status::from_code(sys::TENSOR_OK), None);
    assert_eq!(Status::from_code(17), None);
    assert_eq!(Status::ALL.len(), header.len());
}

#[test]
fn status_names_equal_the_library_names() {
    for status in Status::ALL {
        let name = unsafe { sys::tensor_status_name(status.code()) };
        assert!(!name.is_null(), "the library has no name for {status:?}");
        assert_eq!(unsafe { CStr::from_ptr(name) }.to_str().unwrap(), status.name());
        assert_eq!(status.to_string(), status.name());
    }
}

#[test]
fn dtype_values_names_and_sizes_equal_the_library() {
    let header = [
        (DType::UInt8, sys::TENSOR_UINT8),
        (DType::Int8, sys::TENSOR_INT8),
        (DType::Int16, sys::TENSOR_INT16),
        (DType::Int32, sys::TENSOR_INT32),
        (DType::Int64, sys::TENSOR_INT64),
        (DType::Float16, sys::TENSOR_FLOAT16),
        (DType::Float32, sys::TENSOR_FLOAT32),
        (DType::Float64, sys::TENSOR_FLOAT64),
        (DType::Complex64, sys::TENSOR_COMPLEX64),
        (DType::Complex128, sys::TENSOR_COMPLEX128),
        (DType::Bool, sys::TENSOR_BOOL),
        (DType::BFloat16, sys::TENSOR_BFLOAT16),
        (DType::UInt16, sys::TENSOR_UINT16),
        (DType::UInt32, sys::TENSOR_UINT32),
        (DType::UInt64, sys::TENSOR_UINT64),
    ];
    assert_eq!(header.len(), DType::ALL.len());
    for (dtype, value) in header {
        assert_eq!(dtype.code(), value);
        assert_eq!(DType::from_code(value), Some(dtype));
        assert_eq!(dtype.size(), unsafe { sys::tensor_dtype_size(value) });
    }
    let names: Vec<&str> = DType::ALL.iter().map(|d| d.name()).collect();
    assert_eq!(
        names,
        [
            "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
            "complex128", "bool", "bfloat16", "uint16", "uint32", "uint64"
        ]
    );
    assert_eq!(DType::from_code(8), None);
}

#[test]
fn dtype_kinds_and_signedness_follow_pytorch() {
    use ctensor::Kind;
    let kinds = [
        (Kind::Bool, sys::TENSOR_KIND_BOOL),
        (Kind::Int, sys::TENSOR_KIND_INT),
        (Kind::Float, sys::TENSOR_KIND_FLOAT),
        (Kind::Complex, sys::TENSOR_KIND_COMPLEX),
    ];
    for (kind, value) in kinds {
        assert_eq!(kind as i32, value);
    }
    assert!(Kind::Bool < Kind::Int && Kind::Int < Kind::Float && Kind::Float < Kind::Complex);
    // torch.<dtype>.is_signed / is_floating_point / is_complex for every dtype.
    let expected = [
        (DType::UInt8, Kind::Int, false),
        (DType::Int8, Kind::Int, true),
        (DType::Int16, Kind::Int, true),
        (DType::Int32, Kind::Int, true),
        (DType::Int64, Kind::Int, true),
        (DType::Float16, Kind::Float, true),
        (DType::Float32, Kind::Float, true),
        (DType::Float64, Kind::Float, true),
        (DType::Complex64, Kind::Complex, true),
        (DType::Complex128, Kind::Complex, true),
        (DType::Bool, Kind::Bool, false),
        (DType::BFloat16, Kind::Float, true),
        (DType::UInt16, Kind::Int, false),
        (DType::UInt32, Kind::Int, false),
        (DType::UInt64, Kind::Int, false),
    ];
    for (dtype, kind, signed) in expected {
        assert_eq!((dtype.kind(), dtype.is_signed()), (kind, signed), "{dtype}");
    }
}

#[test]
fn index_kinds_equal_the_header() {
    assert_eq!(
        [sys::TENSOR_INDEX_INT, sys::TENSOR_INDEX_SLICE, sys::TENSOR_INDEX_NEWAXIS, sys::TENSOR_INDEX_ELLIPSIS, sys::TENSOR_INDEX_BOOL],
        [0, 1, 2, 3, 4]
    );
}

fn element_size_matches<T: Element>() {
    assert_eq!(std::mem::size_of::<T>(), T::DTYPE.size(), "{}", std::any::type_name::<T>());
    assert!(std::mem::align_of::<T>() <= T::DTYPE.size());
}

#[test]
fn element_types_have_their_dtype_size() {
    element_size_matches::<u8>();
    element_size_matches::<i8>();
    element_size_matches::<i16>();
    element_size_matches::<i32>();
    element_size_matches::<i64>();
    element_size_matches::<u16>();
    element_size_matches::<u32>();
    element_size_matches::<u64>();
    element_size_matches::<f32>();
    element_size_matches::<f64>();
    element_size_matches::<bool>();
    element_size_matches::<f16>();
    element_size_matches::<bf16>();
    element_size_matches::<Complex<f32>>();
    element_size_matches::<Complex<f64>>();
    let dtypes = [
        u8::DTYPE, i8::DTYPE, i16::DTYPE, i32::DTYPE, i64::DTYPE, u16::DTYPE, u32::DTYPE, u64::DTYPE,
        f32::DTYPE, f64::DTYPE, bool::DTYPE, f16::DTYPE, bf16::DTYPE, <Complex<f32>>::DTYPE,
        <Complex<f64>>::DTYPE,
    ];
    let mut sorted: Vec<i32> = dtypes.iter().map(|d| d.code()).collect();
    sorted.sort();
    let mut all: Vec<i32> = DType::ALL.iter().map(|d| d.code()).collect();
    all.sort();
    assert_eq!(sorted, all, "every dtype has exactly one element type");
}

#[test]
fn limits_and_version() {
    assert_eq!(sys::TENSOR_MAX_DIMS, 64);
    assert_eq!(sys::TENSOR_SLICE_END, i64::MAX);
    assert_eq!(sys::TENSOR_ALL_DIMS, i64::MIN);
    assert_eq!(sys::TENSOR_READONLY, 1);
    assert_eq!(sys::DLPACK_FLAG_BITMASK_READ_ONLY, 1);
    let header = format!("{}.{}.{}", sys::CTENSOR_VERSION_MAJOR, sys::CTENSOR_VERSION_MINOR, sys::CTENSOR_VERSION_PATCH);
    assert_eq!(ctensor::version(), header);
}
