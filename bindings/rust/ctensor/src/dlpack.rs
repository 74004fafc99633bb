//! DLPack exchange over the library's `tensor_to_dlpack` / `tensor_from_dlpack`
//! and their `_legacy` variants.

use std::ptr::{self, NonNull};

use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::tensor::Tensor;

mod sealed {
    pub trait Sealed {}
}

/// A DLPack managed-tensor struct: `DLManagedTensorVersioned` (DLPack 1.x) or the
/// pre-1.0 `DLManagedTensor` that PyTorch 1.13 and NumPy 1.x exchange.
pub trait ManagedTensor: sealed::Sealed + Sized {
    #[doc(hidden)]
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)>;
    #[doc(hidden)]
    unsafe fn export(out: *mut *mut Self, t: *mut sys::tensor_t) -> sys::tensor_status_t;
    #[doc(hidden)]
    unsafe fn import(out: *mut *mut sys::tensor_t, m: *mut Self) -> sys::tensor_status_t;
}

impl sealed::Sealed for sys::DLManagedTensorVersioned {}
impl ManagedTensor for sys::DLManagedTensorVersioned {
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
    unsafe fn export(out: *mut *mut Self, t: *mut sys::tensor_t) -> sys::tensor_status_t {
        unsafe { sys::tensor_to_dlpack(out, t, 0) }
    }
    unsafe fn import(out: *mut *mut sys::tensor_t, m: *mut Self) -> sys::tensor_status_t {
        unsafe { sys::tensor_from_dlpack(out, m) }
    }
}

impl sealed::Sealed for sys::DLManagedTensor {}
impl ManagedTensor for sys::DLManagedTensor {
    fn deleter(&self) -> Option<unsafe extern "C" fn(*mut Self)> {
        self.deleter
    }
    unsafe fn export(out: *mut *mut Self, t: *mut sys::tensor_t) -> sys::tensor_status_t {
        unsafe { sys::tensor_to_dlpack_legacy(out, t) }
    }
    unsafe fn import(out: *mut *mut sys::tensor_t, m: *mut Self) -> sys::tensor_status_t {
        unsafe { sys::tensor_from_dlpack_legacy(out, m) }
    }
}

/// An owned DLPack managed tensor. Dropping it runs its deleter exactly once;
/// [`Dlpack::into_raw`] hands it (and that duty) to a consumer instead.
#[derive(Debug)]
pub struct Dlpack<M: ManagedTensor> {
    raw: NonNull<M>,
}

/// DLPack 1.x (`DLManagedTensorVersioned`, with the read-only flag).
pub type DlpackTensor = Dlpack<sys::DLManagedTensorVersioned>;
/// Pre-1.0 DLPack (`DLManagedTensor`), for PyTorch 1.13 and NumPy 1.x.
pub type DlpackLegacyTensor = Dlpack<sys::DLManagedTensor>;

// SAFETY: DLPack deleters may run on any thread; the struct is not mutated
// through shared references.
unsafe impl<M: ManagedTensor> Send for Dlpack<M> {}
unsafe impl<M: ManagedTensor> Sync for Dlpack<M> {}

impl<M: ManagedTensor> Dlpack<M> {
    /// Takes over a managed tensor; `None` for NULL.
    ///
    /// # Safety
    /// `raw` must be NULL or a valid managed tensor that nobody else will delete,
    /// whose memory stays valid until its deleter runs, and whose deleter may run
    /// on any thread. Writes to its memory by others while a Rust view exists are
    /// outside the borrow checks.
    pub unsafe fn from_raw(raw: *mut M) -> Option<Dlpack<M>> {
        NonNull::new(raw).map(|raw| Dlpack { raw })
    }

    /// Gives up ownership: the caller must call the deleter exactly once.
    pub fn into_raw(self) -> *mut M {
        let raw = self.raw.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// The managed tensor (`dl_tensor`, deleter, and for 1.x version and flags).
    pub fn as_raw(&self) -> &M {
        // SAFETY: raw is valid until the deleter runs, which needs self.
        unsafe { self.raw.as_ref() }
    }
}

impl DlpackTensor {
    /// Whether the producer marked the memory read-only.
    pub fn is_read_only(&self) -> bool {
        self.as_raw().flags & sys::DLPACK_FLAG_BITMASK_READ_ONLY != 0
    }
}

impl<M: ManagedTensor> Drop for Dlpack<M> {
    fn drop(&mut self) {
        // SAFETY: this value owns the managed tensor; its deleter runs once.
        unsafe {
            if let Some(deleter) = self.as_raw().deleter() {
                deleter(self.raw.as_ptr());
            }
        }
    }
}

impl Tensor {
    fn export<M: ManagedTensor>(&self) -> Result<Dlpack<M>> {
        let mut out = ptr::null_mut();
        // SAFETY: live handle and a valid out-parameter.
        check(unsafe { M::export(&mut out, self.as_raw()) })?;
        Ok(Dlpack { raw: NonNull::new(out).expect("TENSOR_OK with a NULL managed tensor") })
    }

    /// Exports this tensor as DLPack 1.x without copying; the result holds its own
    /// reference to the tensor until its deleter runs.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// let t = Tensor::from_slice(&[1u8, 2, 3, 4], &[2, 2])?.transpose(0, 1)?;
    /// let back = Tensor::from_dlpack(t.to_dlpack()?)?;
    /// assert_eq!((back.data_ptr(), back.strides()), (t.data_ptr(), t.strides()));
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn to_dlpack(&self) -> Result<DlpackTensor> {
        self.export()
    }

    /// As [`Tensor::to_dlpack`], in the pre-1.0 format. It cannot say
    /// "read-only", so a read-only tensor fails with [`crate::Status::ReadOnly`].
    pub fn to_dlpack_legacy(&self) -> Result<DlpackLegacyTensor> {
        self.export()
    }

    /// A tensor viewing the memory `managed` describes (either format), without
    /// copying; the library runs its deleter when the last view goes. On failure
    /// the managed tensor is deleted here.
    pub fn from_dlpack<M: ManagedTensor>(managed: Dlpack<M>) -> Result<Tensor> {
        // SAFETY: managed is valid; on success the library owns it, so it is not
        // dropped here; on failure nothing was taken and managed drops normally.
        let t = Tensor::make(|out| unsafe { M::import(out, managed.raw.as_ptr()) })?;
        std::mem::forget(managed);
        Ok(t)
    }
}
