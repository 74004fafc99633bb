//! Memory formats and conversion policies (the header's experimental section):
//! expected strides and values are PyTorch 1.13's.
#![cfg(feature = "experimental")]

use ctensor::{Conversion, CopyMode, DType, MemoryFormat, Status, Tensor, ToOptions};

/// torch.arange(24, dtype=float32).reshape(2, 3, 4)
fn arange() -> Tensor {
    let data: Vec<f32> = (0..24).map(|i| i as f32).collect();
    Tensor::from_vec(data, &[2, 3, 4]).unwrap()
}

#[test]
fn like_tensors_keep_pytorch_layouts() {
    let t = arange();
    let cases: Vec<(Tensor, Vec<i64>)> = vec![
        (t.clone(), vec![12, 4, 1]),
        (t.permute(&[2, 0, 1]).unwrap(), vec![1, 12, 4]),        // dense: kept
        (t.slice(2, None, None, 2).unwrap(), vec![6, 2, 1]),     // step slice: dense, C order
        (t.transpose(0, 2).unwrap().slice(0, None, None, 2).unwrap(), vec![1, 2, 6]), // its dim order
        (t.flip_last(), vec![12, 4, 1]),                          // negative stride: by magnitude
        (t.narrow(1, 0, 1).unwrap().expand(&[2, 5, 4]).unwrap(), vec![20, 4, 1]), // expanded
    ];
    for (view, strides) in cases {
        let empty = view.empty_like(DType::Float64, MemoryFormat::Preserve).unwrap();
        assert_eq!(empty.sizes(), view.sizes());
        assert_eq!(empty.strides(), strides, "{:?} {:?}", view.sizes(), view.strides());
        let zeros = view.zeros_like(DType::Int32, MemoryFormat::Preserve).unwrap();
        assert_eq!(zeros.strides(), strides);
        assert!(zeros.to_vec::<i32>().unwrap().iter().all(|&v| v == 0));
        assert!(view.zeros_like(DType::Int32, MemoryFormat::Contiguous).unwrap().is_contiguous());
        let copy = view
            .to_with_options(view.dtype(), ToOptions { copy: CopyMode::Always, ..Default::default() })
            .unwrap();
        assert_eq!(copy.strides(), strides);
        assert_eq!(copy.to_vec::<f32>().unwrap(), view.to_vec::<f32>().unwrap());
    }
}

trait FlipLast {
    fn flip_last(&self) -> Tensor;
}

impl FlipLast for Tensor {
    /// t[..., ::-1]
    fn flip_last(&self) -> Tensor {
        self.slice(-1, None, None, -1).unwrap()
    }
}

#[test]
fn to_with_options_shares_by_the_copy_mode() {
    let t = arange().transpose(0, 1).unwrap();
    let shared = t.to_with_options(DType::Float32, ToOptions::default()).unwrap();
    assert_eq!(shared.data_ptr(), t.data_ptr());
    let never = ToOptions { copy: CopyMode::Never, memory_format: MemoryFormat::Contiguous, ..Default::default() };
    assert_eq!(t.to_with_options(DType::Float32, never).unwrap().data_ptr(), t.data_ptr());
    assert_eq!(t.to_with_options(DType::Int8, never).unwrap_err().status, Status::Copy);
    let c_order = ToOptions { memory_format: MemoryFormat::Contiguous, ..Default::default() };
    assert!(t.to_with_options(DType::Float64, c_order).unwrap().is_contiguous());
    assert_eq!(t.to_with_options(DType::Float64, ToOptions::default()).unwrap().strides(), [4, 12, 1]);
}

#[test]
fn torch_x86_conversion_values() {
    let x = Tensor::from_slice(&[-3.7f64, 300.0, f64::NAN, 1e10, 128.0, 1.0 + 2f64.powi(-11) + 2f64.powi(-40)], &[6])
        .unwrap();
    let torch = |dtype| {
        let out = Tensor::zeros(dtype, &[6]).unwrap();
        out.copy_from_with(&x, Conversion::TorchX86).unwrap();
        out
    };
    assert_eq!(torch(DType::UInt8).to_vec::<u8>().unwrap(), [253, 44, 0, 0, 128, 1]);
    assert_eq!(torch(DType::Int8).to_vec::<i8>().unwrap(), [-3, 44, 0, 0, -128, 1]);
    assert_eq!(torch(DType::Int16).to_vec::<i16>().unwrap(), [-3, 300, 0, 0, 128, 1]);
    assert_eq!(torch(DType::Int32).to_vec::<i32>().unwrap(), [-3, 300, i32::MIN, i32::MIN, 128, 1]);
    assert_eq!(torch(DType::Int64).to_vec::<i64>().unwrap(), [-3, 300, i64::MIN, 10_000_000_000, 128, 1]);
    let half = torch(DType::Float16).to_vec::<ctensor::f16>().unwrap();
    assert_eq!(half[5].to_bits(), 0x3c00); // through float32: 1.0 (the library: 1 + 2^-10)
    let library = Tensor::zeros(DType::UInt8, &[6]).unwrap();
    library.copy_from_with(&x, Conversion::Library).unwrap();
    assert_eq!(library.to_vec::<u8>().unwrap(), [0, 255, 0, 255, 128, 1]);
    let z = Tensor::from_slice(&[ctensor::Complex::new(0f32, 1.0), ctensor::Complex::new(2.0, 0.0)], &[2]).unwrap();
    let opts = ToOptions { conversion: Conversion::TorchX86, ..Default::default() };
    assert_eq!(z.to_with_options(DType::Bool, opts).unwrap().to_vec::<bool>().unwrap(), [false, true]);
    assert_eq!(z.to(DType::Bool).unwrap().to_vec::<bool>().unwrap(), [true, true]);
}

#[test]
fn copy_from_with_is_borrow_checked() {
    let t = arange();
    let rows = t.as_slice::<f32>().unwrap();
    assert_eq!(t.copy_from_with(&arange(), Conversion::TorchX86).unwrap_err().status, Status::Overlap);
    drop(rows);
    t.copy_from_with(&arange(), Conversion::TorchX86).unwrap();
}
