// Package ctensor binds libctensor: refcounted storages and tensors that are
// strided views onto them, with PyTorch's memory model (sizes, strides and
// storage offsets in elements, bounds-checked views, dtype conversions).
//
// Ownership: every *Tensor and *Storage holds one reference to its C handle.
// Close releases it (idempotent, safe to call from any goroutine); a cleanup
// registered with runtime.AddCleanup releases handles that were never closed,
// once the garbage collector finds them unreachable. A view holds the storage,
// never the tensor it was made from, so close tensors in any order.
//
// Errors: every fallible call returns an *Error with the library's Status and
// message. The message is read inside the same C call as the function, so it
// always belongs to that call even when the goroutine changes threads.
//
// Threads: a *Tensor may be used from many goroutines at once; Close waits for
// calls in progress on the same handle. Element memory is not synchronised:
// concurrent writes to the same elements are the caller's to order.
package ctensor

/*
#cgo pkg-config: ctensor
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Version is the loaded library's version string ("MAJOR.MINOR.PATCH").
func Version() string { return C.GoString(C.tensor_version_string()) }

// VersionNumber is the loaded library's MAJOR*10000 + MINOR*100 + PATCH.
func VersionNumber() int { return int(C.tensor_version_number()) }

// HeaderVersionNumber is the version of the header this package was compiled against.
const HeaderVersionNumber = C.CTENSOR_VERSION_NUMBER

// Status is a libctensor status code. Its values never change.
type Status int32

// The status codes of include/ctensor.h.
const (
	StatusOK          Status = C.TENSOR_OK
	StatusInvalid     Status = C.TENSOR_E_INVALID
	StatusNoMem       Status = C.TENSOR_E_NOMEM
	StatusBounds      Status = C.TENSOR_E_BOUNDS
	StatusShape       Status = C.TENSOR_E_SHAPE
	StatusStride      Status = C.TENSOR_E_STRIDE
	StatusDType       Status = C.TENSOR_E_DTYPE
	StatusOverflow    Status = C.TENSOR_E_OVERFLOW
	StatusReadOnly    Status = C.TENSOR_E_READONLY
	StatusOverlap     Status = C.TENSOR_E_OVERLAP
	StatusDevice      Status = C.TENSOR_E_DEVICE
	StatusCopy        Status = C.TENSOR_E_COPY
	StatusIO          Status = C.TENSOR_E_IO
	StatusFormat      Status = C.TENSOR_E_FORMAT
	StatusUnsupported Status = C.TENSOR_E_UNSUPPORTED
	StatusInternal    Status = C.TENSOR_E_INTERNAL
	StatusCancelled   Status = C.TENSOR_E_CANCELLED
)

// ErrInvalid matches (errors.Is) every StatusInvalid error: a nil or closed
// handle, a bad argument.
const ErrInvalid = StatusInvalid

// String is the status's name as in the header ("TENSOR_E_BOUNDS"), or
// "Status(N)" for a value the library does not know.
func (s Status) String() string {
	if name := C.tensor_status_name(C.tensor_status_t(s)); name != nil {
		return C.GoString(name)
	}
	return fmt.Sprintf("Status(%d)", int32(s))
}

// Error makes a Status usable as an errors.Is target:
// errors.Is(err, ctensor.StatusBounds).
func (s Status) Error() string { return s.String() }

// Error is a failed call: the library's status and its message, which names
// the values that were wrong. Branch on Status, not on Message.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string { return e.Status.String() + ": " + e.Message }

// Is reports whether target is e's Status, or an *Error with the same Status.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Status:
		return t == e.Status
	case *Error:
		return t.Status == e.Status
	}
	return false
}

// errorf is an error found on the Go side (a closed handle, a wrong element
// type), given the status the library uses for the same kind of mistake.
func errorf(status Status, format string, args ...any) error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

func closedError(op string) error { return errorf(StatusInvalid, "%s: the handle is closed", op) }

// nilError is the error for a nil handle passed where one is needed (the
// receiver or an argument), as C's TENSOR_E_INVALID for a NULL pointer.
func nilError(op, what string) error { return errorf(StatusInvalid, "%s: %s is nil", op, what) }

// takeError turns a failed ct_result into an *Error, freeing the C copy of the message.
func takeError(r C.ct_result) error {
	defer C.free(unsafe.Pointer(r.message))
	msg := ""
	if r.message != nil {
		msg = C.GoString(r.message)
	}
	return &Error{Status: Status(r.status), Message: msg}
}

// statusError is nil for a successful ct_result without a handle, else its *Error.
func statusError(r C.ct_result) error {
	if r.status == C.TENSOR_OK {
		return nil
	}
	return takeError(r)
}

// SetNumThreads sets how many threads one large copy, element-wise op or
// reduction may use, the calling thread included (process-wide; results never
// depend on it).
func SetNumThreads(n int) error { return statusError(C.ct_set_num_threads(C.int32_t(n))) }

// NumThreads is the value set by SetNumThreads; until then CTENSOR_NUM_THREADS
// when it holds a positive integer, else the number of CPUs the process may use.
func NumThreads() int { return int(C.tensor_get_num_threads()) }

// DType is an element type; its values equal PyTorch's c10::ScalarType.
type DType int32

// The dtypes of include/ctensor.h.
const (
	Uint8      DType = C.TENSOR_UINT8
	Int8       DType = C.TENSOR_INT8
	Int16      DType = C.TENSOR_INT16
	Int32      DType = C.TENSOR_INT32
	Int64      DType = C.TENSOR_INT64
	Float16    DType = C.TENSOR_FLOAT16
	Float32    DType = C.TENSOR_FLOAT32
	Float64    DType = C.TENSOR_FLOAT64
	Complex64  DType = C.TENSOR_COMPLEX64
	Complex128 DType = C.TENSOR_COMPLEX128
	Bool       DType = C.TENSOR_BOOL
	BFloat16   DType = C.TENSOR_BFLOAT16
	Uint16     DType = C.TENSOR_UINT16
	Uint32     DType = C.TENSOR_UINT32
	Uint64     DType = C.TENSOR_UINT64
)

// String is PyTorch's name without "torch." ("float32"), or "DType(N)" if unknown.
func (d DType) String() string {
	if name := C.tensor_dtype_name(C.tensor_dtype_t(d)); name != nil {
		return C.GoString(name)
	}
	return fmt.Sprintf("DType(%d)", int32(d))
}

// Size is the size of one element in bytes; 0 if the dtype is unknown.
func (d DType) Size() int { return int(C.tensor_dtype_size(C.tensor_dtype_t(d))) }

// Kind is a dtype's kind, in PyTorch's promotion order.
type Kind int32

const (
	KindBool    Kind = C.TENSOR_KIND_BOOL
	KindInt     Kind = C.TENSOR_KIND_INT // signed and unsigned
	KindFloat   Kind = C.TENSOR_KIND_FLOAT
	KindComplex Kind = C.TENSOR_KIND_COMPLEX
	KindUnknown Kind = -1 // not a dtype the library knows
)

// Kind is the dtype's kind; KindUnknown for an unknown dtype.
func (d DType) Kind() Kind { return Kind(C.tensor_dtype_kind(C.tensor_dtype_t(d))) }

// IsSigned is torch.dtype.is_signed: signed integers, floats and complex.
func (d DType) IsSigned() bool { return C.tensor_dtype_is_signed(C.tensor_dtype_t(d)) != 0 }

// Open ends of Tensor.Slice, as Python's omitted bounds: t[::-1] along dim d
// is t.Slice(d, SliceEnd, SliceStart, -1), t[2:] is t.Slice(d, 2, SliceEnd, 1).
const (
	SliceEnd   int64 = C.TENSOR_SLICE_END
	SliceStart int64 = -SliceEnd - 1
)

// AllDims as Tensor.Squeeze's dim removes every size-1 dim.
const AllDims int64 = -SliceEnd - 1

// MaxDims is the most dims a tensor may have.
const MaxDims = C.TENSOR_MAX_DIMS

// CopyMode is Tensor.To's copy rule (torch.asarray's copy=None/True/False).
type CopyMode int32

const (
	CopyIfNeeded CopyMode = C.TENSOR_COPY_IF_NEEDED // share when the dtype already matches
	CopyAlways   CopyMode = C.TENSOR_COPY_ALWAYS    // always a new contiguous tensor
	CopyNever    CopyMode = C.TENSOR_COPY_NEVER     // StatusCopy when a copy would be needed
)

// dimsPtr passes a Go []int64 to C for the duration of one call (the library
// copies it); nil for an empty slice.
func dimsPtr(d []int64) *C.int64_t { return (*C.int64_t)(unsafe.Pointer(unsafe.SliceData(d))) }
