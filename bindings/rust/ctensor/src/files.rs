//! Files and shared memory: mapped and fd-backed storages, `.npy` and safetensors.

use std::any::Any;
use std::ffi::{c_void, CStr, CString};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::ffi::OsStrExt;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::ptr::{self, NonNull};

use ctensor_sys as sys;

use crate::borrow::{self, Access};
use crate::error::{check, Error, Result, Status};
use crate::storage::Storage;
use crate::tensor::Tensor;

/// How [`Storage::map_file`] and [`Storage::from_fd`] map memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapMode {
    /// Shared and read-only: the storage refuses writes (`TENSOR_MAP_READ`).
    ReadOnly,
    /// Shared and writable: writes reach the file and every other mapping (`TENSOR_MAP_WRITE`).
    ReadWrite,
    /// Copy-on-write: writable, but writes stay in this process (`TENSOR_MAP_PRIVATE`).
    CopyOnWrite,
}

impl MapMode {
    fn flags(self) -> u32 {
        match self {
            MapMode::ReadOnly => sys::TENSOR_MAP_READ,
            MapMode::ReadWrite => sys::TENSOR_MAP_WRITE,
            MapMode::CopyOnWrite => sys::TENSOR_MAP_PRIVATE,
        }
    }
}

/// How [`Tensor::load_npy`] and [`SafeTensors::open`] bring the data in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoadMode {
    /// Mapped read-only, zero-copy: the tensors are read-only (flags 0).
    #[default]
    Mapped,
    /// Mapped copy-on-write, zero-copy: writable, writes never reach the file.
    Writable,
    /// Read into owned, writable memory; the file is not kept mapped.
    Copy,
}

impl LoadMode {
    fn flags(self) -> u32 {
        match self {
            LoadMode::Mapped => 0,
            LoadMode::Writable => sys::TENSOR_LOAD_WRITABLE,
            LoadMode::Copy => sys::TENSOR_LOAD_COPY,
        }
    }
}

/// A Rust string as C's: `Err(Invalid)` for an interior NUL, which C would cut at.
fn c_string(op: &str, what: &str, bytes: &[u8]) -> Result<CString> {
    CString::new(bytes).map_err(|_| Error::new(Status::Invalid, format!("{op}: the {what} holds a NUL byte")))
}

fn c_path(op: &str, path: &Path) -> Result<CString> {
    c_string(op, "path", path.as_os_str().as_bytes())
}

fn new_storage(f: impl FnOnce(*mut *mut sys::tensor_storage_t) -> sys::tensor_status_t) -> Result<Storage> {
    let mut out = ptr::null_mut();
    check(f(&mut out))?;
    Ok(Storage::from_new_reference(out))
}

impl Storage {
    /// Maps bytes `offset .. offset + nbytes` of the file at `path` (`nbytes` 0:
    /// to its end) without reading it; the range is checked against the file's
    /// size. `Err(Io)` when the file cannot be opened, `Err(Bounds)` for a range
    /// outside it (an empty file included).
    ///
    /// ```
    /// use ctensor::{DType, MapMode, Storage, Tensor};
    /// let path = std::env::temp_dir().join(format!("ctensor-doc-map-{}", std::process::id()));
    /// std::fs::write(&path, [1u8, 2, 3, 4])?;
    /// let s = Storage::map_file(&path, 1, 2, MapMode::ReadOnly)?;
    /// assert_eq!(Tensor::from_storage(&s, DType::UInt8, &[2], None, 0)?.to_vec::<u8>()?, [2, 3]);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn map_file(path: impl AsRef<Path>, offset: u64, nbytes: u64, mode: MapMode) -> Result<Storage> {
        let path = c_path("storage_map_file", path.as_ref())?;
        // SAFETY: path is NUL-terminated and outlives the call.
        new_storage(|out| unsafe { sys::tensor_storage_map_file(out, path.as_ptr(), offset, nbytes, mode.flags()) })
    }

    /// A zero-filled, writable storage of `nbytes` bytes in anonymous shared
    /// memory (memfd), for sharing with other processes through [`Storage::fd`].
    pub fn new_shared(nbytes: usize) -> Result<Storage> {
        // SAFETY: a plain out-parameter.
        new_storage(|out| unsafe { sys::tensor_storage_new_shared(out, nbytes) })
    }

    /// Maps the first `nbytes` bytes (0: all) of the file or shared memory behind
    /// `fd`, which is duplicated: the caller keeps its own.
    pub fn from_fd(fd: impl AsFd, nbytes: usize, mode: MapMode) -> Result<Storage> {
        let fd = fd.as_fd().as_raw_fd();
        // SAFETY: fd is open for the duration of the call (borrowed above).
        new_storage(|out| unsafe { sys::tensor_storage_from_fd(out, fd, nbytes, mode.flags()) })
    }

    /// The descriptor behind a storage from [`Storage::new_shared`] or
    /// [`Storage::from_fd`], borrowed from the storage (`try_clone_to_owned` keeps
    /// it longer); `None` for any other storage.
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        // SAFETY: live handle.
        let fd = unsafe { sys::tensor_storage_fd(self.as_raw()) };
        // SAFETY: the storage keeps its descriptor open until its last reference
        // goes, and `self` is one for the borrow's lifetime.
        (fd >= 0).then(|| unsafe { BorrowedFd::borrow_raw(fd) })
    }
}

/// Options of [`Tensor::load_npy_with`] and [`SafeTensors::open_with`]; the
/// default gives the loads of [`Tensor::load_npy`] and [`SafeTensors::open`].
///
/// ```
/// use ctensor::{LoadMode, LoadOptions, Status, Tensor};
/// let path = std::env::temp_dir().join(format!("ctensor-doc-progress-{}.npy", std::process::id()));
/// Tensor::zeros(ctensor::DType::Float32, &[1 << 20])?.save_npy(&path)?;
/// let mut seen = Vec::new();
/// let mut record = |done: u64, total: u64| { seen.push((done, total)); true };
/// let t = Tensor::load_npy_with(&path, LoadMode::Copy,
///                               LoadOptions { progress: Some(&mut record), ..Default::default() })?;
/// assert_eq!(seen.first(), Some(&(0, 4 << 20)));
/// assert_eq!(seen.last(), Some(&(4 << 20, 4 << 20)));
/// let mut stop = |_: u64, _: u64| false;
/// let err = Tensor::load_npy_with(&path, LoadMode::Copy,
///                                 LoadOptions { progress: Some(&mut stop), ..Default::default() }).unwrap_err();
/// assert_eq!(err.status, Status::Cancelled);
/// # drop(t);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct LoadOptions<'a> {
    /// Called while a [`LoadMode::Copy`] load reads a file of at least
    /// `progress_min_bytes` bytes, on the loading thread, with `(done, total)`
    /// bytes: `(0, total)` first, never decreasing, `(total, total)` last.
    /// Returning `false` cancels the load (`Err` with [`Status::Cancelled`]); a
    /// panic in it cancels the load and goes on unwinding once the load returns.
    pub progress: Option<&'a mut dyn FnMut(u64, u64) -> bool>,
    /// Reads shorter than this are not reported.
    pub progress_min_bytes: u64,
    /// Threads a copy-mode read may use, the caller's included (0: the
    /// library's thread count, which also caps it).
    pub threads: usize,
}

/// What the C callback reaches through its `user` pointer.
struct Progress<'a, 'b> {
    f: &'a mut (dyn FnMut(u64, u64) -> bool + 'b),
    panic: Option<Box<dyn Any + Send>>,
}

unsafe extern "C" fn call_progress(user: *mut c_void, done: u64, total: u64) -> i32 {
    // SAFETY: `user` is the Progress that with_load_options keeps alive for the call.
    let p = unsafe { &mut *(user as *mut Progress<'_, '_>) };
    // A panic must not unwind through C: it cancels, and unwinds after the call.
    match panic::catch_unwind(AssertUnwindSafe(|| (p.f)(done, total))) {
        Ok(go_on) => i32::from(!go_on),
        Err(payload) => {
            p.panic = Some(payload);
            1
        }
    }
}

/// Runs `call` with `options` as the C struct (whose callback reaches the closure).
fn with_load_options<T>(
    op: &str,
    options: LoadOptions<'_>,
    call: impl FnOnce(*const sys::tensor_load_options_t) -> Result<T>,
) -> Result<T> {
    let threads = i32::try_from(options.threads)
        .map_err(|_| Error::new(Status::Invalid, format!("{op}: threads {} is out of range", options.threads)))?;
    let mut progress = options.progress.map(|f| Progress { f, panic: None });
    let raw = sys::tensor_load_options_t {
        struct_size: std::mem::size_of::<sys::tensor_load_options_t>(),
        progress: progress.as_ref().map(|_| call_progress as unsafe extern "C" fn(*mut c_void, u64, u64) -> i32),
        progress_user: progress.as_mut().map_or(ptr::null_mut(), |p| p as *mut Progress<'_, '_> as *mut c_void),
        progress_min_bytes: options.progress_min_bytes,
        num_threads: threads,
    };
    let result = call(&raw);
    if let Some(payload) = progress.and_then(|p| p.panic) {
        panic::resume_unwind(payload);
    }
    result
}

impl Tensor {
    /// [`Tensor::load_npy`] with options: a progress closure that may cancel,
    /// and the threads a [`LoadMode::Copy`] read uses.
    pub fn load_npy_with(path: impl AsRef<Path>, mode: LoadMode, options: LoadOptions<'_>) -> Result<Tensor> {
        let path = c_path("load_npy_with", path.as_ref())?;
        with_load_options("load_npy_with", options, |raw| {
            // SAFETY: path is NUL-terminated and `raw` valid for the call.
            Tensor::make(|out| unsafe { sys::tensor_load_npy_with(out, path.as_ptr(), mode.flags(), raw) })
        })
    }

    /// Loads a NumPy `.npy` file (C or Fortran order; Fortran arrays become
    /// strided views). `Err(Io)` for a missing file, `Err(Format)` for a corrupt
    /// one, `Err(DType)` for a dtype ctensor lacks.
    pub fn load_npy(path: impl AsRef<Path>, mode: LoadMode) -> Result<Tensor> {
        let path = c_path("load_npy", path.as_ref())?;
        // SAFETY: path is NUL-terminated and outlives the call.
        Tensor::make(|out| unsafe { sys::tensor_load_npy(out, path.as_ptr(), mode.flags()) })
    }

    /// Saves this tensor (any strides) as a `.npy` file in C order, as NumPy
    /// 1.24's `np.save` writes it, to exactly `path`, atomically (a temporary
    /// file renamed over it). `Err(DType)` for bfloat16.
    ///
    /// ```
    /// use ctensor::{LoadMode, Tensor};
    /// let path = std::env::temp_dir().join(format!("ctensor-doc-{}.npy", std::process::id()));
    /// let t = Tensor::from_slice(&[1.5f32, 2.5, 3.5, 4.5], &[2, 2])?.transpose(0, 1)?;
    /// t.save_npy(&path)?;
    /// assert_eq!(Tensor::load_npy(&path, LoadMode::Mapped)?.to_vec::<f32>()?, [1.5, 3.5, 2.5, 4.5]);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = c_path("save_npy", path.as_ref())?;
        let _read = self.borrow("save_npy", Access::Shared)?;
        // SAFETY: live handle, NUL-terminated path; the elements are borrowed for reading.
        check(unsafe { sys::tensor_save_npy(self.as_raw(), path.as_ptr()) })
    }
}

/// An open safetensors file: its validated header and its data, mapped (or
/// read) once. Tensors got from it share that data and outlive the handle;
/// `Drop` releases the handle.
///
/// `SafeTensors` is `Send + Sync`: the C handle never changes after it is
/// opened (every getter takes it `const`) and the tensors it gives hold the data
/// through an atomically refcounted storage, so many threads may `get` from one
/// file at once and any of them may drop it.
///
/// ```
/// use ctensor::{LoadMode, SafeTensors, Tensor};
/// let path = std::env::temp_dir().join(format!("ctensor-doc-{}.safetensors", std::process::id()));
/// let w = Tensor::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
/// let b = Tensor::from_slice(&[7i64], &[1])?;
/// SafeTensors::save(&path, &[("w", &w), ("b", &b)], &[("format", "pt")])?;
/// let file = SafeTensors::open(&path, LoadMode::Mapped)?;
/// assert_eq!(file.names(), ["b", "w"]); // the header's order: widest dtype first
/// assert_eq!(file.get("w")?.to_vec::<f32>()?, [1.0, 2.0, 3.0]);
/// assert_eq!(file.metadata("format"), Some("pt"));
/// assert_eq!(file.get("nope").unwrap_err().status, ctensor::Status::Invalid);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SafeTensors {
    raw: NonNull<sys::tensor_safetensors_t>,
}

// SAFETY: the handle is immutable after tensor_safetensors_open and shared
// between threads as the header allows for every handle; release is once, by
// Drop, on whichever thread drops it.
unsafe impl Send for SafeTensors {}
unsafe impl Sync for SafeTensors {}

impl SafeTensors {
    /// Opens and validates the file (as the reference implementation does).
    /// `Err(Io)` for a missing file, `Err(Format)` for a malformed one.
    pub fn open(path: impl AsRef<Path>, mode: LoadMode) -> Result<SafeTensors> {
        let path = c_path("safetensors_open", path.as_ref())?;
        let mut out = ptr::null_mut();
        // SAFETY: path is NUL-terminated and outlives the call.
        check(unsafe { sys::tensor_safetensors_open(&mut out, path.as_ptr(), mode.flags()) })?;
        Ok(SafeTensors { raw: NonNull::new(out).expect("the library returned TENSOR_OK with a NULL handle") })
    }

    /// [`SafeTensors::open`] with the options of [`Tensor::load_npy_with`] (the
    /// progress of a [`LoadMode::Copy`] open counts the data section's bytes).
    pub fn open_with(path: impl AsRef<Path>, mode: LoadMode, options: LoadOptions<'_>) -> Result<SafeTensors> {
        let path = c_path("safetensors_open_with", path.as_ref())?;
        with_load_options("safetensors_open_with", options, |raw| {
            let mut out = ptr::null_mut();
            // SAFETY: path is NUL-terminated and `raw` valid for the call.
            check(unsafe { sys::tensor_safetensors_open_with(&mut out, path.as_ptr(), mode.flags(), raw) })?;
            Ok(SafeTensors { raw: NonNull::new(out).expect("the library returned TENSOR_OK with a NULL handle") })
        })
    }

    /// Number of tensors in the file.
    pub fn len(&self) -> usize {
        // SAFETY: live handle.
        unsafe { sys::tensor_safetensors_count(self.raw.as_ptr()) as usize }
    }

    /// Whether the file holds no tensor.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tensors' names, in the order of the file's header.
    pub fn names(&self) -> Vec<&str> {
        (0..self.len() as i64)
            .map(|i| {
                // SAFETY: i is in range; the name lives as long as the handle, which `self` borrows.
                let name = unsafe { CStr::from_ptr(sys::tensor_safetensors_name(self.raw.as_ptr(), i)) };
                name.to_str().expect("the library validated the header as UTF-8")
            })
            .collect()
    }

    /// The tensor called `name`: a view sharing the file's data (zero-copy).
    /// `Err(Invalid)` when there is none, `Err(DType)` for F8 dtypes.
    pub fn get(&self, name: &str) -> Result<Tensor> {
        let name = c_string("safetensors_get", "name", name.as_bytes())?;
        // SAFETY: live handle, NUL-terminated name.
        Tensor::make(|out| unsafe { sys::tensor_safetensors_get(out, self.raw.as_ptr(), name.as_ptr()) })
    }

    /// The `"__metadata__"` value for `key`, if present.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        let key = CString::new(key).ok()?;
        // SAFETY: live handle, NUL-terminated key.
        let value = unsafe { sys::tensor_safetensors_metadata(self.raw.as_ptr(), key.as_ptr()) };
        // SAFETY: a non-NULL value lives as long as the handle, which `self` borrows.
        (!value.is_null()).then(|| unsafe { CStr::from_ptr(value) }.to_str().expect("validated as UTF-8"))
    }

    /// Every `"__metadata__"` key, in the order of the file's header (values:
    /// [`metadata`](Self::metadata)), as read at open: a file replaced on disk
    /// since does not change them.
    pub fn metadata_keys(&self) -> Vec<&str> {
        // SAFETY: live handle.
        let n = unsafe { sys::tensor_safetensors_metadata_count(self.raw.as_ptr()) };
        (0..n)
            .map(|i| {
                // SAFETY: i is in range; the key lives as long as the handle, which `self` borrows.
                let key = unsafe { CStr::from_ptr(sys::tensor_safetensors_metadata_key(self.raw.as_ptr(), i)) };
                key.to_str().expect("the library validated the header as UTF-8")
            })
            .collect()
    }

    /// Writes `tensors` (any strides, stored in C order) under their names and the
    /// `metadata` pairs as a safetensors file, atomically. `Err(Invalid)` for
    /// duplicate names or keys, `Err(DType)` for complex128.
    pub fn save(path: impl AsRef<Path>, tensors: &[(&str, &Tensor)], metadata: &[(&str, &str)]) -> Result<()> {
        const OP: &str = "safetensors_save";
        let path = c_path(OP, path.as_ref())?;
        let strings = |items: &mut dyn Iterator<Item = &str>, what: &str| -> Result<Vec<CString>> {
            items.map(|s| c_string(OP, what, s.as_bytes())).collect()
        };
        let names = strings(&mut tensors.iter().map(|(name, _)| *name), "name")?;
        let keys = strings(&mut metadata.iter().map(|(key, _)| *key), "metadata key")?;
        let values = strings(&mut metadata.iter().map(|(_, value)| *value), "metadata value")?;
        let pointers = |strings: &[CString]| strings.iter().map(|s| s.as_ptr()).collect::<Vec<_>>();
        let (names, keys, values) = (pointers(&names), pointers(&keys), pointers(&values));
        let handles: Vec<*const sys::tensor_t> = tensors.iter().map(|(_, t)| t.as_raw().cast_const()).collect();
        let spans: Vec<_> = tensors.iter().map(|(_, t)| (t.span(), Access::Shared)).collect();
        let _read = borrow::acquire(OP, &spans)?;
        // SAFETY: each array has n (or n_meta) valid entries that outlive the call;
        // every tensor's elements are borrowed for reading.
        check(unsafe {
            sys::tensor_safetensors_save(
                path.as_ptr(),
                handles.len() as i64,
                names.as_ptr(),
                handles.as_ptr(),
                keys.len() as i64,
                keys.as_ptr(),
                values.as_ptr(),
            )
        })
    }
}

impl Drop for SafeTensors {
    fn drop(&mut self) {
        // SAFETY: this value owns the handle.
        unsafe { sys::tensor_safetensors_release(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for SafeTensors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SafeTensors").field("names", &self.names()).finish()
    }
}
