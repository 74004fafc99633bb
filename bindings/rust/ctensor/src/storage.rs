//! Refcounted byte buffers.

use std::ffi::c_void;
use std::fmt;
use std::ptr::{self, NonNull};

use ctensor_sys as sys;

use crate::dtype::Element;
use crate::error::{check, Result};

/// A refcounted byte buffer that tensors view. `Clone` adds a reference
/// (`tensor_storage_retain`), `Drop` removes one; the last one frees the memory
/// (or drops its owner, for [`Storage::from_owner`] and [`Storage::from_vec`]).
///
/// `Storage` is `Send + Sync`: the library's reference counts are atomic and a
/// storage's size and flags never change. Its bytes are reached only through
/// tensors, whose element access is borrow-checked (see [`crate::Tensor`]).
pub struct Storage {
    raw: NonNull<sys::tensor_storage_t>,
}

// SAFETY: the handle is refcounted atomically and immutable; element memory is
// only touched through borrow-checked tensor methods.
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

/// The release callback of [`Storage::from_owner`]: drops the boxed owner.
unsafe extern "C" fn release_owner<O>(ctx: *mut c_void) {
    // SAFETY: ctx is the Box<O> that from_owner leaked; the library calls this once.
    drop(unsafe { Box::from_raw(ctx.cast::<O>()) });
}

impl Storage {
    /// A new zero-filled, writable, 64-byte aligned storage of `nbytes` bytes.
    pub fn new(nbytes: usize) -> Result<Storage> {
        let mut out = ptr::null_mut();
        // SAFETY: out is a valid out-parameter.
        check(unsafe { sys::tensor_storage_new(&mut out, nbytes) })?;
        Ok(Storage::from_new_reference(out))
    }

    /// Wraps `data`'s memory without copying. The `Vec` is dropped (once, on
    /// whichever thread) when the last tensor or storage handle on it goes away.
    /// A `read_only` storage refuses every write with [`crate::Status::ReadOnly`].
    pub fn from_vec<T: Element>(data: Vec<T>, read_only: bool) -> Result<Storage> {
        Storage::from_owner::<T, _>(data, read_only)
    }

    /// Wraps the elements `owner` holds (`owner.as_mut()`, asked once) without
    /// copying. `owner` is dropped (once, on whichever thread) when the last
    /// handle on the storage goes away, or at once if wrapping fails.
    ///
    /// ```
    /// use ctensor::{DType, Storage, Tensor};
    /// struct Pixels([u8; 4]);
    /// impl AsMut<[u8]> for Pixels {
    ///     fn as_mut(&mut self) -> &mut [u8] { &mut self.0 }
    /// }
    /// impl Drop for Pixels {
    ///     fn drop(&mut self) { println!("pixels released"); }
    /// }
    /// let s = Storage::from_owner(Pixels([1, 2, 3, 4]), false)?;
    /// let t = Tensor::from_storage(&s, DType::UInt8, &[2, 2], None, 0)?;
    /// assert_eq!(t.to_vec::<u8>()?, [1, 2, 3, 4]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn from_owner<T: Element, O: AsMut<[T]> + Send + 'static>(owner: O, read_only: bool) -> Result<Storage> {
        // Boxed first, so the elements stay put even when they live inside `owner`.
        let owner: *mut O = Box::into_raw(Box::new(owner));
        // SAFETY: owner is a valid, unaliased box until released below or by the library.
        let elements = AsMut::<[T]>::as_mut(unsafe { &mut *owner });
        let nbytes = std::mem::size_of_val(elements);
        let bytes = elements.as_mut_ptr().cast::<c_void>();
        let ctx = owner.cast::<c_void>();
        let flags = if read_only { sys::TENSOR_READONLY } else { 0 };
        let mut out = ptr::null_mut();
        // SAFETY: bytes..bytes+nbytes are initialised elements that the boxed owner
        // keeps in place until release_owner::<O> drops it.
        let status =
            unsafe { sys::tensor_storage_wrap(&mut out, bytes, nbytes, flags, Some(release_owner::<O>), ctx) };
        if let Err(err) = check(status) {
            // On failure the library took nothing: the owner is still ours to drop.
            // SAFETY: ctx came from Box::into_raw above and was not released.
            drop(unsafe { Box::from_raw(ctx.cast::<O>()) });
            return Err(err);
        }
        Ok(Storage::from_new_reference(out))
    }

    /// Takes over a reference the library gave out (non-null after `TENSOR_OK`).
    pub(crate) fn from_new_reference(raw: *mut sys::tensor_storage_t) -> Storage {
        Storage { raw: NonNull::new(raw).expect("the library returned TENSOR_OK with a NULL storage") }
    }

    /// Size in bytes.
    pub fn nbytes(&self) -> usize {
        // SAFETY: self.raw is a live handle.
        unsafe { sys::tensor_storage_nbytes(self.raw.as_ptr()) }
    }

    /// Whether every write through a view of this storage fails.
    pub fn is_readonly(&self) -> bool {
        // SAFETY: self.raw is a live handle.
        unsafe { sys::tensor_storage_is_readonly(self.raw.as_ptr()) != 0 }
    }

    /// The current reference count (each tensor on the storage holds one).
    pub fn refcount(&self) -> i64 {
        // SAFETY: self.raw is a live handle.
        unsafe { sys::tensor_storage_refcount(self.raw.as_ptr()) }
    }

    /// The first byte. Reading or writing through it is `unsafe` and bypasses the
    /// borrow checks of [`crate::Tensor`].
    pub fn as_ptr(&self) -> *mut u8 {
        // SAFETY: self.raw is a live handle.
        unsafe { sys::tensor_storage_data(self.raw.as_ptr()).cast() }
    }

    /// The C handle, borrowed (valid while `self` lives).
    pub fn as_raw(&self) -> *mut sys::tensor_storage_t {
        self.raw.as_ptr()
    }

    /// Gives up this reference as a C handle the caller must release.
    pub fn into_raw(self) -> *mut sys::tensor_storage_t {
        let raw = self.raw.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// Takes over one reference to a C handle; `None` for NULL.
    ///
    /// # Safety
    /// `raw` must be NULL or a live storage whose reference the caller owns and gives up.
    pub unsafe fn from_raw(raw: *mut sys::tensor_storage_t) -> Option<Storage> {
        NonNull::new(raw).map(|raw| Storage { raw })
    }
}

impl Clone for Storage {
    fn clone(&self) -> Storage {
        // SAFETY: retaining a live handle.
        unsafe { sys::tensor_storage_retain(self.raw.as_ptr()) };
        Storage { raw: self.raw }
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        // SAFETY: this handle owns one reference.
        unsafe { sys::tensor_storage_release(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Storage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Storage")
            .field("nbytes", &self.nbytes())
            .field("readonly", &self.is_readonly())
            .finish()
    }
}
