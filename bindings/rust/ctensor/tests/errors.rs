//! Misuse gives an Err with the library's status and message, never undefined behaviour.

use std::thread;

use ctensor::{sys, DType, DlpackTensor, Error, Index, Status, Storage, Tensor};

fn matrix() -> Tensor {
    Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap()
}

#[test]
fn index_out_of_range_is_the_library_bounds_error() {
    let t = matrix();
    let err = t.select(0, 2).unwrap_err();
    assert_eq!(err.status, Status::Bounds);
    assert!(err.message.starts_with("select:"), "{}", err.message);
    assert!(err.message.contains('2'), "{}", err.message);
    assert_eq!(t.get::<f32>(&[0, 3]).unwrap_err().status, Status::Bounds);
    assert_eq!(t.get::<f32>(&[0]).unwrap_err().status, Status::Invalid);
    assert_eq!(t.narrow(1, 2, 2).unwrap_err().status, Status::Bounds);
    let err = t.index(&[Index::Ellipsis, Index::Int(-4)]).unwrap_err();
    assert_eq!(err.status, Status::Bounds);
    assert!(!err.message.is_empty());
    assert_eq!(t.index(&[Index::Int(0); 3]).unwrap_err().status, Status::Invalid);
    let zero_step = Index::Slice { start: None, stop: None, step: 0 };
    assert_eq!(t.index(&[zero_step]).unwrap_err().status, Status::Invalid);
    assert_eq!(t.index(&[Index::Bool(false), Index::NewAxis]).unwrap().sizes(), [0, 1, 2, 3]);
    assert_eq!(t.transpose(0, 2).unwrap_err().status, Status::Invalid);
    let err = t.as_strided(&[2, 3], Some(&[3, 1]), 1).unwrap_err();
    assert_eq!(err.status, Status::Bounds);
    assert!(err.message.starts_with("as_strided: view needs storage bytes"), "{}", err.message);
}

#[test]
fn bad_shapes_are_the_library_shape_and_stride_errors() {
    let t = matrix();
    let err = t.view(&[4, 2]).unwrap_err();
    assert_eq!(err.status, Status::Shape);
    assert!(!err.message.is_empty());
    assert_eq!(t.view(&[-1, -1]).unwrap_err().status, Status::Shape);
    assert_eq!(t.transpose(0, 1).unwrap().view(&[6]).unwrap_err().status, Status::Stride);
    assert_eq!(t.expand(&[3, 3]).unwrap_err().status, Status::Shape);
    assert_eq!(t.permute(&[0]).unwrap_err().status, Status::Invalid);
    assert_eq!(t.slice(0, None, None, 0).unwrap_err().status, Status::Invalid);
    assert_eq!(Tensor::zeros(DType::Int8, &[1; 65]).unwrap_err().status, Status::Invalid);
    assert_eq!(Tensor::zeros(DType::Int8, &[i64::MAX, 4]).unwrap_err().status, Status::Overflow);
    assert_eq!(Tensor::from_slice(&[1u8; 5], &[2, 3]).unwrap_err().status, Status::Shape);
    // Strides of another length than the sizes are refused before C reads them.
    assert_eq!(t.as_strided(&[2, 3], Some(&[1]), 0).unwrap_err().status, Status::Invalid);
    let dst = Tensor::zeros(DType::Float32, &[3, 2]).unwrap();
    assert_eq!(dst.copy_from(&t).unwrap_err().status, Status::Shape);
    assert_eq!(t.view_dtype(DType::Float64).unwrap_err().status, Status::Shape);
}

#[test]
fn wrong_element_type_is_a_dtype_error() {
    let t = matrix();
    for err in [
        t.to_vec::<f64>().unwrap_err(),
        t.as_slice::<i32>().unwrap_err(),
        t.as_slice_mut::<u32>().unwrap_err(),
        t.iter::<f64>().map(|_| ()).unwrap_err(),
        t.get::<i64>(&[0, 0]).unwrap_err(),
    ] {
        assert_eq!(err.status, Status::DType);
        assert!(err.message.contains("float32"), "{}", err.message);
    }
    #[cfg(feature = "ndarray")]
    assert_eq!(t.as_array::<f64>().unwrap_err().status, Status::DType);
}

#[test]
fn bool_tensors_holding_other_bytes_are_refused_in_place_but_readable_by_copy() {
    let bytes = Tensor::from_slice(&[0u8, 1, 2, 1], &[4]).unwrap();
    let flags = bytes.view_dtype(DType::Bool).unwrap();
    let err = flags.as_slice::<bool>().unwrap_err();
    assert_eq!(err.status, Status::DType);
    assert!(err.message.contains("byte 2"), "{}", err.message);
    assert_eq!(flags.to_vec::<bool>().unwrap(), [false, true, true, true]);
    assert_eq!(flags.narrow(0, 0, 2).unwrap().as_slice::<bool>().unwrap().to_vec(), [false, true]);
}

#[test]
fn misaligned_in_place_access_is_refused_and_copies_still_work() {
    // Safe code only makes aligned tensors from Rust memory; foreign memory (here
    // wrapped through the raw API) may be misaligned.
    let bytes = vec![0u8; 16];
    let skip = (4 - bytes.as_ptr() as usize % 4) % 4 + 1;
    let f = unsafe {
        let mut s = std::ptr::null_mut();
        let data = bytes.as_ptr().add(skip) as *mut std::ffi::c_void;
        assert_eq!(sys::tensor_storage_wrap(&mut s, data, 8, 0, None, std::ptr::null_mut()), sys::TENSOR_OK);
        let s = Storage::from_raw(s).unwrap();
        Tensor::from_storage(&s, DType::Float32, &[2], None, 0).unwrap()
    };
    assert_ne!(f.data_ptr() as usize % 4, 0);
    let err = f.as_slice::<f32>().unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    assert!(err.message.contains("not aligned"), "{}", err.message);
    #[cfg(feature = "ndarray")]
    assert_eq!(f.as_array::<f32>().unwrap_err().status, Status::Invalid);
    assert_eq!(f.to_vec::<f32>().unwrap(), [0.0, 0.0]);
    assert_eq!(f.iter::<f32>().unwrap().count(), 2);
    drop(f);
    drop(bytes);
}

#[test]
fn read_only_storages_refuse_every_write() {
    let storage = Storage::from_vec(vec![1i16, 2, 3, 4], true).unwrap();
    let t = Tensor::from_storage(&storage, DType::Int16, &[2, 2], None, 0).unwrap();
    assert!(t.is_readonly() && t.transpose(0, 1).unwrap().is_readonly());
    let err = t.fill(0.0).unwrap_err();
    assert_eq!(err.status, Status::ReadOnly);
    assert!(!err.message.is_empty());
    assert_eq!(t.copy_from(&t.clone_data().unwrap()).unwrap_err().status, Status::ReadOnly);
    assert_eq!(t.as_slice_mut::<i16>().unwrap_err().status, Status::ReadOnly);
    #[cfg(feature = "ndarray")]
    assert_eq!(t.as_array_mut::<i16>().unwrap_err().status, Status::ReadOnly);
    assert_eq!(&*t.as_slice::<i16>().unwrap(), &[1, 2, 3, 4]);
    let copy = t.clone_data().unwrap();
    assert!(!copy.is_readonly());
    copy.fill(9.0).unwrap();
    assert_eq!(copy.to_vec::<i16>().unwrap(), [9; 4]);
    // The read-only flag travels through DLPack.
    let exported = t.to_dlpack().unwrap();
    assert!(exported.is_read_only());
    assert!(Tensor::from_dlpack(exported).unwrap().is_readonly());
}

#[test]
fn conflicting_borrows_are_overlap_errors() {
    let t = Tensor::zeros(DType::Float64, &[4, 4]).unwrap();
    let row = t.select(0, 1).unwrap();
    let other_row = t.select(0, 2).unwrap();
    {
        let reading = row.as_slice::<f64>().unwrap();
        assert_eq!(reading.len(), 4);
        assert_eq!(t.fill(1.0).unwrap_err().status, Status::Overlap);
        assert_eq!(row.as_slice_mut::<f64>().unwrap_err().status, Status::Overlap);
        assert!(t.to_vec::<f64>().is_ok(), "readers share");
        other_row.fill(2.0).unwrap();
        // A DLPack re-import has its own storage over the same bytes: still checked.
        let alias = Tensor::from_dlpack(t.to_dlpack().unwrap()).unwrap();
        assert_eq!(alias.fill(3.0).unwrap_err().status, Status::Overlap);
    }
    {
        let mut writing = row.as_slice_mut::<f64>().unwrap();
        writing[0] = 5.0;
        let err = t.to_vec::<f64>().unwrap_err();
        assert_eq!(err.status, Status::Overlap);
        assert!(err.message.starts_with("to_vec: cannot read"), "{}", err.message);
        assert_eq!(t.contiguous().unwrap_err().status, Status::Overlap);
        assert_eq!(t.iter::<f64>().map(|_| ()).unwrap_err().status, Status::Overlap);
        assert_eq!(other_row.to_vec::<f64>().unwrap(), [2.0; 4]);
    }
    assert_eq!(t.get::<f64>(&[1, 0]).unwrap(), 5.0);
    t.fill(1.0).unwrap();
}

#[test]
fn borrows_are_checked_across_threads() {
    let t = Tensor::zeros(DType::Int32, &[1024]).unwrap();
    let view = t.as_slice::<i32>().unwrap();
    thread::scope(|s| {
        s.spawn(|| assert_eq!(t.clone().fill(1.0).unwrap_err().status, Status::Overlap));
    });
    drop(view);
    thread::spawn(move || t.fill(1.0).unwrap()).join().unwrap();
}

#[test]
fn non_cpu_memory_is_tagged_and_never_touched() {
    // A DLPack tensor that claims to live on a CUDA device (the bytes are never read).
    let mut shape = [2i64, 2];
    let mut managed = Box::new(sys::DLManagedTensorVersioned {
        version: sys::DLPackVersion { major: 1, minor: 0 },
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(delete_boxed),
        flags: 0,
        dl_tensor: sys::DLTensor {
            data: 0x1000 as *mut _,
            device: sys::DLDevice { device_type: sys::kDLCUDA, device_id: 3 },
            ndim: 2,
            dtype: sys::DLDataType { code: sys::kDLFloat as u8, bits: 32, lanes: 1 },
            shape: shape.as_mut_ptr(),
            strides: std::ptr::null_mut(),
            byte_offset: 0,
        },
    });
    managed.manager_ctx = std::ptr::addr_of_mut!(*managed).cast();
    let managed = unsafe { DlpackTensor::from_raw(Box::into_raw(managed)) }.unwrap();
    let t = Tensor::from_dlpack(managed).unwrap();
    assert_eq!(t.device(), (sys::kDLCUDA as i32, 3));
    let tt = t.transpose(0, 1).unwrap();
    assert_eq!(tt.strides(), [1, 2]);
    assert_eq!(t.as_slice::<f32>().unwrap_err().status, Status::Device);
    assert_eq!(t.iter::<f32>().map(|_| ()).unwrap_err().status, Status::Device);
    assert_eq!(t.to_vec::<f32>().unwrap_err().status, Status::Device);
    assert_eq!(tt.contiguous().unwrap_err().status, Status::Device);
    assert_eq!(t.fill(0.0).unwrap_err().status, Status::Device);
    #[cfg(feature = "ndarray")]
    assert_eq!(t.as_array::<f32>().unwrap_err().status, Status::Device);
}

unsafe extern "C" fn delete_boxed(m: *mut sys::DLManagedTensorVersioned) {
    drop(unsafe { Box::from_raw(m) });
}

#[test]
fn rejected_dlpack_is_deleted_once() {
    static DELETED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    unsafe extern "C" fn count(m: *mut sys::DLManagedTensorVersioned) {
        DELETED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        drop(unsafe { Box::from_raw(m) });
    }
    let t = Tensor::zeros(DType::UInt8, &[2]).unwrap();
    let exported = t.to_dlpack().unwrap();
    let mut raw = exported.as_raw().dl_tensor;
    raw.dtype.lanes = 4;
    let managed = Box::new(sys::DLManagedTensorVersioned {
        version: sys::DLPackVersion { major: 1, minor: 0 },
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(count),
        flags: 0,
        dl_tensor: raw,
    });
    let managed = unsafe { DlpackTensor::from_raw(Box::into_raw(managed)) }.unwrap();
    let err = Tensor::from_dlpack(managed).unwrap_err();
    assert_eq!(err.status, Status::DType);
    assert_eq!(DELETED.load(std::sync::atomic::Ordering::SeqCst), 1);
    drop(exported);
}

#[test]
fn null_handles_are_none_and_errors_display_their_status() {
    assert!(unsafe { Tensor::from_raw(std::ptr::null_mut()) }.is_none());
    assert!(unsafe { Storage::from_raw(std::ptr::null_mut()) }.is_none());
    assert!(unsafe { DlpackTensor::from_raw(std::ptr::null_mut()) }.is_none());
    let err = matrix().select(1, -4).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("TENSOR_E_BOUNDS: select:"), "{text}");
    let boxed: Box<dyn std::error::Error> = Box::new(err.clone());
    assert_eq!(boxed.to_string(), text);
    assert_eq!(ctensor::set_num_threads(0).unwrap_err().status, Status::Invalid);
}

#[test]
fn messages_belong_to_the_thread_that_failed() {
    let here = matrix().select(0, 9).unwrap_err();
    let there: Error = thread::spawn(|| matrix().view(&[5]).unwrap_err()).join().unwrap();
    assert_eq!((here.status, there.status), (Status::Bounds, Status::Shape));
    assert_ne!(here.message, there.message);
    // A later failure on this thread does not change the message already taken.
    let _ = matrix().transpose(5, 0);
    assert!(here.message.starts_with("select:"));
}

#[test]
fn concurrent_readers_never_see_a_write_in_progress() {
    // Writers fill their own rows again and again while readers copy the whole
    // tensor: each access either runs alone on its bytes or fails with Overlap,
    // so every row a reader sees holds one value (a torn row would mix two).
    let rows = 4;
    let t = Tensor::zeros(DType::Int64, &[rows, 4096]).unwrap();
    let (mut reads, mut refused) = (0, 0);
    thread::scope(|s| {
        for r in 0..rows {
            let row = t.select(0, r).unwrap();
            s.spawn(move || {
                for k in 1..=200 {
                    match row.fill(k as f64) {
                        Ok(()) => {}
                        Err(e) => assert_eq!(e.status, Status::Overlap, "{e}"),
                    }
                }
            });
        }
        for _ in 0..200 {
            match t.to_vec::<i64>() {
                Ok(values) => {
                    reads += 1;
                    for row in values.chunks(4096) {
                        assert!(row.iter().all(|&v| v == row[0]), "a torn row");
                    }
                }
                Err(e) => {
                    assert_eq!(e.status, Status::Overlap, "{e}");
                    refused += 1;
                }
            }
        }
    });
    assert_eq!(reads + refused, 200);
    // Once the writers are done, nothing is borrowed any more.
    t.fill(-1.0).unwrap();
    assert!(t.to_vec::<i64>().unwrap().iter().all(|&v| v == -1));
}
