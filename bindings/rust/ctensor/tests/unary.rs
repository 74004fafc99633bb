//! The unary family, clamp, where, argmax/argmin, cumsum/cumprod and softmax:
//! values against Rust's own f64 functions and known results, PyTorch's dtype
//! rules, and the `_into` forms. (tests/math.rs compares the same calls with PyTorch.)

use ctensor::{DType, Status, Tensor, UnaryOp};

/// Inputs inside every float function's domain but for the edges tested below.
const XS: [f64; 8] = [-3.5, -1.0, -0.25, 0.0, 0.5, 0.75, 2.0, 10.0];

fn f64s(t: &Tensor) -> Vec<f64> {
    t.to(DType::Float64).unwrap().contiguous().unwrap().to_vec::<f64>().unwrap()
}

fn close(got: f64, want: f64) -> bool {
    got == want || (got.is_nan() && want.is_nan()) || (got - want).abs() <= 4.0 * f64::EPSILON * want.abs()
}

#[test]
fn float64_functions_match_std_within_a_few_ulp() {
    let x = Tensor::from_slice(&XS, &[8]).unwrap();
    let std: [(UnaryOp, fn(f64) -> f64); 26] = [
        (UnaryOp::Neg, |v| -v),
        (UnaryOp::Abs, f64::abs),
        (UnaryOp::Exp, f64::exp),
        (UnaryOp::Exp2, f64::exp2),
        (UnaryOp::Expm1, f64::exp_m1),
        (UnaryOp::Log, f64::ln),
        (UnaryOp::Log2, f64::log2),
        (UnaryOp::Log10, f64::log10),
        (UnaryOp::Log1p, f64::ln_1p),
        (UnaryOp::Sqrt, f64::sqrt),
        (UnaryOp::Rsqrt, |v| 1.0 / v.sqrt()),
        (UnaryOp::Sin, f64::sin),
        (UnaryOp::Cos, f64::cos),
        (UnaryOp::Tan, f64::tan),
        (UnaryOp::Asin, f64::asin),
        (UnaryOp::Acos, f64::acos),
        (UnaryOp::Atan, f64::atan),
        (UnaryOp::Sinh, f64::sinh),
        (UnaryOp::Cosh, f64::cosh),
        (UnaryOp::Tanh, f64::tanh),
        (UnaryOp::Sigmoid, |v| 1.0 / (1.0 + (-v).exp())),
        (UnaryOp::Relu, |v| v.max(0.0)),
        (UnaryOp::Floor, f64::floor),
        (UnaryOp::Ceil, f64::ceil),
        (UnaryOp::Trunc, f64::trunc),
        (UnaryOp::Reciprocal, |v| 1.0 / v),
    ];
    for (op, f) in std {
        let by_code = f64s(&x.unary(op).unwrap());
        for (&v, &got) in XS.iter().zip(&by_code) {
            assert!(close(got, f(v)), "{}({v}) = {got}, std {}", op.name(), f(v));
        }
    }
    // The named methods are the same ops as the codes.
    assert_eq!(f64s(&x.exp().unwrap()), f64s(&x.unary(UnaryOp::Exp).unwrap()));
    assert_eq!(f64s(&x.sqrt().unwrap())[4], 0.5f64.sqrt());
    assert_eq!(x.exp().unwrap().dtype(), DType::Float64);
}

#[test]
fn known_values_and_ieee_edges() {
    let zero = Tensor::from_slice(&[0.0f32], &[1]).unwrap();
    assert_eq!(zero.exp().unwrap().to_vec::<f32>().unwrap(), [1.0]);
    assert_eq!(zero.erf().unwrap().to_vec::<f32>().unwrap(), [0.0]);
    assert_eq!(zero.gelu().unwrap().to_vec::<f32>().unwrap(), [0.0]);
    assert_eq!(zero.sigmoid().unwrap().to_vec::<f32>().unwrap(), [0.5]);
    let big = Tensor::from_slice(&[10.0f64], &[1]).unwrap();
    assert!(close(big.gelu().unwrap().item_f64().unwrap(), 10.0)); // erf(10/sqrt 2) is 1 in f64

    let edges = Tensor::from_slice(&[-0.0f64, -1.0, f64::INFINITY, f64::NAN, 2.5, -2.5, 0.0], &[7]).unwrap();
    let sqrt = f64s(&edges.sqrt().unwrap());
    assert!(sqrt[0] == 0.0 && sqrt[0].is_sign_negative(), "sqrt(-0) is -0");
    assert!(sqrt[1].is_nan() && sqrt[2] == f64::INFINITY && sqrt[3].is_nan());
    assert_eq!(f64s(&edges.log().unwrap())[6], f64::NEG_INFINITY);
    assert_eq!(f64s(&edges.round().unwrap())[4..6], [2.0, -2.0], "ties to even");
    let sign = f64s(&edges.sign().unwrap());
    assert_eq!((sign[3], sign[1], sign[4]), (0.0, -1.0, 1.0), "sign(NaN) is 0 in PyTorch 1.13");
    let frac = f64s(&edges.frac().unwrap());
    assert_eq!(frac[4..6], [0.5, -0.5]);
    let bools = |t: Tensor| t.to_vec::<bool>().unwrap();
    assert_eq!(bools(edges.isnan().unwrap()), [false, false, false, true, false, false, false]);
    assert_eq!(bools(edges.isinf().unwrap()), [false, false, true, false, false, false, false]);
    assert_eq!(bools(edges.isfinite().unwrap()), [true, true, false, false, true, true, true]);
    assert_eq!(bools(edges.logical_not().unwrap()), [true, false, false, false, false, false, true]);
}

#[test]
fn dtype_rules_follow_pytorch() {
    let ints = Tensor::from_slice(&[0i32, 1, -4], &[3]).unwrap();
    let e = ints.exp().unwrap();
    assert_eq!((e.dtype(), e.to_vec::<f32>().unwrap()[..2].to_vec()), (DType::Float32, vec![1.0, std::f32::consts::E]));
    assert_eq!(ints.sqrt().unwrap().dtype(), DType::Float32);
    assert_eq!(ints.relu().unwrap().to_vec::<i32>().unwrap(), [0, 1, 0]);
    assert_eq!(ints.floor().unwrap().dtype(), DType::Int32);
    assert_eq!(ints.square().unwrap().to_vec::<i32>().unwrap(), [0, 1, 16]);
    assert_eq!(ints.bitwise_not().unwrap().to_vec::<i32>().unwrap(), [-1, -2, 3]);
    assert_eq!(ints.isnan().unwrap().dtype(), DType::Bool);
    let flags = Tensor::from_slice(&[true, false], &[2]).unwrap();
    assert_eq!(flags.bitwise_not().unwrap().to_vec::<bool>().unwrap(), [false, true]);
    assert_eq!(flags.square().unwrap().dtype(), DType::Int64);
    let floats = Tensor::from_slice(&[1.5f32], &[1]).unwrap();
    for refused in [floats.bitwise_not(), ints.frac(), flags.neg(), ints.gelu()] {
        let err = refused.unwrap_err();
        assert_eq!(err.status, Status::DType);
        assert!(!err.message.is_empty());
    }
    assert_eq!(UnaryOp::ALL.len(), 37);
    assert_eq!(UnaryOp::ALL[2], UnaryOp::Exp);
    assert_eq!(UnaryOp::LogicalNot.name(), "logical_not");
}

#[test]
fn unary_into_writes_in_place_and_checks_its_destination() {
    let t = Tensor::from_slice(&[1.0f32, 4.0, 9.0], &[3]).unwrap();
    t.unary_into(UnaryOp::Sqrt, &t).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0]);
    let wide = Tensor::zeros(DType::Float64, &[3]).unwrap();
    wide.unary_into(UnaryOp::Square, &t).unwrap();
    assert_eq!(wide.to_vec::<f64>().unwrap(), [1.0, 4.0, 9.0]);
    let ints = Tensor::zeros(DType::Int32, &[3]).unwrap();
    assert_eq!(ints.unary_into(UnaryOp::Exp, &t).unwrap_err().status, Status::DType, "float into int");
    let short = Tensor::zeros(DType::Float32, &[2]).unwrap();
    assert_eq!(short.unary_into(UnaryOp::Exp, &t).unwrap_err().status, Status::Shape);
    let _reading = t.as_slice::<f32>().unwrap();
    assert_eq!(t.unary_into(UnaryOp::Neg, &t).unwrap_err().status, Status::Overlap, "a live slice");
}

#[test]
fn clamp_with_tensor_and_scalar_bounds() {
    let t = Tensor::from_slice(&[-2.0f32, 0.5, 3.0, f32::NAN], &[4]).unwrap();
    let lo = Tensor::scalar_float64(-1.0).unwrap();
    let hi = Tensor::from_slice(&[1.0f32, 0.0, 5.0, 1.0], &[4]).unwrap();
    let c = f64s(&t.clamp(Some(&lo), Some(&hi)).unwrap());
    assert_eq!(c[..3], [-1.0, 0.0, 3.0]);
    assert!(c[3].is_nan(), "NaN stays NaN");
    assert_eq!(f64s(&t.clamp(None, Some(&lo)).unwrap())[..3], [-2.0, -1.0, -1.0]);
    assert_eq!(t.clamp(None, None).unwrap_err().status, Status::Invalid);
    let bytes = Tensor::from_slice(&[0u8, 200], &[2]).unwrap();
    let clamped = bytes.clamp(Some(&Tensor::scalar_int64(10).unwrap()), None).unwrap();
    assert_eq!((clamped.dtype(), clamped.to_vec::<u8>().unwrap()), (DType::UInt8, vec![10, 200]));
    t.clamp_into(&t, Some(&lo), None).unwrap(); // clamp_ in place
    assert_eq!(f64s(&t)[..3], [-1.0, 0.5, 3.0]);
    let ints = Tensor::zeros(DType::Int32, &[4]).unwrap();
    assert_eq!(ints.clamp_into(&t, Some(&lo), None).unwrap_err().status, Status::DType);
}

#[test]
fn where_picks_and_promotes() {
    let cond = Tensor::from_slice(&[true, false, true], &[3]).unwrap();
    let a = Tensor::from_slice(&[1i32, 2, 3], &[3]).unwrap();
    let b = Tensor::from_slice(&[10.5f64], &[1]).unwrap();
    let r = Tensor::where_cond(&cond, &a, &b).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<f64>().unwrap()), (DType::Float64, vec![1.0, 10.5, 3.0]));
    let wide = Tensor::from_slice(&[true, false], &[2, 1]).unwrap();
    assert_eq!(wide.where_cond(&a, &Tensor::scalar_int64(0).unwrap()).unwrap().sizes(), [2, 3]);
    assert_eq!(a.where_cond(&a, &a).unwrap_err().status, Status::DType, "int32 condition");
    let dst = Tensor::zeros(DType::Float64, &[3]).unwrap();
    dst.where_into(&cond, &a, &b).unwrap();
    assert_eq!(dst.to_vec::<f64>().unwrap(), [1.0, 10.5, 3.0]);
    assert_eq!(a.where_into(&cond, &a, &b).unwrap_err().status, Status::DType, "float64 into int32");
}

#[test]
fn argmax_and_argmin_of_a_known_array() {
    let t = Tensor::from_slice(&[3.0f32, 9.0, 1.0, 9.0, -2.0, 8.0], &[2, 3]).unwrap();
    assert_eq!(t.argmax(None, false).unwrap().item_i64().unwrap(), 1, "the first largest");
    assert_eq!(t.argmax(Some(1), false).unwrap().to_vec::<i64>().unwrap(), [1, 0]);
    assert_eq!(t.argmax(Some(0), false).unwrap().to_vec::<i64>().unwrap(), [1, 0, 1]);
    let kept = t.argmin(Some(-1), true).unwrap();
    assert_eq!((kept.dtype(), kept.sizes(), kept.to_vec::<i64>().unwrap()), (DType::Int64, &[2, 1][..], vec![2, 1]));
    let all = t.argmin(None, true).unwrap();
    assert_eq!((all.sizes(), all.item_i64().unwrap()), (&[1, 1][..], 4));
    let nan = Tensor::from_slice(&[1.0f64, f64::NAN, 5.0], &[3]).unwrap();
    assert_eq!(nan.argmax(None, false).unwrap().item_i64().unwrap(), 1, "NaN is the largest");
    assert_eq!(t.argmax(Some(2), false).unwrap_err().status, Status::Invalid);
    let empty = Tensor::zeros(DType::Float32, &[0]).unwrap();
    assert_eq!(empty.argmax(None, false).unwrap_err().status, Status::Shape);
    let dst = Tensor::zeros(DType::Int64, &[3]).unwrap();
    dst.argmin_into(&t, Some(0), false).unwrap();
    assert_eq!(dst.to_vec::<i64>().unwrap(), [0, 1, 0]);
    dst.argmax_into(&t, Some(0), false).unwrap();
    assert_eq!(dst.to_vec::<i64>().unwrap(), [1, 0, 1]);
    let int32 = Tensor::zeros(DType::Int32, &[3]).unwrap();
    assert_eq!(int32.argmax_into(&t, Some(0), false).unwrap_err().status, Status::DType);
}

#[test]
fn running_sums_and_products() {
    let t = Tensor::from_slice(&[1i8, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    let s = t.cumsum(1).unwrap();
    assert_eq!((s.dtype(), s.to_vec::<i64>().unwrap()), (DType::Int64, vec![1, 3, 6, 4, 9, 15]));
    assert_eq!(t.cumprod(0).unwrap().to_vec::<i64>().unwrap(), [1, 2, 3, 4, 10, 18]);
    let f = Tensor::from_slice(&[0.5f32, 0.25, 2.0], &[3]).unwrap();
    assert_eq!(f.cumprod(-1).unwrap().to_vec::<f32>().unwrap(), [0.5, 0.125, 0.25]);
    assert_eq!(t.cumsum(2).unwrap_err().status, Status::Invalid);
    let dst = Tensor::zeros(DType::Float64, &[2, 3]).unwrap();
    dst.cumsum_into(&t, 0).unwrap();
    assert_eq!(dst.to_vec::<f64>().unwrap(), [1.0, 2.0, 3.0, 5.0, 7.0, 9.0]);
    dst.cumprod_into(&t, 1).unwrap();
    assert_eq!(dst.to_vec::<f64>().unwrap(), [1.0, 2.0, 6.0, 4.0, 20.0, 120.0]);
    let narrow = Tensor::zeros(DType::Int8, &[2, 3]).unwrap();
    narrow.cumsum_into(&t, 0).unwrap(); // int64 casts to int8 (torch.can_cast), as PyTorch's out=
    assert_eq!(narrow.to_vec::<i8>().unwrap(), [1, 2, 3, 5, 7, 9]);
    let floats = Tensor::from_slice(&[0.5f32; 6], &[2, 3]).unwrap();
    assert_eq!(narrow.cumsum_into(&floats, 0).unwrap_err().status, Status::DType, "float32 into int8");
}

#[test]
fn softmax_sums_to_one_and_log_softmax_is_its_log() {
    let xs = [1.0f64, 2.0, 3.0, -1.0, 0.0, 700.0];
    let t = Tensor::from_slice(&xs, &[2, 3]).unwrap();
    let p = f64s(&t.softmax(1).unwrap());
    for row in p.chunks(3) {
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{row:?}");
    }
    let denom: f64 = xs[..3].iter().map(|v| v.exp()).sum();
    assert!(close(p[0], 1f64.exp() / denom));
    assert_eq!(p[5], 1.0, "the max is subtracted: no overflow");
    let logp = f64s(&t.log_softmax(1).unwrap());
    for (lp, pr) in logp.iter().zip(&p).take(3) {
        assert!((lp - pr.ln()).abs() < 1e-12);
    }
    assert_eq!(Tensor::from_slice(&[1i32], &[1]).unwrap().softmax(0).unwrap_err().status, Status::DType);
    let dst = Tensor::zeros(DType::Float64, &[2, 3]).unwrap();
    dst.softmax_into(&t, 0).unwrap();
    let cols = f64s(&dst);
    assert!((cols[0] + cols[3] - 1.0).abs() < 1e-12);
    dst.log_softmax_into(&t, 0).unwrap();
    assert!(close(f64s(&dst)[0], cols[0].ln()));
    let f32s = Tensor::zeros(DType::Float32, &[2, 3]).unwrap();
    assert_eq!(f32s.softmax_into(&t, 0).unwrap_err().status, Status::DType, "out= must keep the dtype");
}
