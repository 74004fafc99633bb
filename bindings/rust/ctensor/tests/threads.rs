//! Which handles cross threads: compile-time checks, and one file read from many threads.

use std::sync::Arc;
use std::thread;

use ctensor::{DType, DlpackLegacyTensor, DlpackTensor, Error, Iter, LoadMode, SafeTensors, Slice, SliceMut, Storage, Tensor};

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn handles_are_send_and_sync() {
    assert_send_sync::<Tensor>();
    assert_send_sync::<Storage>();
    assert_send_sync::<SafeTensors>();
    assert_send_sync::<DlpackTensor>();
    assert_send_sync::<DlpackLegacyTensor>();
    assert_send_sync::<Error>();
    assert_send_sync::<Iter<'static, f32>>();
    assert_send_sync::<Slice<'static, f32>>();
    assert_send_sync::<SliceMut<'static, f32>>();
    #[cfg(feature = "ndarray")]
    {
        assert_send_sync::<ctensor::ArrayRead<'static, f32>>();
        assert_send_sync::<ctensor::ArrayWrite<'static, f32>>();
    }
}

#[test]
fn one_safetensors_file_serves_many_threads() {
    let path = std::env::temp_dir().join(format!("ctensor-threads-{}.safetensors", std::process::id()));
    let w = Tensor::from_slice(&(0..64).map(|i| i as f32).collect::<Vec<_>>(), &[8, 8]).unwrap();
    SafeTensors::save(&path, &[("w", &w)], &[]).unwrap();
    let file = Arc::new(SafeTensors::open(&path, LoadMode::Mapped).unwrap());
    std::fs::remove_file(&path).unwrap();
    let sums: Vec<f32> = (0..4)
        .map(|k| {
            let file = Arc::clone(&file);
            thread::spawn(move || {
                let row = file.get("w").unwrap().select(0, k).unwrap();
                row.iter::<f32>().unwrap().sum::<f32>()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|h| h.join().unwrap())
        .collect();
    assert_eq!(sums, (0..4).map(|k| (0..8).map(|j| (8 * k + j) as f32).sum()).collect::<Vec<f32>>());
    // The last reference goes away on another thread; the tensors outlive it.
    let kept = file.get("w").unwrap();
    thread::spawn(move || drop(file)).join().unwrap();
    assert_eq!(kept.dtype(), DType::Float32);
    assert_eq!(kept.to_vec::<f32>().unwrap()[63], 63.0);
}

#[test]
fn an_iterator_moves_to_a_scoped_thread() {
    let t = Tensor::from_slice(&[1i64, 2, 3], &[3]).unwrap();
    let it = t.iter::<i64>().unwrap();
    let total = thread::scope(|s| s.spawn(move || it.sum::<i64>()).join().unwrap());
    assert_eq!(total, 6);
    // The read borrow ended with the iterator, on the other thread.
    t.as_slice_mut::<i64>().unwrap()[0] = 10;
}
