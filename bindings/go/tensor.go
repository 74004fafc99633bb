package ctensor

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// Tensor is one reference to a libctensor tensor: a dtype, sizes, strides and
// a storage offset over a storage. Its metadata never changes. Methods may be
// called from many goroutines at once; after Close they fail with StatusInvalid
// (getters return the zero value).
type Tensor struct {
	mu      sync.RWMutex // held for reading by every call, for writing by Close
	ptr     *C.tensor_t  // nil once closed
	cleanup runtime.Cleanup
}

func releaseTensor(p *C.tensor_t) { C.tensor_release(p) }

// newTensor takes over the reference in a successful ct_result.
func newTensor(r C.ct_result) (*Tensor, error) {
	if r.status != C.TENSOR_OK {
		return nil, takeError(r)
	}
	return adoptTensor((*C.tensor_t)(r.out)), nil
}

// adoptTensor takes over one reference to p.
func adoptTensor(p *C.tensor_t) *Tensor {
	t := &Tensor{ptr: p}
	t.cleanup = runtime.AddCleanup(t, releaseTensor, p)
	return t
}

// Close releases the reference. It is idempotent and waits for calls in
// progress on t; slices from t's element accessors must not be used after it.
// Closing a nil *Tensor does nothing.
func (t *Tensor) Close() error {
	if t == nil {
		return nil // as tensor_release(NULL), so a defer after a failed call is harmless
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ptr != nil {
		t.cleanup.Stop()
		C.tensor_release(t.ptr)
		t.ptr = nil
	}
	return nil
}

// open read-locks t and gives its handle; the caller calls t.mu.RUnlock after
// using it. A nil or closed t gives StatusInvalid with nothing held. Every
// call on a tensor goes through open (or withAll, for several), so none
// dereferences a nil *Tensor.
func (t *Tensor) open(op string) (*C.tensor_t, error) {
	if t == nil {
		return nil, nilError(op, "the *Tensor")
	}
	t.mu.RLock()
	if t.ptr == nil {
		t.mu.RUnlock()
		return nil, closedError(op)
	}
	return t.ptr, nil
}

// derive runs a C function that makes a new tensor from t, with t held open.
func (t *Tensor) derive(op string, call func(p *C.tensor_t) C.ct_result) (*Tensor, error) {
	p, err := t.open(op)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	return newTensor(call(p))
}

// read runs a getter with t held open; a nil or closed t gives the zero value.
func read[T any](t *Tensor, get func(p *C.tensor_t) T) T {
	p, err := t.open("")
	if err != nil {
		var zero T
		return zero
	}
	defer t.mu.RUnlock()
	return get(p)
}

// Empty is a new contiguous tensor of the given sizes (none: a 0-dim tensor)
// whose contents are unspecified.
func Empty(dtype DType, sizes ...int64) (*Tensor, error) {
	return newTensor(C.ct_empty(C.int64_t(len(sizes)), dimsPtr(sizes), C.tensor_dtype_t(dtype)))
}

// Zeros is a new contiguous, zero-filled tensor of the given sizes.
func Zeros(dtype DType, sizes ...int64) (*Tensor, error) {
	return newTensor(C.ct_zeros(C.int64_t(len(sizes)), dimsPtr(sizes), C.tensor_dtype_t(dtype)))
}

// FromStorage is a tensor viewing s (strides nil means contiguous), checked
// like AsStrided: every element must lie inside the storage.
func FromStorage(s *Storage, dtype DType, sizes, strides []int64, storageOffset int64) (*Tensor, error) {
	p, err := s.open("from_storage")
	if err != nil {
		return nil, err
	}
	defer s.mu.RUnlock()
	if err := checkStrides("from_storage", sizes, strides); err != nil {
		return nil, err
	}
	return newTensor(C.ct_from_storage(p, C.tensor_dtype_t(dtype), C.int64_t(len(sizes)),
		dimsPtr(sizes), dimsPtr(strides), C.int64_t(storageOffset)))
}

// checkStrides: strides are nil (contiguous) or one per size; C reads len(sizes) of them.
func checkStrides(op string, sizes, strides []int64) error {
	if strides != nil && len(strides) != len(sizes) {
		return errorf(StatusInvalid, "%s: %d strides given for %d sizes", op, len(strides), len(sizes))
	}
	return nil
}

// NDim is the number of dims (0 for a scalar tensor).
func (t *Tensor) NDim() int {
	return read(t, func(p *C.tensor_t) int { return int(C.tensor_ndim(p)) })
}

// Sizes is a copy of the sizes, one per dim.
func (t *Tensor) Sizes() []int64 {
	return read(t, func(p *C.tensor_t) []int64 {
		return copyDims(C.tensor_sizes(p), C.tensor_ndim(p))
	})
}

// Strides is a copy of the strides, in elements, one per dim.
func (t *Tensor) Strides() []int64 {
	return read(t, func(p *C.tensor_t) []int64 {
		return copyDims(C.tensor_strides(p), C.tensor_ndim(p))
	})
}

func copyDims(d *C.int64_t, n C.int64_t) []int64 {
	out := make([]int64, n)
	copy(out, unsafe.Slice((*int64)(unsafe.Pointer(d)), n))
	return out
}

// StorageOffset is the offset of element [0,...,0] in the storage, in elements.
func (t *Tensor) StorageOffset() int64 {
	return read(t, func(p *C.tensor_t) int64 { return int64(C.tensor_storage_offset(p)) })
}

// DType is the element type (-1 for a nil or closed t).
func (t *Tensor) DType() DType {
	p, err := t.open("dtype")
	if err != nil {
		return -1
	}
	defer t.mu.RUnlock()
	return DType(C.tensor_dtype(p))
}

// Numel is the number of elements (1 for a scalar tensor).
func (t *Tensor) Numel() int64 {
	return read(t, func(p *C.tensor_t) int64 { return int64(C.tensor_numel(p)) })
}

// IsContiguous reports PyTorch's contiguity (size-1 dims' strides ignored).
func (t *Tensor) IsContiguous() bool {
	return read(t, func(p *C.tensor_t) bool { return C.tensor_is_contiguous(p) != 0 })
}

// IsReadOnly reports whether the storage refuses writes.
func (t *Tensor) IsReadOnly() bool {
	return read(t, func(p *C.tensor_t) bool { return C.tensor_is_readonly(p) != 0 })
}

// Device is where the memory lives, as a DLPack device type (1 for the CPU) and index.
func (t *Tensor) Device() (deviceType, deviceID int32) {
	var typ, id C.int32_t
	p, err := t.open("device")
	if err == nil {
		defer t.mu.RUnlock()
	}
	C.tensor_device(p, &typ, &id) // zeros for NULL
	return int32(typ), int32(id)
}

// Storage is a new reference to the storage t views.
func (t *Tensor) Storage() (*Storage, error) {
	p, err := t.open("storage")
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	return adoptStorage(C.tensor_storage_retain(C.tensor_storage(p))), nil
}

// Refcount is the C handle's reference count (this Tensor holds one; 0 once closed).
func (t *Tensor) Refcount() int64 {
	return read(t, func(p *C.tensor_t) int64 { return int64(C.tensor_refcount(p)) })
}

// String describes the layout: "Tensor(float32, sizes [2 3], strides [3 1], offset 0)".
func (t *Tensor) String() string {
	if t == nil {
		return "Tensor(nil)"
	}
	t.mu.RLock()
	closed := t.ptr == nil
	t.mu.RUnlock()
	if closed {
		return "Tensor(closed)"
	}
	return fmt.Sprintf("Tensor(%v, sizes %v, strides %v, offset %d)", t.DType(), t.Sizes(), t.Strides(),
		t.StorageOffset())
}
