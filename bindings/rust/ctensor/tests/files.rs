//! Files and shared memory: mapped and fd-backed storages, .npy (checked against
//! NumPy through Debian's /usr/bin/python3) and safetensors.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use ctensor::{DType, LoadMode, MapMode, SafeTensors, Status, Storage, Tensor};

/// A fresh folder for one test, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ctensor-rust-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn python(program: &str) -> String {
    let output = Command::new("/usr/bin/python3").args(["-c", program]).output().expect("run /usr/bin/python3");
    assert!(output.status.success(), "python3 failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn assert_error<T: std::fmt::Debug>(result: ctensor::Result<T>, status: Status, needle: &str) {
    let err = result.unwrap_err();
    assert_eq!(err.status, status, "{err}");
    assert!(err.message.contains(needle), "{err} should name {needle:?}");
}

#[test]
fn npy_round_trips_every_layout_and_mode() {
    let dir = TempDir::new("npy");
    let path = dir.path("t.npy");
    let t = Tensor::from_slice(&(0..24).map(|i| i as f64 * 0.5).collect::<Vec<_>>(), &[2, 3, 4]).unwrap();
    let strided = t.permute(&[2, 0, 1]).unwrap().slice(0, None, None, -2).unwrap();
    strided.save_npy(&path).unwrap();
    let expected = strided.contiguous().unwrap().to_vec::<f64>().unwrap();

    let mapped = Tensor::load_npy(&path, LoadMode::Mapped).unwrap();
    assert_eq!((mapped.dtype(), mapped.sizes()), (DType::Float64, strided.sizes()));
    assert_eq!(mapped.to_vec::<f64>().unwrap(), expected);
    assert!(mapped.is_readonly());
    assert_eq!(mapped.fill(1.0).unwrap_err().status, Status::ReadOnly);

    let writable = Tensor::load_npy(&path, LoadMode::Writable).unwrap();
    writable.fill(-1.0).unwrap();
    let copied = Tensor::load_npy(&path, LoadMode::Copy).unwrap();
    assert!(!copied.is_readonly());
    assert_eq!(copied.to_vec::<f64>().unwrap(), expected, "copy-on-write writes must not reach the file");

    // Every dtype .npy can describe round-trips.
    let ints = Tensor::from_slice(&[-3i16, 0, 7], &[3]).unwrap();
    ints.save_npy(&path).unwrap();
    assert_eq!(Tensor::load_npy(&path, LoadMode::Copy).unwrap().to_vec::<i16>().unwrap(), [-3, 0, 7]);
    let flags = Tensor::from_slice(&[true, false], &[2, 1]).unwrap();
    flags.save_npy(&path).unwrap();
    let back = Tensor::load_npy(&path, LoadMode::Mapped).unwrap();
    assert_eq!((back.dtype(), back.sizes()), (DType::Bool, &[2, 1][..]));
}

#[test]
fn npy_files_agree_with_numpy() {
    let dir = TempDir::new("numpy");
    let theirs = dir.path("numpy.npy");
    let ours = dir.path("ours.npy");
    // NumPy writes a Fortran-order float32 array and a big-endian int32 one.
    python(&format!(
        "import numpy as np\n\
         np.save({:?}, np.asfortranarray(np.arange(6, dtype='<f4').reshape(2, 3) / 4))\n\
         np.save({:?}, np.arange(-2, 3, dtype='>i4'))",
        theirs.to_str().unwrap(),
        dir.path("big.npy").to_str().unwrap()
    ));
    let fortran = Tensor::load_npy(&theirs, LoadMode::Mapped).unwrap();
    assert_eq!((fortran.sizes(), fortran.strides()), (&[2, 3][..], &[1, 2][..]), "a column-major view, not a copy");
    assert_eq!(fortran.to_vec::<f32>().unwrap(), [0.0, 0.25, 0.5, 0.75, 1.0, 1.25]);
    let big = Tensor::load_npy(dir.path("big.npy"), LoadMode::Mapped).unwrap();
    assert_eq!(big.to_vec::<i32>().unwrap(), [-2, -1, 0, 1, 2]);

    // NumPy reads what ctensor writes, bytes identical to its own np.save.
    let t = Tensor::from_slice(&[1u16, 2, 3, 4, 5, 6], &[3, 2]).unwrap().transpose(0, 1).unwrap();
    t.save_npy(&ours).unwrap();
    let out = python(&format!(
        "import io, numpy as np\n\
         a = np.load({:?})\n\
         b = io.BytesIO(); np.save(b, a)\n\
         print(a.dtype, a.shape, a.tolist(), b.getvalue() == open({:?}, 'rb').read())",
        ours.to_str().unwrap(),
        ours.to_str().unwrap()
    ));
    assert_eq!(out.trim(), "uint16 (2, 3) [[1, 3, 5], [2, 4, 6]] True");
}

#[test]
fn npy_errors_carry_status_and_message() {
    let dir = TempDir::new("npy-errors");
    assert_error(Tensor::load_npy(dir.path("missing.npy"), LoadMode::Mapped), Status::Io, "missing.npy");
    let corrupt = dir.path("corrupt.npy");
    fs::write(&corrupt, b"\x93NUMPY\x01\x00\x10\x00{'descr': '<f4',").unwrap();
    assert_eq!(Tensor::load_npy(&corrupt, LoadMode::Mapped).unwrap_err().status, Status::Format);
    fs::write(&corrupt, b"not a numpy file at all").unwrap();
    assert_eq!(Tensor::load_npy(&corrupt, LoadMode::Copy).unwrap_err().status, Status::Format);
    let bf16 = Tensor::zeros(DType::BFloat16, &[2]).unwrap();
    assert_eq!(bf16.save_npy(dir.path("b.npy")).unwrap_err().status, Status::DType);
    assert!(!dir.path("b.npy").exists(), "a failed save leaves no file");
    assert_error(Tensor::load_npy(Path::new("a\0b.npy"), LoadMode::Mapped), Status::Invalid, "NUL");
    assert_eq!(
        Tensor::from_slice(&[1u8], &[1]).unwrap().save_npy(dir.path("no/such/dir/t.npy")).unwrap_err().status,
        Status::Io
    );
}

#[test]
fn safetensors_round_trip_with_metadata() {
    let dir = TempDir::new("safetensors");
    let path = dir.path("model.safetensors");
    let weight = Tensor::from_slice(&(0..6).map(|i| i as f32).collect::<Vec<_>>(), &[2, 3]).unwrap();
    let bias = Tensor::from_slice(&[1i64, -1], &[2]).unwrap();
    let mask = Tensor::from_slice(&[true, false, true], &[3]).unwrap();
    let weight_t = weight.transpose(0, 1).unwrap();
    SafeTensors::save(&path, &[("weight_t", &weight_t), ("bias", &bias), ("mask", &mask)], &[("step", "10")])
        .unwrap();

    let tensors = {
        let file = SafeTensors::open(&path, LoadMode::Mapped).unwrap();
        assert_eq!(file.len(), 3);
        assert_eq!(file.names(), ["bias", "weight_t", "mask"]);
        assert_eq!(file.metadata("step"), Some("10"));
        assert_eq!(file.metadata("epoch"), None);
        assert_eq!(file.metadata_keys(), ["step"]);
        assert_error(file.get("missing"), Status::Invalid, "missing");
        let w = file.get("weight_t").unwrap();
        assert!(w.is_readonly());
        (w, file.get("bias").unwrap(), file.get("mask").unwrap())
    };
    // The tensors outlive the handle and hold the mapped data.
    assert_eq!(tensors.0.sizes(), [3, 2]);
    assert_eq!(tensors.0.to_vec::<f32>().unwrap(), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    assert_eq!(tensors.1.to_vec::<i64>().unwrap(), [1, -1]);
    assert_eq!(tensors.2.to_vec::<bool>().unwrap(), [true, false, true]);

    let copied = SafeTensors::open(&path, LoadMode::Copy).unwrap().get("bias").unwrap();
    copied.fill(5.0).unwrap();
    assert_eq!(SafeTensors::open(&path, LoadMode::Mapped).unwrap().get("bias").unwrap().to_vec::<i64>().unwrap(), [1, -1]);
}

#[test]
fn safetensors_errors_carry_status_and_message() {
    let dir = TempDir::new("safetensors-errors");
    let t = Tensor::from_slice(&[1.0f32], &[1]).unwrap();
    assert_error(SafeTensors::open(dir.path("missing.safetensors"), LoadMode::Mapped), Status::Io, "missing");
    let corrupt = dir.path("corrupt.safetensors");
    fs::write(&corrupt, b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\": [1, 2]   }").unwrap();
    let err = SafeTensors::open(&corrupt, LoadMode::Mapped).unwrap_err();
    assert_eq!(err.status, Status::Format);
    assert!(!err.message.is_empty());
    fs::write(&corrupt, b"\xff\xff\xff\xff\xff\xff\xff\xff").unwrap();
    assert_eq!(SafeTensors::open(&corrupt, LoadMode::Copy).unwrap_err().status, Status::Format);
    let out = dir.path("out.safetensors");
    assert_eq!(SafeTensors::save(&out, &[("x", &t), ("x", &t)], &[]).unwrap_err().status, Status::Invalid);
    assert_eq!(SafeTensors::save(&out, &[("__metadata__", &t)], &[]).unwrap_err().status, Status::Invalid);
    let complex = Tensor::zeros(DType::Complex128, &[1]).unwrap();
    assert_eq!(SafeTensors::save(&out, &[("c", &complex)], &[]).unwrap_err().status, Status::DType);
    assert_error(SafeTensors::save(&out, &[("a\0b", &t)], &[]), Status::Invalid, "NUL");
    assert!(!out.exists());
}

#[test]
fn mapped_files_share_or_copy_writes() {
    let dir = TempDir::new("map");
    let path = dir.path("data.bin");
    fs::write(&path, [0u8, 1, 2, 3, 4, 5, 6, 7]).unwrap();
    let view = |s: &Storage| Tensor::from_storage(s, DType::UInt8, &[s.nbytes() as i64], None, 0).unwrap();

    let read_only = Storage::map_file(&path, 2, 4, MapMode::ReadOnly).unwrap();
    assert!(read_only.is_readonly() && read_only.fd().is_none());
    assert_eq!(view(&read_only).to_vec::<u8>().unwrap(), [2, 3, 4, 5]);
    assert_eq!(view(&read_only).fill(9.0).unwrap_err().status, Status::ReadOnly);

    let private = Storage::map_file(&path, 0, 0, MapMode::CopyOnWrite).unwrap();
    view(&private).fill(9.0).unwrap();
    assert_eq!(fs::read(&path).unwrap(), [0, 1, 2, 3, 4, 5, 6, 7]);

    let shared = Storage::map_file(&path, 4, 0, MapMode::ReadWrite).unwrap();
    view(&shared).fill(8.0).unwrap();
    drop(shared);
    assert_eq!(fs::read(&path).unwrap(), [0, 1, 2, 3, 8, 8, 8, 8]);

    assert_error(Storage::map_file(&path, 6, 4, MapMode::ReadOnly), Status::Bounds, "");
    assert_error(Storage::map_file(dir.path("missing.bin"), 0, 0, MapMode::ReadOnly), Status::Io, "missing.bin");
    fs::write(dir.path("empty.bin"), []).unwrap();
    assert_eq!(Storage::map_file(dir.path("empty.bin"), 0, 0, MapMode::ReadOnly).unwrap_err().status, Status::Bounds);
}

#[test]
fn shared_memory_is_seen_through_its_descriptor() {
    let shared = Storage::new_shared(16).unwrap();
    let fd = shared.fd().expect("memfd-backed");
    let other = Storage::from_fd(fd, 0, MapMode::ReadWrite).unwrap();
    assert_eq!(other.nbytes(), 16);
    assert_ne!(other.as_ptr(), shared.as_ptr(), "a second mapping of the same memory");
    let ours = Tensor::from_storage(&shared, DType::Int32, &[4], None, 0).unwrap();
    let theirs = Tensor::from_storage(&other, DType::Int32, &[4], None, 0).unwrap();
    assert_eq!(theirs.to_vec::<i32>().unwrap(), [0; 4]);
    ours.fill(42.0).unwrap();
    assert_eq!(theirs.to_vec::<i32>().unwrap(), [42; 4]);

    // The descriptor stays the storage's; an owned duplicate outlives it.
    let owned = shared.fd().unwrap().try_clone_to_owned().unwrap();
    drop((ours, shared));
    let again = Storage::from_fd(&owned, 8, MapMode::ReadOnly).unwrap();
    assert!(again.is_readonly());
    assert_eq!(Tensor::from_storage(&again, DType::Int32, &[2], None, 0).unwrap().to_vec::<i32>().unwrap(), [42; 2]);
    assert_eq!(Storage::from_fd(&owned, 64, MapMode::ReadOnly).unwrap_err().status, Status::Bounds);
    assert!(Storage::new(8).unwrap().fd().is_none());
}
