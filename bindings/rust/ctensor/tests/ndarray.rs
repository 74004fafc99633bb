//! ndarray views (any strides, negative ones included) and zero-copy arrays, and
//! random view chains checked against ndarray's own slicing.
#![cfg(feature = "ndarray")]

use ctensor::{DType, Index, Status, Tensor};
use ndarray::{s, Array, ArrayD, ArrayViewD, Axis, IxDyn, ShapeBuilder, Slice};
use proptest::prelude::*;

#[test]
fn negative_strides_round_trip_through_ndarray() {
    let t = Tensor::from_slice(&(0..24).collect::<Vec<i64>>(), &[2, 3, 4]).unwrap();
    let v = t.slice(2, None, None, -1).unwrap().slice(0, None, None, -1).unwrap().transpose(1, 2).unwrap();
    assert_eq!(v.strides(), [-12, -1, 4]);
    let a = v.as_array::<i64>().unwrap();
    let view = a.view();
    assert_eq!(view.shape(), [2, 4, 3]);
    assert_eq!(view.strides(), [-12, -1, 4]);
    assert_eq!(view.as_ptr() as *mut u8, v.data_ptr(), "same memory, no copy");
    assert_eq!(view[[0, 0, 0]], 15);
    assert_eq!(view.iter().copied().collect::<Vec<_>>(), v.to_vec::<i64>().unwrap());
    // And back: an owned array with negative strides becomes a tensor without a copy.
    let mut owned = view.to_owned();
    owned.invert_axis(Axis(1));
    let address = owned.as_ptr();
    let strides: Vec<i64> = owned.strides().iter().map(|&s| s as i64).collect();
    let expected: Vec<i64> = owned.iter().copied().collect();
    drop(a);
    let back = Tensor::from_array(owned).unwrap();
    assert_eq!(back.data_ptr() as *const i64, address);
    assert_eq!(back.strides(), strides);
    assert_eq!(back.to_vec::<i64>().unwrap(), expected);
}

#[test]
fn from_array_keeps_layout_and_offset() {
    let mut a = Array::from_shape_vec((4, 5), (0..20).map(|i| i as f32).collect()).unwrap();
    a.slice_collapse(s![1.., 2..;2]);
    let t = Tensor::from_array(a.clone()).unwrap();
    assert_eq!((t.sizes(), t.strides(), t.storage_offset()), (&[3i64, 2][..], &[5i64, 2][..], 7));
    assert_eq!(t.to_vec::<f32>().unwrap(), a.iter().copied().collect::<Vec<_>>());
    let fortran = Array::from_shape_vec((2, 3).f(), vec![1u8, 2, 3, 4, 5, 6]).unwrap();
    let t = Tensor::from_array(fortran).unwrap();
    assert_eq!(t.strides(), [1, 2]);
    assert_eq!(t.to_vec::<u8>().unwrap(), [1, 3, 5, 2, 4, 6]);
    let empty = Tensor::from_array(ArrayD::<f64>::zeros(IxDyn(&[0, 4]))).unwrap();
    assert_eq!((empty.numel(), empty.sizes()), (0, &[0i64, 4][..]));
    assert_eq!(empty.as_array::<f64>().unwrap().view().shape(), [0, 4]);
}

#[test]
fn mutable_views_write_in_place_and_refuse_overlap() {
    let t = Tensor::zeros(DType::Float64, &[3, 4]).unwrap();
    let reversed = t.slice(0, None, None, -1).unwrap().transpose(0, 1).unwrap();
    {
        let mut w = reversed.as_array_mut::<f64>().unwrap();
        let mut view = w.view_mut();
        view[[1, 0]] = 1.0;
        view.slice_mut(s![3, ..]).fill(2.0);
        assert_eq!(t.to_vec::<f64>().unwrap_err().status, Status::Overlap);
        assert_eq!(w.view()[[3, 2]], 2.0);
    }
    assert_eq!(t.get::<f64>(&[2, 1]).unwrap(), 1.0);
    assert_eq!(t.select(1, 3).unwrap().to_vec::<f64>().unwrap(), [2.0; 3]);
    let expanded = t.select(0, 0).unwrap().expand(&[2, 4]).unwrap();
    assert_eq!(expanded.as_array_mut::<f64>().unwrap_err().status, Status::Overlap);
    assert_eq!(expanded.as_array::<f64>().unwrap().view().strides(), [0, 1], "reading a broadcast is fine");
    let r = t.as_array::<f64>().unwrap();
    assert_eq!(t.fill(0.0).unwrap_err().status, Status::Overlap);
    drop(r);
    t.fill(0.0).unwrap();
}

/// One step of a view chain, resolved against the current shape so it is always valid.
#[derive(Debug, Clone)]
enum Op {
    /// Through `slice`, or through `index` with `..` for the dims before.
    Slice { dim: usize, start: usize, len: usize, step: usize, via_index: bool },
    Reverse { dim: usize, step: usize },
    Transpose(usize, usize),
    Select { dim: usize, index: usize, via_index: bool },
    Unsqueeze(usize),
    Permute(u64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<usize>(), any::<usize>(), any::<usize>(), 1usize..4, any::<bool>())
            .prop_map(|(dim, start, len, step, via_index)| Op::Slice { dim, start, len, step, via_index }),
        (any::<usize>(), 1usize..4).prop_map(|(dim, step)| Op::Reverse { dim, step }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Op::Transpose(a, b)),
        (any::<usize>(), any::<usize>(), any::<bool>())
            .prop_map(|(dim, index, via_index)| Op::Select { dim, index, via_index }),
        any::<usize>().prop_map(Op::Unsqueeze),
        any::<u64>().prop_map(Op::Permute),
    ]
}

/// Applies `op` to both; `None` when it does not apply to this shape (0 dims, size 0).
fn apply<'a>(t: &Tensor, a: ArrayViewD<'a, i32>, op: &Op) -> Option<(Tensor, ArrayViewD<'a, i32>)> {
    let ndim = t.ndim();
    let mut a = a;
    let t = match *op {
        Op::Slice { dim, start, len, step, via_index } if ndim > 0 => {
            let d = dim % ndim;
            let n = t.sizes()[d] as usize;
            let start = start % (n + 1);
            let stop = start + len % (n - start + 1);
            a.slice_axis_inplace(Axis(d), Slice::new(start as isize, Some(stop as isize), step as isize));
            let (start, stop, step) = (Some(start as i64), Some(stop as i64), step as i64);
            if via_index {
                t.index(&leading(d, Index::Slice { start, stop, step })).unwrap()
            } else {
                t.slice(d as i64, start, stop, step).unwrap()
            }
        }
        Op::Reverse { dim, step } if ndim > 0 => {
            let d = dim % ndim;
            a.slice_axis_inplace(Axis(d), Slice::new(0, None, -(step as isize)));
            t.slice(d as i64, None, None, -(step as i64)).unwrap()
        }
        Op::Transpose(x, y) if ndim > 0 => {
            let (x, y) = (x % ndim, y % ndim);
            a.swap_axes(x, y);
            t.transpose(x as i64, y as i64).unwrap()
        }
        Op::Select { dim, index, via_index } if ndim > 0 && t.sizes()[dim % ndim] > 0 => {
            let d = dim % ndim;
            let i = index % t.sizes()[d] as usize;
            a = a.index_axis_move(Axis(d), i);
            if via_index {
                t.index(&leading(d, Index::Int(i as i64))).unwrap()
            } else {
                t.select(d as i64, i as i64).unwrap()
            }
        }
        Op::Unsqueeze(pos) if ndim < 6 => {
            let p = pos % (ndim + 1);
            a = a.insert_axis(Axis(p));
            t.unsqueeze(p as i64).unwrap()
        }
        Op::Permute(seed) if ndim > 0 => {
            // A permutation from the seed (Fisher-Yates with a tiny LCG).
            let mut perm: Vec<usize> = (0..ndim).collect();
            let mut state = seed;
            for i in (1..ndim).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                perm.swap(i, (state >> 33) as usize % (i + 1));
            }
            a = a.permuted_axes(perm.clone());
            let dims: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
            t.permute(&dims).unwrap()
        }
        _ => return None,
    };
    Some((t, a))
}

/// `[.., .., item]` with `dim` full slices before the item.
fn leading(dim: usize, item: Index) -> Vec<Index> {
    let mut items = vec![Index::FULL; dim];
    items.push(item);
    items
}

fn base_shape() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..5, 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn view_chains_match_ndarray(shape in base_shape(), invert in any::<bool>(), ops in proptest::collection::vec(op(), 0..7)) {
        let n: usize = shape.iter().product();
        let mut owned = ArrayD::from_shape_vec(IxDyn(&shape), (0..n as i32).collect()).unwrap();
        if invert && !shape.is_empty() {
            owned.invert_axis(Axis(0));
        }
        let oracle = owned.clone();
        let base = Tensor::from_array(owned).unwrap();
        let origin = oracle.as_ptr();
        let mut t = base.clone();
        let mut a = oracle.view();
        for op in &ops {
            if let Some((next_t, next_a)) = apply(&t, a.clone(), op) {
                t = next_t;
                a = next_a;
            }
        }
        let sizes: Vec<i64> = a.shape().iter().map(|&s| s as i64).collect();
        prop_assert_eq!(t.sizes(), &sizes[..]);
        let expected: Vec<i32> = a.iter().copied().collect();
        prop_assert_eq!(&t.to_vec::<i32>().unwrap(), &expected);
        prop_assert_eq!(&t.iter::<i32>().unwrap().collect::<Vec<_>>(), &expected);
        if t.numel() > 0 {
            // Same first element and the same strides wherever a stride matters.
            // (each relative to its base's element [0, ..., 0]; the base owns a copy)
            let offset = unsafe { a.as_ptr().offset_from(origin) } as i64;
            let t_offset = unsafe { (t.data_ptr() as *const i32).offset_from(base.data_ptr() as *const i32) } as i64;
            prop_assert_eq!(t_offset, offset);
            for d in 0..t.ndim() {
                if t.sizes()[d] > 1 {
                    prop_assert_eq!(t.strides()[d], a.strides()[d] as i64, "dim {}", d);
                }
            }
        }
        let read = t.as_array::<i32>().unwrap();
        let view = read.view();
        prop_assert_eq!(&view, &a);
        prop_assert_eq!(view.strides().iter().map(|&s| s as i64).collect::<Vec<_>>(), t.strides().to_vec());
        prop_assert_eq!(t.contiguous().unwrap().as_slice::<i32>().unwrap().to_vec(), expected);
    }
}
