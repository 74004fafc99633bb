//! quickstart - ctensor in one page, in Rust (examples/quickstart.c's program).
//!
//! Wraps a buffer without copying, takes a strided view of it (a transpose made
//! with as_strided), materialises the view with contiguous(), and shows the
//! error of a view that reaches outside its storage. Run from bindings/rust with
//! `cargo run -p ctensor-quickstart`.

use std::process::ExitCode;

use ctensor::{Status, Storage, Tensor};

/// The caller's buffer: a 2x3 matrix, row-major. Dropping it is the release callback.
struct Buffer(Vec<f32>);

impl AsMut<[f32]> for Buffer {
    fn as_mut(&mut self) -> &mut [f32] {
        &mut self.0
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        println!("release callback: caller buffer no longer used");
    }
}

fn print_tensor(label: &str, t: &Tensor) -> ctensor::Result<()> {
    println!(
        "{label}: sizes {:?} strides {:?} contiguous {}",
        t.sizes(),
        t.strides(),
        u8::from(t.is_contiguous())
    );
    if t.is_contiguous() {
        let values: Vec<String> = t.as_slice::<f32>()?.iter().map(|v| v.to_string()).collect();
        println!("  values: {}", values.join(" "));
    }
    Ok(())
}

fn run() -> ctensor::Result<Status> {
    println!("ctensor {}", ctensor::version());

    // Zero-copy: the storage takes the buffer over; it is dropped when the last view goes.
    let buffer = Buffer(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let address = buffer.0.as_ptr();
    let flat = Tensor::from_storage(&Storage::from_owner(buffer, false)?, ctensor::DType::Float32, &[6], None, 0)?;
    println!("tensor_data == buffer: {}", if flat.data_ptr() as *const f32 == address { "yes" } else { "no" });

    // Views are new handles onto the same storage; the input is never changed.
    let matrix = flat.as_strided(&[2, 3], Some(&[3, 1]), 0)?;
    let transposed = flat.as_strided(&[3, 2], Some(&[1, 3]), 0)?;
    print_tensor("matrix", &matrix)?;
    print_tensor("transposed view", &transposed)?;

    // A contiguous copy of the transpose (a contiguous input would just be shared).
    let packed = transposed.contiguous()?;
    print_tensor("contiguous copy", &packed)?;

    // Views are bounds-checked: 2x3 elements from offset 1 need 7 floats, there are 6.
    let err = flat.as_strided(&[2, 3], Some(&[3, 1]), 1).unwrap_err();
    println!("out-of-bounds view: {} ({})", err.status, err.message);

    // Drop order does not matter: each view holds the storage.
    drop(flat);
    drop(matrix);
    drop(packed);
    drop(transposed); // the last view of the buffer: its release runs here
    Ok(err.status)
}

fn main() -> ExitCode {
    match run() {
        Ok(Status::Bounds) => ExitCode::SUCCESS,
        Ok(other) => {
            eprintln!("expected TENSOR_E_BOUNDS, got {other}");
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("quickstart failed: {err}");
            ExitCode::FAILURE
        }
    }
}
