//! Status codes and the error type every fallible call returns.

use std::ffi::CStr;
use std::fmt;

use ctensor_sys as sys;

/// A failure status: the C library's `TENSOR_E_*` codes, with the same values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
#[non_exhaustive]
pub enum Status {
    /// Bad argument: negative size, dim out of range, unknown dtype, step 0, ...
    Invalid = 1,
    /// Allocation failed.
    NoMem = 2,
    /// A view or index would reach outside its storage or dimension.
    Bounds = 3,
    /// Shapes do not match, cannot broadcast, or bad `-1` use.
    Shape = 4,
    /// The strides do not allow this (a `view` that would need a copy, a slice of a
    /// non-contiguous tensor).
    Stride = 5,
    /// dtype not allowed here, or not the element type asked for.
    DType = 6,
    /// Size, stride, offset or byte-count arithmetic overflows.
    Overflow = 7,
    /// Write into read-only memory.
    ReadOnly = 8,
    /// A write destination may overlap itself, or memory is borrowed by a live
    /// slice, array view or iterator that the access would conflict with.
    Overlap = 9,
    /// Element access on memory that is not on the CPU.
    Device = 10,
    /// A copy is needed but the caller forbade it.
    Copy = 11,
    /// Operating-system I/O error.
    Io = 12,
    /// Malformed file or foreign structure.
    Format = 13,
    /// Valid request this version cannot do.
    Unsupported = 14,
    /// A bug inside the library; please report it. Also given for a status code
    /// this crate does not know.
    Internal = 15,
    /// The caller's callback asked to stop (a load's progress callback).
    Cancelled = 16,
}

impl Status {
    /// Every status, in code order.
    pub const ALL: [Status; 16] = [
        Status::Invalid,
        Status::NoMem,
        Status::Bounds,
        Status::Shape,
        Status::Stride,
        Status::DType,
        Status::Overflow,
        Status::ReadOnly,
        Status::Overlap,
        Status::Device,
        Status::Copy,
        Status::Io,
        Status::Format,
        Status::Unsupported,
        Status::Internal,
        Status::Cancelled,
    ];

    /// The C value (`TENSOR_E_*`).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The status with C value `code`; `None` for `TENSOR_OK` and unknown values.
    pub fn from_code(code: i32) -> Option<Status> {
        Status::ALL.iter().copied().find(|s| s.code() == code)
    }

    /// The C macro's name, e.g. `"TENSOR_E_BOUNDS"`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Invalid => "TENSOR_E_INVALID",
            Status::NoMem => "TENSOR_E_NOMEM",
            Status::Bounds => "TENSOR_E_BOUNDS",
            Status::Shape => "TENSOR_E_SHAPE",
            Status::Stride => "TENSOR_E_STRIDE",
            Status::DType => "TENSOR_E_DTYPE",
            Status::Overflow => "TENSOR_E_OVERFLOW",
            Status::ReadOnly => "TENSOR_E_READONLY",
            Status::Overlap => "TENSOR_E_OVERLAP",
            Status::Device => "TENSOR_E_DEVICE",
            Status::Copy => "TENSOR_E_COPY",
            Status::Io => "TENSOR_E_IO",
            Status::Format => "TENSOR_E_FORMAT",
            Status::Unsupported => "TENSOR_E_UNSUPPORTED",
            Status::Internal => "TENSOR_E_INTERNAL",
            Status::Cancelled => "TENSOR_E_CANCELLED",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed call: the status and the library's message, which names the wrong
/// values (e.g. `select: index 5 is out of range for dim 0 of size 2`). Branch on
/// `status`; the message is for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    /// An error found by this crate before calling C (same statuses as C's).
    pub(crate) fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for Error {}

/// The result of every fallible call.
pub type Result<T> = std::result::Result<T, Error>;

/// `Ok(())` for `TENSOR_OK`, else the error with the message of this thread's
/// last failure. Call it directly on a C call's result: nothing may fail on this
/// thread in between.
pub(crate) fn check(status: sys::tensor_status_t) -> Result<()> {
    if status == sys::TENSOR_OK {
        return Ok(());
    }
    // SAFETY: tensor_last_error returns a valid NUL-terminated thread-local string.
    let text = unsafe { CStr::from_ptr(sys::tensor_last_error()) }.to_string_lossy();
    Err(match Status::from_code(status) {
        Some(s) => Error::new(s, text),
        None => Error::new(Status::Internal, format!("unknown status {status}: {text}")),
    })
}
