//! The generated declarations against the DLPack specification and the library.

use std::ffi::CStr;
use std::mem::{align_of, offset_of, size_of};

use ctensor_sys::*;

/// DLPack 1.0's layout on a 64-bit target, as its dlpack.h defines it.
#[test]
#[cfg(target_pointer_width = "64")]
fn dlpack_structs_have_the_specification_layout() {
    assert_eq!((size_of::<DLDevice>(), align_of::<DLDevice>()), (8, 4));
    assert_eq!((size_of::<DLDataType>(), align_of::<DLDataType>()), (4, 2));
    assert_eq!(
        [offset_of!(DLDataType, code), offset_of!(DLDataType, bits), offset_of!(DLDataType, lanes)],
        [0, 1, 2]
    );
    assert_eq!(size_of::<DLTensor>(), 48);
    assert_eq!(
        [
            offset_of!(DLTensor, data),
            offset_of!(DLTensor, device),
            offset_of!(DLTensor, ndim),
            offset_of!(DLTensor, dtype),
            offset_of!(DLTensor, shape),
            offset_of!(DLTensor, strides),
            offset_of!(DLTensor, byte_offset),
        ],
        [0, 8, 16, 20, 24, 32, 40]
    );
    assert_eq!(size_of::<DLManagedTensor>(), 64);
    assert_eq!(
        [offset_of!(DLManagedTensor, manager_ctx), offset_of!(DLManagedTensor, deleter)],
        [48, 56]
    );
    assert_eq!(size_of::<DLPackVersion>(), 8);
    assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
    assert_eq!(
        [
            offset_of!(DLManagedTensorVersioned, version),
            offset_of!(DLManagedTensorVersioned, manager_ctx),
            offset_of!(DLManagedTensorVersioned, deleter),
            offset_of!(DLManagedTensorVersioned, flags),
            offset_of!(DLManagedTensorVersioned, dl_tensor),
        ],
        [0, 8, 16, 24, 32]
    );
    assert_eq!(size_of::<tensor_release_fn>(), size_of::<usize>());
}

#[test]
fn header_version_matches_the_library() {
    let number = unsafe { tensor_version_number() };
    assert!(number >= CTENSOR_VERSION_NUMBER, "library {number} older than header");
    let text = unsafe { CStr::from_ptr(tensor_version_string()) }.to_str().unwrap();
    let expected = format!("{CTENSOR_VERSION_MAJOR}.{CTENSOR_VERSION_MINOR}.{CTENSOR_VERSION_PATCH}");
    assert_eq!(text, expected);
}

/// The status macros name themselves: tensor_status_name(TENSOR_E_X) == "TENSOR_E_X".
#[test]
fn status_constants_match_the_library_names() {
    let statuses = [
        (TENSOR_OK, "TENSOR_OK"),
        (TENSOR_E_INVALID, "TENSOR_E_INVALID"),
        (TENSOR_E_NOMEM, "TENSOR_E_NOMEM"),
        (TENSOR_E_BOUNDS, "TENSOR_E_BOUNDS"),
        (TENSOR_E_SHAPE, "TENSOR_E_SHAPE"),
        (TENSOR_E_STRIDE, "TENSOR_E_STRIDE"),
        (TENSOR_E_DTYPE, "TENSOR_E_DTYPE"),
        (TENSOR_E_OVERFLOW, "TENSOR_E_OVERFLOW"),
        (TENSOR_E_READONLY, "TENSOR_E_READONLY"),
        (TENSOR_E_OVERLAP, "TENSOR_E_OVERLAP"),
        (TENSOR_E_DEVICE, "TENSOR_E_DEVICE"),
        (TENSOR_E_COPY, "TENSOR_E_COPY"),
        (TENSOR_E_IO, "TENSOR_E_IO"),
        (TENSOR_E_FORMAT, "TENSOR_E_FORMAT"),
        (TENSOR_E_UNSUPPORTED, "TENSOR_E_UNSUPPORTED"),
        (TENSOR_E_INTERNAL, "TENSOR_E_INTERNAL"),
        (TENSOR_E_CANCELLED, "TENSOR_E_CANCELLED"),
    ];
    for (code, name) in statuses {
        let got = unsafe { CStr::from_ptr(tensor_status_name(code)) };
        assert_eq!(got.to_str().unwrap(), name);
    }
}

/// A raw round trip: create, view, inspect, fail with a message, release.
#[test]
fn raw_calls_follow_the_out_parameter_convention() {
    unsafe {
        let sizes = [2i64, 3];
        let mut t: *mut tensor_t = std::ptr::null_mut();
        assert_eq!(tensor_zeros(&mut t, 2, sizes.as_ptr(), TENSOR_FLOAT32), TENSOR_OK);
        assert_eq!(tensor_numel(t), 6);
        assert_eq!(tensor_dtype_size(tensor_dtype(t)), 4);
        let mut bad: *mut tensor_t = 1 as *mut tensor_t;
        assert_eq!(tensor_select(&mut bad, t, 0, 5), TENSOR_E_BOUNDS);
        assert!(bad.is_null());
        assert!(!CStr::from_ptr(tensor_last_error()).to_bytes().is_empty());
        tensor_release(t);
    }
}
