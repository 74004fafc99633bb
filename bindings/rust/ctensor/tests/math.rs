//! Math compared with PyTorch 1.13 (Debian's /usr/bin/python3 with python3-torch):
//! result dtypes, shapes and values of element-wise ops, reductions and cat/stack,
//! and failures where PyTorch raises.

use std::process::Command;

#[cfg(feature = "experimental")]
use ctensor::Complex;
use ctensor::{BinaryOp, DType, Status, Tensor};

/// The inputs, in Rust and (the same values) in Python.
const INPUTS: &str = "
a = torch.tensor([[1.5, -2.0, 3.0], [0.25, 5.0, -6.0]])
b = torch.tensor([10, -20, 30], dtype=torch.int32)
i8 = torch.tensor([100, 120], dtype=torch.int8)
bo = torch.tensor([True, False])
";

fn inputs() -> (Tensor, Tensor, Tensor, Tensor) {
    (
        Tensor::from_slice(&[1.5f32, -2.0, 3.0, 0.25, 5.0, -6.0], &[2, 3]).unwrap(),
        Tensor::from_slice(&[10i32, -20, 30], &[3]).unwrap(),
        Tensor::from_slice(&[100i8, 120], &[2]).unwrap(),
        Tensor::from_slice(&[true, false], &[2]).unwrap(),
    )
}

/// dtype name, sizes and values (as float64) of each expression, or `None` where PyTorch raises.
fn torch(exprs: &[&str]) -> Vec<Option<(String, Vec<i64>, Vec<f64>)>> {
    let program = format!(
        "import torch\n{INPUTS}\nfor e in {exprs:?}:\n    try:\n        r = eval(e)\n    except (RuntimeError, ValueError, IndexError):\n        print('error'); continue\n    print(str(r.dtype)[6:], ' '.join(map(str, r.shape)), ' '.join(map(repr, r.double().reshape(-1).tolist())), sep=';')\n"
    );
    let output = Command::new("/usr/bin/python3").args(["-c", &program]).output().expect("run /usr/bin/python3");
    assert!(output.status.success(), "the PyTorch oracle failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            (line != "error").then(|| {
                let f: Vec<&str> = line.split(';').collect();
                let sizes = f[1].split_whitespace().map(|n| n.parse().unwrap()).collect();
                let values = f[2].split_whitespace().map(|n| n.parse().unwrap()).collect();
                (f[0].to_string(), sizes, values)
            })
        })
        .collect()
}

fn compare(cases: Vec<(&str, ctensor::Result<Tensor>)>) {
    let expected = torch(&cases.iter().map(|(e, _)| *e).collect::<Vec<_>>());
    assert_eq!(expected.len(), cases.len());
    for ((expr, ours), theirs) in cases.into_iter().zip(expected) {
        match (ours, theirs) {
            (Ok(t), Some((dtype, sizes, values))) => {
                assert_eq!((t.dtype().name(), t.sizes()), (dtype.as_str(), &sizes[..]), "{expr}");
                let got = t.to(DType::Float64).unwrap().contiguous().unwrap().to_vec::<f64>().unwrap();
                assert_eq!(got.len(), values.len(), "{expr}");
                for (g, v) in got.iter().zip(&values) {
                    let close = g == v || (g.is_nan() && v.is_nan()) || (g - v).abs() <= 1e-6 * v.abs();
                    assert!(close, "{expr}: ctensor {got:?}, PyTorch {values:?}");
                }
            }
            (Err(e), None) => assert!(!e.message.is_empty(), "{expr}"),
            (ours, theirs) => panic!("{expr}: ctensor gave {ours:?}, PyTorch {theirs:?}"),
        }
    }
}

#[test]
fn element_wise_ops_match_pytorch() {
    let (a, b, i8, bo) = inputs();
    let int = |v| Tensor::scalar_int64(v).unwrap();
    let float = |v| Tensor::scalar_float64(v).unwrap();
    compare(vec![
        ("a + b", a.add(&b)),
        ("a - b", a.sub(&b)),
        ("a * b", a.mul(&b)),
        ("a / b", a.div(&b)),
        ("b / b", b.div(&b)),
        ("a ** 2", a.pow(&int(2))),
        ("b ** 2", b.pow(&int(2))),
        ("torch.maximum(a, b)", a.maximum(&b)),
        ("torch.minimum(a, b)", a.minimum(&b)),
        ("a == b", a.eq(&b)),
        ("a != 3", a.ne(&int(3))),
        ("a < b", a.lt(&b)),
        ("a <= 1.5", a.le(&float(1.5))),
        ("a > 0", a.gt(&int(0))),
        ("a >= 1.5", a.ge(&float(1.5))),
        ("i8 + 10", i8.add(&int(10))),
        ("b * 0.5", b.mul(&float(0.5))),
        ("bo + bo", bo.add(&bo)),
        ("bo * True", bo.mul(&Tensor::scalar_bool(true).unwrap())),
        ("bo - bo", bo.sub(&bo)),
        ("a + torch.zeros(2)", a.add(&Tensor::zeros(DType::Float32, &[2]).unwrap())),
        ("-a", a.neg()),
        ("-i8", i8.neg()),
        ("a.abs()", a.abs()),
        ("-bo", bo.neg()),
    ]);
}

#[test]
fn reductions_and_joins_match_pytorch() {
    let (a, b, i8, bo) = inputs();
    compare(vec![
        ("a.sum()", a.sum(&[], false)),
        ("a.sum(1)", a.sum(&[1], false)),
        ("a.sum((0, 1), keepdim=True)", a.sum(&[0, -1], true)),
        ("b.sum()", b.sum(&[], false)),
        ("i8.sum()", i8.sum(&[], false)),
        ("bo.sum()", bo.sum(&[], false)),
        ("a.sum(2)", a.sum(&[2], false)),
        ("a.mean(0)", a.mean(&[0], false)),
        ("b.mean()", b.mean(&[], false)),
        ("a.prod(1)", a.prod(&[1], false)),
        ("b.prod()", b.prod(&[], false)),
        ("a.amax(0)", a.amax(&[0], false)),
        ("a.amin(1, keepdim=True)", a.amin(&[1], true)),
        ("torch.zeros(0, 3).amax(0)", Tensor::zeros(DType::Float32, &[0, 3]).unwrap().amax(&[0], false)),
        ("torch.cat([a, b[None]], 0)", Tensor::cat(&[&a, &b.unsqueeze(0).unwrap()], 0)),
        ("torch.cat([a, a.T], 1)", Tensor::cat(&[&a, &a.transpose(0, 1).unwrap()], 1)),
        ("torch.stack([b, b * 2], 1)", Tensor::stack(&[&b, &b.add(&b).unwrap()], 1)),
        ("torch.stack([a[0], b], -1)", Tensor::stack(&[&a.select(0, 0).unwrap(), &b], -1)),
        ("torch.stack([a, b], 0)", Tensor::stack(&[&a, &b], 0)),
    ]);
}

#[test]
fn items_comparisons_and_result_types() {
    let (a, b, i8, _) = inputs();
    assert_eq!(a.sum(&[], false).unwrap().item_f64().unwrap(), 1.75);
    assert_eq!(b.sum(&[], false).unwrap().item_i64().unwrap(), 20);
    assert_eq!(Tensor::scalar_float64(-2.75).unwrap().item_i64().unwrap(), -2);
    assert_eq!(a.item_f64().unwrap_err().status, Status::Shape);
    assert!(a.equal(&a.clone_data().unwrap()).unwrap());
    assert!(!a.equal(&a.transpose(0, 1).unwrap()).unwrap());
    let nudged = a.add(&Tensor::scalar_float64(1e-7).unwrap()).unwrap();
    assert!(a.allclose(&nudged, 1e-5, 1e-8, false).unwrap());
    assert!(!a.allclose(&a.neg().unwrap(), 1e-5, 1e-8, false).unwrap());
    assert_eq!(a.allclose(&b, 1e-5, 1e-8, false).unwrap_err().status, Status::DType);
    assert_eq!(a.allclose(&a, -1.0, 0.0, false).unwrap_err().status, Status::Invalid);
    assert_eq!(a.result_type(&b).unwrap(), DType::Float32);
    assert_eq!(i8.result_type(&Tensor::scalar_int64(1000).unwrap()).unwrap(), DType::Int8);
    let u64s = Tensor::zeros(DType::UInt64, &[1]).unwrap();
    assert_eq!(u64s.result_type(&b).unwrap_err().status, Status::DType);
}

#[test]
fn binary_into_writes_in_place_and_checks_its_destination() {
    let (a, b, _, _) = inputs();
    let acc = a.clone_data().unwrap();
    acc.binary_into(BinaryOp::Add, &acc, &b).unwrap(); // acc += b
    assert_eq!(acc.to_vec::<f32>().unwrap(), [11.5, -22.0, 33.0, 10.25, -15.0, 24.0]);
    let ints = Tensor::zeros(DType::Int32, &[2, 3]).unwrap();
    assert_eq!(ints.binary_into(BinaryOp::Mul, &a, &b).unwrap_err().status, Status::DType, "float into int");
    assert_eq!(acc.binary_into(BinaryOp::Add, &acc, &Tensor::zeros(DType::Float32, &[4]).unwrap()).unwrap_err().status, Status::Shape);
    let mapped = a.clone_data().unwrap();
    let _reading = mapped.as_slice::<f32>().unwrap();
    assert_eq!(mapped.binary_into(BinaryOp::Sub, &a, &a).unwrap_err().status, Status::Overlap, "a live slice");
}

#[cfg(feature = "experimental")]
#[test]
fn conjugates() {
    let z = Tensor::from_slice(&[Complex::new(1.0f64, 2.0), Complex::new(-3.0, -4.0)], &[2]).unwrap();
    let want = [Complex::new(1.0, -2.0), Complex::new(-3.0, 4.0)];
    let phys = z.conj_physical().unwrap();
    assert_eq!(phys.to_vec::<Complex<f64>>().unwrap(), want);
    assert!(!phys.is_readonly());
    phys.fill(0.0).unwrap();
    let lazy = z.conj().unwrap();
    assert_eq!(lazy.to_vec::<Complex<f64>>().unwrap(), want);
    assert_eq!(lazy.fill(0.0).unwrap_err().status, Status::ReadOnly);
    let (a, ..) = inputs();
    let same = a.conj().unwrap();
    assert!(!same.is_readonly());
    assert_eq!(same.as_raw(), a.as_raw()); // real dtypes: the tensor itself
}
