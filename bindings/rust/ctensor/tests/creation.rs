//! ones, full, arange, eye, broadcast_tensors and convert, against PyTorch's
//! values; indices and sizes given as usize.

#[cfg(feature = "experimental")]
use ctensor::convert;
use ctensor::{s, Complex, DType, Status, Tensor};

#[test]
fn ones_and_full_in_every_dtype() {
    assert_eq!(Tensor::ones(DType::Float32, &[2, 3]).unwrap().to_vec::<f32>().unwrap(), [1.0; 6]);
    assert_eq!(Tensor::ones(DType::Bool, &[2]).unwrap().to_vec::<bool>().unwrap(), [true; 2]);
    assert_eq!(Tensor::ones(DType::Int8, &[]).unwrap().sizes(), [0i64; 0]);
    // torch.full((2,), 2**62 + 1, dtype=torch.int64): exact, no trip through f64.
    let big = (1i64 << 62) + 1;
    assert_eq!(Tensor::full(DType::Int64, &[2], big).unwrap().to_vec::<i64>().unwrap(), [big; 2]);
    // torch.full((3,), -1.7, dtype=torch.int32) truncates toward zero.
    assert_eq!(Tensor::full(DType::Int32, &[3], -1.7f64).unwrap().to_vec::<i32>().unwrap(), [-1; 3]);
    let z = Tensor::full(DType::Complex128, &[2], Complex::new(0.5f32, 2.0)).unwrap();
    assert_eq!(z.to_vec::<Complex<f64>>().unwrap(), [Complex::new(0.5, 2.0); 2]);
    let t = Tensor::full(DType::Float64, &[2, 0], 3.0f64).unwrap();
    assert_eq!((t.sizes(), t.numel()), (&[2, 0][..], 0));
    assert!(!t.is_readonly() && t.is_contiguous());
    assert_eq!(Tensor::full(DType::Float32, &[-1], 1.0f32).unwrap_err().status, Status::Invalid);
}

#[test]
fn arange_matches_torch() {
    // torch.arange(-3, 4, 2), torch.arange(10, 0, -3), torch.arange(3, 3)
    assert_eq!(Tensor::arange(-3, 4, 2).unwrap().to_vec::<i64>().unwrap(), [-3, -1, 1, 3]);
    assert_eq!(Tensor::arange(10, 0, -3).unwrap().to_vec::<i64>().unwrap(), [10, 7, 4, 1]);
    assert_eq!(Tensor::arange(3, 3, 1).unwrap().sizes(), [0]);
    let n: usize = 4;
    let t = Tensor::arange(0, n, 1).unwrap();
    assert_eq!((t.dtype(), t.to_vec::<i64>().unwrap()), (DType::Int64, vec![0, 1, 2, 3]));
    // Near the ends of int64 the count is exact.
    let top = Tensor::arange(i64::MAX - 2, i64::MAX, 1).unwrap();
    assert_eq!(top.to_vec::<i64>().unwrap(), [i64::MAX - 2, i64::MAX - 1]);
    // torch.arange(0, 1, 0.1, dtype=torch.float64) has 10 elements; (0.3 - 0) / 0.1 is 2.9999...96.
    let tenths = Tensor::arange_f64(0.0, 1.0, 0.1, DType::Float64).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(tenths.len(), 10);
    assert_eq!(tenths[3], 3.0 * 0.1);
    assert_eq!(Tensor::arange_f64(0.0, 0.3, 0.1, DType::Float64).unwrap().numel(), 3);
    // torch.arange(1, -1, -0.5, dtype=torch.float16)
    let h = Tensor::arange_f64(1.0, -1.0, -0.5, DType::Float16).unwrap();
    assert_eq!(h.to(DType::Float32).unwrap().to_vec::<f32>().unwrap(), [1.0, 0.5, 0.0, -0.5]);
    // torch.arange(0, 5, 1.5, dtype=torch.int32) is [0, 1, 2, 3] but with int64 [0, 1, 2, 3, 4]: refused.
    assert_eq!(Tensor::arange_f64(0.0, 5.0, 1.5, DType::Int32).unwrap_err().status, Status::DType);
    assert_eq!(Tensor::arange_f64(0.0, 1.0, 0.5, DType::Bool).unwrap_err().status, Status::DType);
    // torch.arange(0, 1, 0.1, dtype=torch.float32)[3] is 0.1 * 3 in double, then rounded.
    let f = Tensor::arange_f64(0.0, 1.0, 0.1, DType::Float32).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(f[3], (3.0 * 0.1f64) as f32);
    for (start, end, step) in [(0.0, 1.0, 0.0), (0.0, 1.0, -1.0), (1.0, 0.0, 1.0), (0.0, f64::INFINITY, 1.0), (f64::NAN, 1.0, 1.0)] {
        let err = Tensor::arange_f64(start, end, step, DType::Float32).unwrap_err();
        assert_eq!(err.status, Status::Invalid, "{start} {end} {step}");
        assert!(err.message.starts_with("arange: "), "{}", err.message);
    }
    assert_eq!(Tensor::arange(0, 1, 0).unwrap_err().status, Status::Invalid);
    assert_eq!(Tensor::arange(0, 5, -1).unwrap_err().status, Status::Invalid);
    // Too many elements: the library refuses the allocation, nothing aborts.
    let err = Tensor::arange(i64::MIN, i64::MAX, 1).unwrap_err();
    assert!(matches!(err.status, Status::Overflow | Status::NoMem), "{err}");
    let err = Tensor::arange_f64(0.0, 1e300, 1.0, DType::Float64).unwrap_err();
    assert_eq!(err.status, Status::Overflow, "{err}");
}

#[test]
fn eye_matches_torch() {
    // torch.eye(3, 2, dtype=torch.int16)
    assert_eq!(Tensor::eye(3, 2, DType::Int16).unwrap().to_vec::<i16>().unwrap(), [1, 0, 0, 1, 0, 0]);
    let n: usize = 2;
    assert_eq!(Tensor::eye(n, n, DType::Bool).unwrap().to_vec::<bool>().unwrap(), [true, false, false, true]);
    assert_eq!(Tensor::eye(0, 4, DType::Float32).unwrap().sizes(), [0, 4]);
    assert_eq!(Tensor::eye(-1, 2, DType::Float32).unwrap_err().status, Status::Invalid);
}

#[cfg(feature = "experimental")]
#[test]
fn broadcast_tensors_matches_torch() {
    let a = Tensor::from_slice(&[1.0f32, 2.0], &[2, 1]).unwrap();
    let b = Tensor::from_slice(&[10i64, 20, 30], &[1, 3]).unwrap();
    let c = Tensor::scalar_float64(0.5).unwrap();
    // torch.broadcast_tensors(a, b, c): each (2, 3), strides (1, 0), (0, 1), (0, 0).
    let v = Tensor::broadcast_tensors(&[&a, &b, &c]).unwrap();
    assert_eq!(v.iter().map(|t| t.sizes().to_vec()).collect::<Vec<_>>(), [[2, 3]; 3]);
    assert_eq!(v.iter().map(|t| t.strides().to_vec()).collect::<Vec<_>>(), [[1, 0], [0, 1], [0, 0]]);
    assert_eq!(v[0].to_vec::<f32>().unwrap(), [1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    assert_eq!(v[1].to_vec::<i64>().unwrap(), [10, 20, 30, 10, 20, 30]);
    assert_eq!(v[1].dtype(), DType::Int64);
    assert!(Tensor::broadcast_tensors(&[]).unwrap().is_empty());
    let d = Tensor::zeros(DType::Float32, &[4]).unwrap();
    let err = Tensor::broadcast_tensors(&[&b, &d]).unwrap_err();
    assert_eq!(err.status, Status::Shape, "{err}");
}

#[cfg(feature = "experimental")]
#[test]
fn convert_matches_copy() {
    let src = [-2.5f64, -0.5, 0.0, 1.9, 1e10, f64::NEG_INFINITY, f64::NAN];
    let mut i8s = [0i8; 7];
    convert(&mut i8s, &src).unwrap();
    assert_eq!(i8s, [-2, 0, 0, 1, 127, -128, 0]);
    // The same values through a tensor copy.
    let t = Tensor::from_slice(&src, &[7]).unwrap().to(DType::Int8).unwrap();
    assert_eq!(t.to_vec::<i8>().unwrap(), i8s);
    let mut c = [Complex::new(0.0f32, 0.0); 2];
    convert(&mut c, &[3u16, 65535]).unwrap();
    assert_eq!(c, [Complex::new(3.0, 0.0), Complex::new(65535.0, 0.0)]);
    let mut bools = [false; 3];
    convert(&mut bools, &[Complex::new(0.0f64, 0.0), Complex::new(0.0, 1e-300), Complex::new(f64::NAN, 0.0)]).unwrap();
    assert_eq!(bools, [false, true, true]);
    let mut short = [0u8; 1];
    let err = convert(&mut short, &[1u8, 2]).unwrap_err();
    assert_eq!(err.status, Status::Shape);
    assert!(err.message.contains("1 destination elements for 2 source elements"), "{}", err.message);
    convert::<f32, f64>(&mut [], &[]).unwrap();
}

#[test]
fn indices_and_counts_as_usize() {
    let t = Tensor::arange(0, 12, 1).unwrap().reshape(&[3, 4]).unwrap();
    let (row, n): (usize, usize) = (2, 3);
    assert_eq!(t.select(0, row).unwrap().to_vec::<i64>().unwrap(), [8, 9, 10, 11]);
    assert_eq!(t.select(1, 2usize).unwrap().to_vec::<i64>().unwrap(), [2, 6, 10]);
    assert_eq!(t.select(1, -1).unwrap().to_vec::<i64>().unwrap(), [3, 7, 11]);
    assert_eq!(t.select(1, -1i64).unwrap().to_vec::<i64>().unwrap(), [3, 7, 11]);
    assert_eq!(t.narrow(1, 1usize, 2usize).unwrap().to_vec::<i64>().unwrap(), [1, 2, 5, 6, 9, 10]);
    assert_eq!(t.index(s![..n, 1..n]).unwrap().to_vec::<i64>().unwrap(), [1, 2, 5, 6, 9, 10]);
    assert_eq!(t.index(s![row, n..]).unwrap().to_vec::<i64>().unwrap(), [11]);
    assert_eq!(t.index(s![-1, ..;-2]).unwrap().to_vec::<i64>().unwrap(), [11, 9]);
    assert_eq!(t.index(s![0usize..1usize;1, 0]).unwrap().to_vec::<i64>().unwrap(), [0]);
    // A usize beyond i64::MAX is out of range, never a wrapped negative index.
    let err = t.select(0, usize::MAX).unwrap_err();
    assert_eq!(err.status, Status::Bounds, "{err}");
    assert_eq!(t.index(s![..usize::MAX, 0]).unwrap().numel(), 3);
}

#[cfg(feature = "experimental")]
#[test]
fn split_counts_as_usize() {
    let t = Tensor::arange(0, 12, 1).unwrap().reshape(&[3, 4]).unwrap();
    let n: usize = 3;
    assert_eq!(t.split(2usize, 1).unwrap().len(), 2);
    assert_eq!(t.chunk(n, 0).unwrap().len(), 3);
    assert_eq!(t.tensor_split(2usize, 1).unwrap().len(), 2);
}
