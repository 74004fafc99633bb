//! Advanced indexing (index_gather, index_put, nonzero) compared with PyTorch 1.13
//! (Debian's /usr/bin/python3 with python3-torch): shapes and values of gathers
//! with index tensors on adjacent and separated dims, broadcast index shapes and
//! masks, puts with repeated indices, and the refusals.
#![cfg(feature = "experimental")]

use std::process::Command;

use ctensor::{DType, Status, Storage, Tensor};

/// torch.arange(60).reshape(3, 4, 5) as float32 in both.
fn source() -> Tensor {
    Tensor::from_vec((0..60).map(|v| v as f32).collect::<Vec<f32>>(), &[3, 4, 5]).unwrap()
}

/// Sizes and values (as float64) of each Python expression over
/// `t = torch.arange(60.).reshape(3, 4, 5)`, with `L(...)` for torch.tensor and
/// `put(u, index, v)` for `u[index] = v` (giving u).
fn torch(exprs: &[&str]) -> Vec<(Vec<i64>, Vec<f64>)> {
    let program = format!(
        "import torch\nt = torch.arange(60.).reshape(3, 4, 5)\nL = lambda *v: torch.tensor(v)\n\
         def put(u, index, v):\n    u[index] = v\n    return u\n\
         for e in {exprs:?}:\n    r = eval(e)\n    print(' '.join(map(str, r.shape)), ' '.join(map(repr, r.double().reshape(-1).tolist())), sep=';')\n"
    );
    let output = Command::new("/usr/bin/python3").args(["-c", &program]).output().expect("run /usr/bin/python3");
    assert!(output.status.success(), "the PyTorch oracle failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let (sizes, values) = line.split_once(';').unwrap();
            (
                sizes.split_whitespace().map(|n| n.parse().unwrap()).collect(),
                values.split_whitespace().map(|n| n.parse().unwrap()).collect(),
            )
        })
        .collect()
}

fn ints(values: &[i64], sizes: &[i64]) -> Tensor {
    Tensor::from_slice(values, sizes).unwrap()
}

fn described(t: &Tensor) -> (Vec<i64>, Vec<f64>) {
    let values = t.to(DType::Float64).unwrap().to_vec::<f64>().unwrap();
    (t.sizes().to_vec(), values)
}

#[test]
fn gathers_match_torch() {
    let t = source();
    let i01 = ints(&[2, 0, -1], &[3]);
    let rows = ints(&[1, 0], &[2, 1]);
    let cols = Tensor::from_slice(&[4i32, -5, 2], &[3]).unwrap(); // int32 indices
    let narrow = Tensor::from_slice(&[3u8, 0], &[2]).unwrap(); // uint8 holds indices (NumPy's rule)
    let scalar = ints(&[2], &[]);
    let strided = ints(&[0, 9, 3, 9, 1, 9], &[6]).slice(0, None, None, 2).unwrap(); // [0, 3, 1]
    let mask = Tensor::from_slice(&[true, false, true, true, false, false, true, false, false, true, false, true], &[3, 4])
        .unwrap()
        .nonzero()
        .unwrap();
    let (m0, m1) = (mask.select(1, 0).unwrap(), mask.select(1, 1).unwrap());
    let cases: Vec<(&str, Tensor)> = vec![
        ("t[L(2, 0, -1)]", t.index_gather(&[0], &[&i01]).unwrap()),
        ("t[:, :, L(2, 0, -1)]", t.index_gather(&[-1], &[&i01]).unwrap()),
        ("t[:, L([1], [0]), L(4, -5, 2)]", t.index_gather(&[1, 2], &[&rows, &cols]).unwrap()),
        ("t[L([1], [0]), :, L(4, -5, 2)]", t.index_gather(&[0, 2], &[&rows, &cols]).unwrap()),
        ("t[:, L(3, 0)]", t.index_gather(&[1], &[&narrow]).unwrap()),
        // a 0-dim index tensor on a separated dim: NumPy's t[2, :, [0, 3, 1]] (torch would select)
        ("torch.from_numpy(t.numpy()[2, :, [0, 3, 1]])", t.index_gather(&[0, 2], &[&scalar, &strided]).unwrap()),
        (
            "t[torch.tensor([[1, 0, 1, 1], [0, 0, 1, 0], [0, 1, 0, 1]], dtype=torch.bool)]",
            t.index_gather(&[0, 1], &[&m0, &m1]).unwrap(),
        ),
        ("t[L(*[], ).long()]", t.index_gather(&[0], &[&ints(&[], &[0])]).unwrap()),
    ];
    let expected = torch(&cases.iter().map(|(e, _)| *e).collect::<Vec<_>>());
    for ((expr, ours), theirs) in cases.iter().zip(expected) {
        assert_eq!(described(ours), theirs, "{expr}");
    }
}

#[test]
fn puts_match_torch_and_last_write_wins() {
    let t = source();
    let at = ints(&[1, 1, -1], &[3]);
    let values = Tensor::from_slice(&[10.0f32, 20.0, 30.0, 40.0, 50.0], &[5]).unwrap();
    t.index_put(&[2], &[&ints(&[0, 2], &[2])], &Tensor::from_slice(&[-1.0f32], &[1]).unwrap()).unwrap();
    t.index_put(&[0, 1], &[&at, &ints(&[3, 3, 0], &[3])], &values.slice(0, None, Some(3), 1).unwrap().unsqueeze(1).unwrap())
        .unwrap();
    let theirs = torch(&["put(put(t.clone(), (slice(None), slice(None), L(0, 2)), -1.0), \
                          (L(1, 1, -1), L(3, 3, 0)), torch.tensor([[10.], [20.], [30.]]))"]);
    assert_eq!(described(&t), theirs[0]);
    // the two writes to t[1, 3]: the last (20) stays
    assert_eq!(t.select(0, 1).unwrap().select(0, 3).unwrap().to_vec::<f32>().unwrap(), [20.0; 5]);
    // values convert as copies convert: float64 2.9 into int16 truncates
    let small = Tensor::zeros(DType::Int16, &[3]).unwrap();
    small.index_put(&[0], &[&ints(&[2], &[1])], &Tensor::scalar_float64(2.9).unwrap()).unwrap();
    assert_eq!(small.to_vec::<i16>().unwrap(), [0, 0, 2]);
}

#[test]
fn refusals() {
    let t = source();
    let bad = ints(&[0, 4], &[2]);
    let err = t.index_gather(&[1], &[&bad]).unwrap_err();
    assert_eq!((err.status, err.message.as_str()), (Status::Bounds, "index_gather: index 4 is out of bounds for dimension 1 with size 4"));
    let (a, b) = (ints(&[0, 1], &[2]), ints(&[0, 1, 2], &[3]));
    assert_eq!(t.index_gather(&[0, 1], &[&a, &b]).unwrap_err().status, Status::Shape);
    assert_eq!(t.index_gather(&[1, 0], &[&a, &a]).unwrap_err().status, Status::Invalid);
    assert_eq!(t.index_gather(&[0], &[&a, &a]).unwrap_err().status, Status::Invalid);
    assert_eq!(t.index_gather(&[], &[]).unwrap_err().status, Status::Invalid);
    let mask = Tensor::from_slice(&[true, false, true], &[3]).unwrap();
    assert_eq!(t.index_gather(&[0], &[&mask]).unwrap_err().status, Status::DType);
    let err = t.index_put(&[0], &[&a], &Tensor::zeros(DType::Float32, &[3]).unwrap()).unwrap_err();
    assert_eq!(err.status, Status::Shape);
    let before = t.to_vec::<f32>().unwrap();
    assert_eq!(t.index_put(&[1], &[&bad], &Tensor::scalar_float64(1.0).unwrap()).unwrap_err().status, Status::Bounds);
    assert_eq!(t.to_vec::<f32>().unwrap(), before); // nothing written
    let storage = Storage::from_vec(vec![1i16, 2, 3, 4], true).unwrap();
    let frozen = Tensor::from_storage(&storage, DType::Int16, &[4], None, 0).unwrap();
    let one = Tensor::scalar_int64(1).unwrap();
    assert_eq!(frozen.index_put(&[0], &[&a], &one).unwrap_err().status, Status::ReadOnly);
    let expanded = Tensor::zeros(DType::Float32, &[1, 4]).unwrap().expand(&[3, 4]).unwrap();
    assert_eq!(expanded.index_put(&[0], &[&a], &one).unwrap_err().status, Status::Overlap);
    // a live slice of the destination: the put would race with it
    let reading = t.as_slice::<f32>().unwrap();
    assert_eq!(t.index_put(&[0], &[&a], &one).unwrap_err().status, Status::Overlap);
    drop(reading);
    t.index_put(&[0], &[&a], &one).unwrap();
}
