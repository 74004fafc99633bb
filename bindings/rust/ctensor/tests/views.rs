//! Every view method, copies and conversions; expected layouts are PyTorch 1.13's.

use ctensor::{bf16, f16, Complex, CopyMode, DType, Status, Tensor};

/// torch.arange(24, dtype=float32).reshape(2, 3, 4)
fn arange() -> Tensor {
    let data: Vec<f32> = (0..24).map(|i| i as f32).collect();
    Tensor::from_vec(data, &[2, 3, 4]).unwrap()
}

/// sizes, strides, storage offset, contiguous
type Layout = (Vec<i64>, Vec<i64>, i64, bool);

fn layout(t: &Tensor) -> Layout {
    (t.sizes().to_vec(), t.strides().to_vec(), t.storage_offset(), t.is_contiguous())
}

#[test]
fn views_have_pytorch_layouts() {
    let t = arange();
    let cases: Vec<(&str, Tensor, Layout)> = vec![
        ("transpose", t.transpose(0, 2).unwrap(), (vec![4, 3, 2], vec![1, 4, 12], 0, false)),
        ("permute", t.permute(&[2, 0, 1]).unwrap(), (vec![4, 2, 3], vec![1, 12, 4], 0, false)),
        (
            "slice",
            t.slice(1, Some(1), None, 2).unwrap().slice(2, Some(1), Some(3), 1).unwrap(),
            (vec![2, 1, 2], vec![12, 8, 1], 5, false),
        ),
        ("select", t.select(1, -1).unwrap(), (vec![2, 4], vec![12, 1], 8, false)),
        ("narrow", t.narrow(2, 1, 2).unwrap(), (vec![2, 3, 2], vec![12, 4, 1], 1, false)),
        (
            "expand",
            t.narrow(1, 0, 1).unwrap().expand(&[5, 2, 3, 4]).unwrap(),
            (vec![5, 2, 3, 4], vec![0, 12, 0, 1], 0, false),
        ),
        (
            "broadcast_to",
            t.narrow(1, 0, 1).unwrap().broadcast_to(&[2, 3, 4]).unwrap(),
            (vec![2, 3, 4], vec![12, 0, 1], 0, false),
        ),
        ("squeeze", t.narrow(1, 0, 1).unwrap().squeeze(1).unwrap(), (vec![2, 4], vec![12, 1], 0, false)),
        (
            "squeeze_all",
            t.narrow(0, 0, 1).unwrap().narrow(1, 0, 1).unwrap().squeeze_all().unwrap(),
            (vec![4], vec![1], 0, true),
        ),
        ("unsqueeze", t.unsqueeze(-1).unwrap(), (vec![2, 3, 4, 1], vec![12, 4, 1, 1], 0, true)),
        ("flatten", t.flatten(1, 2).unwrap(), (vec![2, 12], vec![12, 1], 0, true)),
        ("view", t.view(&[4, -1]).unwrap(), (vec![4, 6], vec![6, 1], 0, true)),
        ("view_dtype", t.view_dtype(DType::Int16).unwrap(), (vec![2, 3, 8], vec![24, 8, 1], 0, true)),
        ("as_strided", t.as_strided(&[3, 3], Some(&[1, 4]), 2).unwrap(), (vec![3, 3], vec![1, 4], 2, false)),
        ("reshape (copy)", t.transpose(0, 1).unwrap().reshape(&[6, 4]).unwrap(), (vec![6, 4], vec![4, 1], 0, true)),
    ];
    for (name, view, expected) in cases {
        assert_eq!(layout(&view), expected, "{name}");
    }
    // Views share the storage; the reshape that had to copy does not.
    assert_eq!(t.transpose(0, 2).unwrap().data_ptr(), t.data_ptr());
    let copied = t.transpose(0, 1).unwrap().reshape(&[6, 4]).unwrap();
    assert_ne!(copied.data_ptr(), t.data_ptr());
    assert_eq!(copied.get::<f32>(&[1, 0]).unwrap(), 12.0);
}

#[test]
fn views_read_the_right_elements() {
    let t = arange();
    let s = t.slice(1, Some(1), None, 2).unwrap().slice(2, Some(1), Some(3), 1).unwrap();
    assert_eq!(s.to_vec::<f32>().unwrap(), [5.0, 6.0, 17.0, 18.0]);
    assert_eq!(s.iter::<f32>().unwrap().collect::<Vec<_>>(), [5.0, 6.0, 17.0, 18.0]);
    let reversed = t.select(0, 0).unwrap().select(0, 0).unwrap().slice(0, None, None, -1).unwrap();
    assert_eq!(reversed.strides(), [-1]);
    assert_eq!(reversed.to_vec::<f32>().unwrap(), [3.0, 2.0, 1.0, 0.0]);
    assert_eq!(t.get::<f32>(&[1, 2, 3]).unwrap(), 23.0);
    assert_eq!(t.get::<f32>(&[-1, -1, -1]).unwrap(), 23.0);
    let scalar = t.select(0, 1).unwrap().select(0, 1).unwrap().select(0, 1).unwrap();
    assert_eq!((scalar.ndim(), scalar.numel()), (0, 1));
    assert_eq!(scalar.get::<f32>(&[]).unwrap(), 17.0);
    assert_eq!(&*scalar.as_slice::<f32>().unwrap(), &[17.0]);
    let it = t.transpose(0, 2).unwrap();
    let it = it.iter::<f32>().unwrap();
    assert_eq!(it.len(), 24);
    assert_eq!(it.take(4).collect::<Vec<_>>(), [0.0, 12.0, 4.0, 16.0]);
}

#[test]
fn copies_and_conversions() {
    let t = arange();
    let tt = t.transpose(0, 2).unwrap();
    let c = tt.contiguous().unwrap();
    assert!(c.is_contiguous() && c.data_ptr() != t.data_ptr());
    assert_eq!(c.to_vec::<f32>().unwrap(), tt.to_vec::<f32>().unwrap());
    let same = t.contiguous().unwrap();
    assert_eq!(same.as_raw(), t.as_raw(), "a contiguous tensor is returned itself");
    let cloned = t.clone_data().unwrap();
    assert_ne!(cloned.data_ptr(), t.data_ptr());

    // copy_from broadcasts and converts.
    let dst = Tensor::zeros(DType::Int32, &[2, 3]).unwrap();
    dst.copy_from(&Tensor::from_slice(&[1.9f64, -2.9, 3.0], &[3]).unwrap()).unwrap();
    assert_eq!(dst.to_vec::<i32>().unwrap(), [1, -2, 3, 1, -2, 3]);
    // ... and is correct between overlapping views of one storage.
    let v = Tensor::from_slice(&[1i64, 2, 3, 4, 5], &[5]).unwrap();
    v.narrow(0, 1, 4).unwrap().copy_from(&v.narrow(0, 0, 4).unwrap()).unwrap();
    assert_eq!(v.to_vec::<i64>().unwrap(), [1, 1, 2, 3, 4]);
    assert_eq!(v.expand(&[2, 5]).unwrap().fill(0.0).unwrap_err().status, Status::Overlap);

    // Conversions follow the library's rules (float -> uint8 saturates).
    let f = Tensor::from_slice(&[1.7f32, -2.5, 300.0, 0.5], &[4]).unwrap();
    assert_eq!(f.to(DType::UInt8).unwrap().to_vec::<u8>().unwrap(), [1, 0, 255, 0]);
    assert_eq!(f.to(DType::Int16).unwrap().to_vec::<i16>().unwrap(), [1, -2, 300, 0]);
    assert_eq!(f.to(DType::Bool).unwrap().to_vec::<bool>().unwrap(), [true, true, true, true]);
    assert_eq!(f.to(DType::Float16).unwrap().to_vec::<f16>().unwrap()[3], f16::from_f32(0.5));
    assert_eq!(f.to(DType::BFloat16).unwrap().to_vec::<bf16>().unwrap()[2], bf16::from_f32(300.0));
    let z = f.to(DType::Complex64).unwrap().to_vec::<Complex<f32>>().unwrap();
    assert_eq!(z[0], Complex::new(1.7, 0.0));
    assert_eq!(f.to(DType::Float32).unwrap().as_raw(), f.as_raw());
    assert_ne!(f.to_with(DType::Float32, CopyMode::Always).unwrap().as_raw(), f.as_raw());
    assert_eq!(f.to_with(DType::Int8, CopyMode::Never).unwrap_err().status, Status::Copy);

    let filled = Tensor::empty(DType::Complex128, &[3]).unwrap();
    filled.fill(2.5).unwrap();
    assert_eq!(filled.to_vec::<Complex<f64>>().unwrap(), [Complex::new(2.5, 0.0); 3]);
    tt.slice(0, None, None, 2).unwrap().fill(-1.0).unwrap();
    assert_eq!(t.select(0, 0).unwrap().select(0, 0).unwrap().to_vec::<f32>().unwrap(), [-1.0, 1.0, -1.0, 3.0]);
}

#[test]
fn mutable_slices_write_through_to_every_view() {
    let t = Tensor::zeros(DType::UInt64, &[2, 3]).unwrap();
    let row = t.select(0, 1).unwrap();
    {
        let mut s = row.as_slice_mut::<u64>().unwrap();
        s.copy_from_slice(&[7, 8, 9]);
    }
    assert_eq!(t.transpose(0, 1).unwrap().to_vec::<u64>().unwrap(), [0, 7, 0, 8, 0, 9]);
    let flags = Tensor::zeros(DType::Bool, &[3]).unwrap();
    flags.as_slice_mut::<bool>().unwrap()[2] = true;
    assert_eq!(flags.to_vec::<bool>().unwrap(), [false, false, true]);
    assert_eq!(flags.to(DType::UInt8).unwrap().to_vec::<u8>().unwrap(), [0, 0, 1]);
}

#[test]
fn every_element_type_round_trips() {
    fn round_trip<T: ctensor::Element + PartialEq + std::fmt::Debug>(values: &[T]) {
        let n = values.len() as i64;
        let copied = Tensor::from_slice(values, &[n]).unwrap();
        let shared = Tensor::from_vec(values.to_vec(), &[n]).unwrap();
        assert_eq!(copied.dtype(), T::DTYPE);
        assert_eq!(copied.to_vec::<T>().unwrap(), values);
        assert_eq!(&*shared.as_slice::<T>().unwrap(), values);
        assert_eq!(shared.slice(0, None, None, -1).unwrap().iter::<T>().unwrap().last().unwrap(), values[0]);
    }
    round_trip(&[0u8, 255]);
    round_trip(&[-128i8, 127]);
    round_trip(&[i16::MIN, 1]);
    round_trip(&[i32::MIN, 2]);
    round_trip(&[i64::MIN, 3]);
    round_trip(&[u16::MAX, 4]);
    round_trip(&[u32::MAX, 5]);
    round_trip(&[u64::MAX, 6]);
    round_trip(&[f32::MIN_POSITIVE, -0.5]);
    round_trip(&[f64::MAX, 1e-300]);
    round_trip(&[true, false]);
    round_trip(&[f16::MAX, f16::from_f32(-1.5)]);
    round_trip(&[bf16::MIN, bf16::from_f32(2.0)]);
    round_trip(&[Complex::new(1.0f32, -2.0), Complex::new(0.0, 3.0)]);
    round_trip(&[Complex::new(1.0f64, -2.0), Complex::new(0.0, 3.0)]);
}

#[test]
fn empty_tensors() {
    let t = Tensor::from_vec(Vec::<f32>::new(), &[0, 3]).unwrap();
    assert_eq!((t.numel(), t.sizes()), (0, &[0i64, 3][..]));
    assert!(t.to_vec::<f32>().unwrap().is_empty());
    assert!(t.as_slice::<f32>().unwrap().is_empty());
    assert_eq!(t.iter::<f32>().unwrap().count(), 0);
    t.fill(1.0).unwrap();
    let e = Tensor::from_slice::<i32>(&[], &[2, 0]).unwrap();
    assert_eq!(e.transpose(0, 1).unwrap().sizes(), [0, 2]);
}

#[test]
fn dlpack_round_trip_shares_memory() {
    let t = arange().permute(&[1, 2, 0]).unwrap().slice(1, None, None, -1).unwrap();
    let exported = t.to_dlpack().unwrap();
    let raw = exported.as_raw();
    assert_eq!(raw.version.major, 1);
    assert_eq!(raw.dl_tensor.ndim, 3);
    assert_eq!(raw.dl_tensor.data.cast::<u8>(), t.data_ptr());
    let strides = unsafe { std::slice::from_raw_parts(raw.dl_tensor.strides, 3) };
    assert_eq!(strides, t.strides());
    let back = Tensor::from_dlpack(exported).unwrap();
    assert_eq!(layout(&back).0, t.sizes());
    assert_eq!(back.strides(), t.strides());
    assert_eq!(back.data_ptr(), t.data_ptr());
    assert_eq!(back.to_vec::<f32>().unwrap(), t.to_vec::<f32>().unwrap());
    assert_eq!(back.device(), (1, 0));
    // The export holds its own reference: the original may go first.
    let storage = t.storage();
    let exported = t.to_dlpack().unwrap();
    let before = storage.refcount();
    drop(t);
    drop(back);
    assert!(storage.refcount() >= 2);
    drop(exported);
    assert!(storage.refcount() < before);
    // Raw hand-over: the C consumer is ctensor itself.
    let raw = Tensor::zeros(DType::Int8, &[3]).unwrap().to_dlpack().unwrap().into_raw();
    let mut out = std::ptr::null_mut();
    assert_eq!(unsafe { ctensor::sys::tensor_from_dlpack(&mut out, raw) }, 0);
    let imported = unsafe { Tensor::from_raw(out) }.unwrap();
    assert_eq!(imported.to_vec::<i8>().unwrap(), [0, 0, 0]);
}

#[test]
fn legacy_dlpack_round_trip() {
    let t = arange().select(2, 1).unwrap();
    let exported = t.to_dlpack_legacy().unwrap();
    assert_eq!(exported.as_raw().dl_tensor.data.cast::<u8>(), t.data_ptr());
    let back = Tensor::from_dlpack(exported).unwrap();
    assert_eq!((back.sizes(), back.strides()), (t.sizes(), t.strides()));
    assert_eq!(back.to_vec::<f32>().unwrap(), [1.0, 5.0, 9.0, 13.0, 17.0, 21.0]);
    let read_only = ctensor::Storage::from_vec(vec![1u8], true).unwrap();
    let r = Tensor::from_storage(&read_only, DType::UInt8, &[1], None, 0).unwrap();
    assert_eq!(r.to_dlpack_legacy().unwrap_err().status, Status::ReadOnly);
}

#[test]
fn storages_and_raw_handles() {
    let t = arange();
    let s = t.storage();
    assert_eq!(s.nbytes(), 96);
    assert_eq!(s.as_ptr(), t.data_ptr());
    let v = Tensor::from_storage(&s, DType::Float32, &[2, 2], Some(&[1, 2]), 20).unwrap();
    assert_eq!(v.to_vec::<f32>().unwrap(), [20.0, 22.0, 21.0, 23.0]);
    assert_eq!(Tensor::from_storage(&s, DType::Float32, &[5], None, 20).unwrap_err().status, Status::Bounds);
    let raw = v.clone().into_raw();
    let back = unsafe { Tensor::from_raw(raw) }.unwrap();
    assert_eq!(back.refcount(), 2);
    assert_eq!(format!("{back:?}"), "Tensor { dtype: Float32, sizes: [2, 2], strides: [1, 2], storage_offset: 20 }");
    let threads = ctensor::num_threads();
    assert!(threads >= 1);
    ctensor::set_num_threads(2).unwrap();
    assert_eq!(ctensor::num_threads(), 2);
    ctensor::set_num_threads(threads).unwrap();
}
