//! DLPack exchange over the library's `tensor_to_dlpack` / `tensor_from_dlpack`.

use std::ptr::{self, NonNull};

use ctensor_sys as sys;

use crate::error::{check, Result};
use crate::tensor::Tensor;

/// An owned DLPack 1.x managed tensor (`DLManagedTensorVersioned`). Dropping it
/// runs its deleter exactly once; [`DlpackTensor::into_raw`] hands it (and that
/// duty) to a consumer instead.
#[derive(Debug)]
pub struct DlpackTensor {
    raw: NonNull<sys::DLManagedTensorVersioned>,
}

// SAFETY: DLPack deleters may run on any thread; the struct is not mutated
// through shared references.
unsafe impl Send for DlpackTensor {}
unsafe impl Sync for DlpackTensor {}

impl DlpackTensor {
    /// Takes over a managed tensor; `None` for NULL.
    ///
    /// # Safety
    /// `raw` must be NULL or a valid `DLManagedTensorVersioned` that nobody else
    /// will delete, whose memory stays valid until its deleter runs, and whose
    /// deleter may run on any thread. If its memory may be written by others while
    /// a Rust view exists, those writes are outside the borrow checks.
    pub unsafe fn from_raw(raw: *mut sys::DLManagedTensorVersioned) -> Option<DlpackTensor> {
        NonNull::new(raw).map(|raw| DlpackTensor { raw })
    }

    /// Gives up ownership: the caller must call the deleter exactly once.
    pub fn into_raw(self) -> *mut sys::DLManagedTensorVersioned {
        let raw = self.raw.as_ptr();
        std::mem::forget(self);
        raw
    }

    /// The managed tensor (version, flags, `dl_tensor`).
    pub fn as_raw(&self) -> &sys::DLManagedTensorVersioned {
        // SAFETY: raw is valid until the deleter runs, which needs self.
        unsafe { self.raw.as_ref() }
    }

    /// Whether the producer marked the memory read-only.
    pub fn is_read_only(&self) -> bool {
        self.as_raw().flags & sys::DLPACK_FLAG_BITMASK_READ_ONLY != 0
    }
}

impl Drop for DlpackTensor {
    fn drop(&mut self) {
        // SAFETY: this value owns the managed tensor; its deleter runs once.
        unsafe {
            if let Some(deleter) = self.raw.as_ref().deleter {
                deleter(self.raw.as_ptr());
            }
        }
    }
}

impl Tensor {
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
        let mut out = ptr::null_mut();
        // SAFETY: live handle, valid out-parameter, flags 0.
        check(unsafe { sys::tensor_to_dlpack(&mut out, self.as_raw(), 0) })?;
        Ok(DlpackTensor { raw: NonNull::new(out).expect("TENSOR_OK with a NULL managed tensor") })
    }

    /// A tensor viewing the memory `managed` describes, without copying; the
    /// library runs its deleter when the last view goes. On failure the managed
    /// tensor is deleted here.
    pub fn from_dlpack(managed: DlpackTensor) -> Result<Tensor> {
        // SAFETY: managed is valid; on success the library owns it, so it is not
        // dropped here; on failure nothing was taken and managed drops normally.
        let t = Tensor::make(|out| unsafe { sys::tensor_from_dlpack(out, managed.raw.as_ptr()) })?;
        std::mem::forget(managed);
        Ok(t)
    }
}
