//! The view family, the splits and `s!` indexing, each compared with PyTorch 1.13
//! (Debian's /usr/bin/python3 with python3-torch, installed by scripts/install-deps.sh).
#![cfg(feature = "experimental")]

use std::process::Command;

use ctensor::{s, Index, Status, Tensor};

/// What a view is: sizes, strides, storage offset and its elements in C order.
#[derive(Debug, PartialEq)]
struct Layout {
    sizes: Vec<i64>,
    strides: Vec<i64>,
    offset: i64,
    values: Vec<i64>,
}

fn layout(t: &Tensor) -> Layout {
    Layout {
        sizes: t.sizes().to_vec(),
        strides: t.strides().to_vec(),
        offset: t.storage_offset(),
        values: t.contiguous().unwrap().to_vec::<i64>().unwrap(),
    }
}

/// torch.arange(numel).reshape(shape), int64.
fn arange(shape: &[i64]) -> Tensor {
    let numel: i64 = shape.iter().product();
    Tensor::from_vec((0..numel).collect::<Vec<i64>>(), shape).unwrap()
}

/// Evaluates each Python expression over `t = torch.arange(...).reshape(shape)`
/// (and `n = t.numpy()`, for what NumPy does and PyTorch refuses: negative
/// steps); an expression gives a tensor or array or a tuple of them (one
/// `Layout` each), or `None` when it raises.
fn torch(shape: &[i64], exprs: &[&str]) -> Vec<Option<Vec<Layout>>> {
    let program = format!(
        r#"
import numpy as np
import torch
def fields(p, base):
    if isinstance(p, np.ndarray):
        offset = (p.__array_interface__["data"][0] - base) // p.itemsize
        return p.shape, [s // p.itemsize for s in p.strides], [offset], p.reshape(-1).tolist()
    return p.shape, p.stride(), [p.storage_offset()], p.contiguous().reshape(-1).tolist()
shape = {shape:?}
for expr in {exprs:?}:
    t = torch.arange(int(torch.tensor(shape).prod())).reshape(shape)
    n = t.numpy()
    try:
        r = eval(expr)
    except (RuntimeError, IndexError, ValueError):
        print("error")
        continue
    pieces = list(r) if isinstance(r, (tuple, list)) else [r]
    base = n.__array_interface__["data"][0]
    print("|".join(";".join(" ".join(map(str, v)) for v in fields(p, base)) for p in pieces))
"#
    );
    let output = Command::new("/usr/bin/python3").args(["-c", &program]).output().expect("run /usr/bin/python3");
    assert!(output.status.success(), "the PyTorch oracle failed: {}", String::from_utf8_lossy(&output.stderr));
    let numbers = |field: &str| field.split_whitespace().map(|n| n.parse().unwrap()).collect::<Vec<i64>>();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            (line != "error").then(|| {
                line.split('|')
                    .filter(|piece| !piece.is_empty())
                    .map(|piece| {
                        let fields: Vec<&str> = piece.split(';').collect();
                        Layout {
                            sizes: numbers(fields[0]),
                            strides: numbers(fields[1]),
                            offset: numbers(fields[2])[0],
                            values: numbers(fields[3]),
                        }
                    })
                    .collect()
            })
        })
        .collect()
}

type Case<'a> = (&'a str, ctensor::Result<Vec<Tensor>>);

fn one(r: ctensor::Result<Tensor>) -> ctensor::Result<Vec<Tensor>> {
    r.map(|t| vec![t])
}

fn compare(shape: &[i64], cases: Vec<Case<'_>>) {
    let exprs: Vec<&str> = cases.iter().map(|(expr, _)| *expr).collect();
    let expected = torch(shape, &exprs);
    assert_eq!(expected.len(), cases.len());
    for ((expr, ours), theirs) in cases.into_iter().zip(expected) {
        match (ours, theirs) {
            (Ok(pieces), Some(layouts)) => {
                assert_eq!(pieces.iter().map(layout).collect::<Vec<_>>(), layouts, "{expr}")
            }
            (Err(e), None) => assert!(!e.message.is_empty(), "{expr}"),
            (ours, theirs) => panic!("{expr}: ctensor gave {ours:?}, PyTorch {theirs:?}"),
        }
    }
}

#[test]
fn view_family_matches_pytorch() {
    let t = arange(&[2, 3, 4]);
    compare(
        &[2, 3, 4],
        vec![
            ("t.diagonal(0, 1, 2)", one(t.diagonal(0, 1, 2))),
            ("t.diagonal(1, 1, 2)", one(t.diagonal(1, 1, 2))),
            ("t.diagonal(-2, 2, 1)", one(t.diagonal(-2, 2, 1))),
            ("t.diagonal(5, 1, 2)", one(t.diagonal(5, 1, 2))),
            ("t.diagonal(0, 1, 1)", one(t.diagonal(0, 1, 1))),
            ("t.unfold(2, 2, 1)", one(t.unfold(2, 2, 1))),
            ("t.unfold(1, 3, 2)", one(t.unfold(1, 3, 2))),
            ("t.unfold(2, 5, 1)", one(t.unfold(2, 5, 1))),
            ("t.unfold(2, 2, 0)", one(t.unfold(2, 2, 0))),
            ("torch.movedim(t, [0], [2])", one(t.movedim(&[0], &[2]))),
            ("torch.movedim(t, [0, 2], [2, 0])", one(t.movedim(&[0, 2], &[2, 0]))),
            ("torch.movedim(t, [0, 0], [1, 2])", one(t.movedim(&[0, 0], &[1, 2]))),
            ("t.unflatten(2, (2, 2))", one(t.unflatten(2, &[2, 2]))),
            ("t.unflatten(1, (-1, 1))", one(t.unflatten(1, &[-1, 1]))),
            ("t.unflatten(2, (3, 2))", one(t.unflatten(2, &[3, 2]))),
            ("torch.atleast_3d(t[0, 0])", one(t.select(0, 0).unwrap().select(0, 0).unwrap().atleast(3))),
            ("torch.atleast_2d(t[0, 0])", one(t.select(0, 0).unwrap().select(0, 0).unwrap().atleast(2))),
            ("torch.atleast_1d(t)", one(t.atleast(1))),
            ("torch.split(t, 2, 2)", t.split(2, 2)),
            ("torch.split(t, 3, -1)", t.split(3, -1)),
            ("torch.split(t, [1, 2], 1)", t.split_with_sizes(&[1, 2], 1)),
            ("torch.split(t, [1, 1], 1)", t.split_with_sizes(&[1, 1], 1)),
            ("torch.chunk(t, 3, 2)", t.chunk(3, 2)),
            ("torch.chunk(t, 0, 2)", t.chunk(0, 2)),
            ("torch.tensor_split(t, 3, 2)", t.tensor_split(3, 2)),
            ("torch.tensor_split(t, [1, -1, 1], 2)", t.tensor_split_indices(&[1, -1, 1], 2)),
            ("torch.tensor_split(t, [], 1)", t.tensor_split_indices(&[], 1)),
            ("torch.split(t, 2, 3)", t.split(2, 3)),
        ],
    );
}

#[test]
fn movedim_needs_as_many_destinations_as_sources() {
    let err = arange(&[2, 3]).movedim(&[0, 1], &[1]).unwrap_err();
    assert_eq!(err.status, Status::Invalid);
    assert!(err.message.contains("movedim"), "{err}");
}

#[test]
fn splits_share_the_storage_and_outlive_their_parent() {
    let pieces = {
        let t = arange(&[6]);
        let pieces = t.chunk(3, 0).unwrap();
        assert!(pieces.iter().all(|p| p.storage().as_ptr() == t.storage().as_ptr()));
        pieces
    };
    assert_eq!(pieces.iter().map(|p| p.to_vec::<i64>().unwrap()).collect::<Vec<_>>(), [[0, 1], [2, 3], [4, 5]]);
}

#[test]
fn s_macro_matches_pytorch_and_numpy_indexing() {
    let t = arange(&[4, 5, 6]);
    let last = 1;
    compare(
        &[4, 5, 6],
        vec![
            ("t[1:3, 2]", one(t.index(s![1..3, 2]))),
            ("t[::2, 1:, :-1]", one(t.index(s![..;2, 1.., ..-1]))),
            ("t[-1, ..., None, 1::2]", one(t.index(s![-1, ..., NewAxis, 1..;2]))),
            ("n[..., ::-1]", one(t.index(s![..., ..;-1]))),
            ("n[3:0:-2, ..., 1]", one(t.index(s![3..0;-2, ..., 1]))),
            ("t[:, 1:10:3]", one(t.index(s![.., 1..10;3]))),
            ("t[0][True]", one(t.index(s![0, true]))),
            ("t[0, -1]", one(t.index(s![0, -last]))),
            ("t[4]", one(t.index(s![4]))),
            ("t[0, 0, 0, 0]", one(t.index(s![0, 0, 0, 0]))),
            ("t[..., 0, ...]", one(t.index(s![..., 0, ...]))),
            ("t[::0]", one(t.index(s![..;0]))),
            ("t[()]", one(t.index(s![]))),
        ],
    );
    // s! gives the same items as the Index enum spelled out.
    assert_eq!(
        s![1..10;2, 3, .., NewAxis, ...],
        [
            Index::Slice { start: Some(1), stop: Some(10), step: 2 },
            Index::Int(3),
            Index::FULL,
            Index::NewAxis,
            Index::Ellipsis,
        ]
    );
}
