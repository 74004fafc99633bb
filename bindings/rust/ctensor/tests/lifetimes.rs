//! Reference counting: release order, threads, and the memory of from_vec.
//!
//! A counting global allocator tells exactly when the Vec handed to from_vec is
//! freed. The tests of this file run one at a time (they share the counter).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

use ctensor::{DType, Storage, Tensor};

struct Watching;

/// The address whose deallocations are counted (0: none).
static WATCHED: AtomicUsize = AtomicUsize::new(0);
static FREED: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if WATCHED.load(Ordering::SeqCst) == ptr as usize {
            FREED.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Watching = Watching;

/// A Vec whose deallocation is counted from now on.
fn watched_vec(n: usize) -> Vec<f32> {
    let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
    FREED.store(0, Ordering::SeqCst);
    WATCHED.store(v.as_ptr() as usize, Ordering::SeqCst);
    v
}

fn freed() -> usize {
    FREED.load(Ordering::SeqCst)
}

#[test]
fn from_vec_frees_the_vec_once_after_the_last_view() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let v = watched_vec(12);
    let base = Tensor::from_vec(v, &[3, 4]).unwrap();
    let views = vec![
        base.transpose(0, 1).unwrap(),
        base.slice(1, None, None, -1).unwrap(),
        base.select(0, 2).unwrap(),
        base.expand(&[2, 3, 4]).unwrap(),
    ];
    let storage = base.storage();
    drop(base);
    assert_eq!(freed(), 0);
    assert_eq!(views[2].to_vec::<f32>().unwrap(), [8.0, 9.0, 10.0, 11.0]);
    let mut views = views;
    while let Some(v) = views.pop() {
        drop(v);
        assert_eq!(freed(), 0, "freed while a storage handle is alive");
    }
    assert_eq!(storage.refcount(), 1);
    drop(storage);
    assert_eq!(freed(), 1);
    WATCHED.store(0, Ordering::SeqCst);
}

#[test]
fn from_vec_frees_on_the_thread_that_drops_last() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let t = Tensor::from_vec(watched_vec(64), &[8, 8]).unwrap();
    let views: Vec<Tensor> = (0..4).map(|i| t.select(0, i).unwrap()).collect();
    drop(t);
    let handles: Vec<_> = views
        .into_iter()
        .map(|v| thread::spawn(move || v.to_vec::<f32>().unwrap()[0]))
        .collect();
    let firsts: Vec<f32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(firsts, [0.0, 8.0, 16.0, 24.0]);
    assert_eq!(freed(), 1);
    WATCHED.store(0, Ordering::SeqCst);
}

#[test]
fn failed_from_vec_frees_the_vec_at_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // More elements than the Vec holds: the library's bounds check refuses the view.
    let err = Tensor::from_vec(watched_vec(6), &[4, 2]).unwrap_err();
    assert_eq!(err.status, ctensor::Status::Bounds);
    assert!(err.message.contains("24 bytes"), "{}", err.message);
    assert_eq!(freed(), 1);
    // Fewer: every element of the Vec must be in the tensor.
    let err = Tensor::from_vec(watched_vec(6), &[2, 2]).unwrap_err();
    assert_eq!(err.status, ctensor::Status::Shape);
    assert_eq!(freed(), 1);
    let err = Tensor::from_vec(watched_vec(6), &[2, -3]).unwrap_err();
    assert_eq!(err.status, ctensor::Status::Invalid);
    assert_eq!(freed(), 1);
    WATCHED.store(0, Ordering::SeqCst);
}

#[test]
fn release_order_never_matters() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let t = Tensor::from_slice(&[1i32, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    let storage = t.storage();
    assert_eq!(storage.refcount(), 2);
    let a = t.transpose(0, 1).unwrap();
    let b = a.slice(0, Some(1), None, 1).unwrap();
    let c = b.clone();
    assert_eq!(c.refcount(), 2);
    assert_eq!(storage.refcount(), 4);
    drop(t);
    drop(a);
    drop(b);
    assert_eq!(c.refcount(), 1);
    assert_eq!(storage.refcount(), 2);
    assert_eq!(c.to_vec::<i32>().unwrap(), [2, 5, 3, 6]);
    drop(storage);
    assert_eq!(c.to_vec::<i32>().unwrap(), [2, 5, 3, 6]);
}

#[test]
fn views_made_on_one_thread_are_dropped_on_others() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let base = Tensor::zeros(DType::Int64, &[16, 16]).unwrap();
    let storage = base.storage();
    let views: Vec<Tensor> = (0..64)
        .map(|i| match i % 4 {
            0 => base.transpose(0, 1).unwrap(),
            1 => base.select(0, i / 4).unwrap(),
            2 => base.slice(1, None, None, -3).unwrap(),
            _ => base.clone(),
        })
        .collect();
    assert_eq!(storage.refcount(), 2 + 48);
    let mut chunks: Vec<Vec<Tensor>> = (0..4).map(|_| Vec::new()).collect();
    for (i, v) in views.into_iter().enumerate() {
        chunks[i % 4].push(v);
    }
    thread::scope(|s| {
        for chunk in chunks {
            let base = &base;
            s.spawn(move || {
                for v in chunk {
                    // Clone and drop on this thread as well, racing with the others.
                    let again = v.clone();
                    assert_eq!(again.dtype(), base.dtype());
                    drop(v);
                    drop(again);
                }
            });
        }
    });
    assert_eq!(storage.refcount(), 2);
    assert_eq!(base.refcount(), 1);
}

#[test]
fn storage_handles_follow_the_same_rules() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let s = Storage::new(32).unwrap();
    assert_eq!((s.nbytes(), s.is_readonly(), s.refcount()), (32, false, 1));
    let t = Tensor::from_storage(&s, DType::Float64, &[2, 2], None, 0).unwrap();
    let s2 = s.clone();
    assert_eq!(s.refcount(), 3);
    let moved = thread::spawn(move || {
        drop(s2);
        t.to_vec::<f64>().unwrap()
    })
    .join()
    .unwrap();
    assert_eq!(moved, [0.0; 4]);
    assert_eq!(s.refcount(), 1);
    let raw = s.clone().into_raw();
    let back = unsafe { Storage::from_raw(raw) }.unwrap();
    assert_eq!(back.refcount(), 2);
}
