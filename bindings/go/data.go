package ctensor

/*
#include "shim.h"
*/
import "C"

import (
	"math"
	"runtime"
	"runtime/cgo"
	"sync/atomic"
	"unsafe"
)

// Float16Bits and BFloat16Bits are the raw bits of one float16 or bfloat16
// element (Go has no such types); convert with Tensor.To(Float32, ...).
type (
	Float16Bits  uint16
	BFloat16Bits uint16
)

// Element is a Go type with the memory layout of a ctensor dtype, usable for
// zero-copy access. bool is left out: Go requires a bool's byte to be 0 or 1,
// and a view_dtype of uint8 memory could hold anything.
type Element interface {
	uint8 | int8 | int16 | int32 | int64 | uint16 | uint32 | uint64 |
		float32 | float64 | complex64 | complex128 | Float16Bits | BFloat16Bits
}

// Scalar is a type FromSlice can copy from: an Element or bool.
type Scalar interface{ Element | bool }

// DTypeOf is the dtype whose elements are T.
func DTypeOf[T Scalar]() DType {
	var zero T
	switch any(zero).(type) {
	case uint8:
		return Uint8
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	case Float16Bits:
		return Float16
	case BFloat16Bits:
		return BFloat16
	case bool:
		return Bool
	}
	panic("unreachable: Scalar lists every case")
}

// shapeOf is sizes, or [len(data)] when none are given.
func shapeOf(n int, sizes []int64) []int64 {
	if len(sizes) == 0 {
		return []int64{int64(n)}
	}
	return sizes
}

// countElements is the product of sizes, ok false when a size is negative or
// the product overflows (the library reports those itself).
func countElements(sizes []int64) (n int64, ok bool) {
	n = 1
	overflow := false
	for _, s := range sizes {
		switch {
		case s < 0:
			return 0, false
		case s == 0:
			n = 0
		case n != 0 && n > math.MaxInt64/s:
			overflow = true
		default:
			n *= s
		}
	}
	if overflow && n != 0 {
		return 0, false
	}
	return n, true
}

// FromSlice is a new contiguous tensor holding a copy of data, with the given
// sizes ([len(data)] when none are given; their product must be len(data)).
func FromSlice[T Scalar](data []T, sizes ...int64) (*Tensor, error) {
	sizes = shapeOf(len(data), sizes)
	src := unsafe.Pointer(unsafe.SliceData(data))
	if n, ok := countElements(sizes); ok && n != int64(len(data)) {
		return nil, errorf(StatusShape, "from_slice: %d values given for sizes %v (%d elements)", len(data), sizes, n)
	} else if !ok {
		src = nil // the library rejects the sizes before it would read data
	}
	return newTensor(C.ct_from_data(src, C.int64_t(len(sizes)), dimsPtr(sizes), C.tensor_dtype_t(DTypeOf[T]())))
}

// wrappedBuffers counts Go buffers that storages still pin (for tests and leak checks).
var wrappedBuffers atomic.Int64

// Wrap is a tensor sharing data's memory without copying (sizes as in
// FromSlice, but any shape that fits inside data is allowed). data stays pinned
// until the last tensor or storage on it is released, by Close or by the
// cleanups. Go code may keep using data; writes through either side are seen
// by the other, and ordering them is the caller's job. data should be Go
// memory: a slice over C memory (another tensor's Float32s, say) is not kept
// alive by the new tensor.
func Wrap[T Element](data []T, sizes ...int64) (*Tensor, error) {
	return WrapFunc(data, nil, sizes...)
}

// WrapFunc is Wrap with a function that runs once, after data is unpinned,
// when the last tensor or storage on it is gone. It may run on any goroutine
// or thread (a cleanup's, a C thread's) and must not use tensors on data.
func WrapFunc[T Element](data []T, released func(), sizes ...int64) (*Tensor, error) {
	return wrap(data, 0, released, sizes)
}

// WrapReadOnly is Wrap for memory the library must not write: every write
// through a tensor on it (Fill, CopyFrom) fails with StatusReadOnly. Go code
// may still write data.
func WrapReadOnly[T Element](data []T, sizes ...int64) (*Tensor, error) {
	return wrap(data, C.TENSOR_READONLY, nil, sizes)
}

func wrap[T Element](data []T, flags C.uint32_t, released func(), sizes []int64) (*Tensor, error) {
	sizes = shapeOf(len(data), sizes)
	var zero T
	s, err := wrapStorage(unsafe.Pointer(unsafe.SliceData(data)), len(data)*int(unsafe.Sizeof(zero)), flags, released)
	if err != nil {
		return nil, err
	}
	defer s.Close() // the tensor holds its own reference
	return FromStorage(s, DTypeOf[T](), sizes, nil, 0)
}

// pinnedBuffer is what a storage over Go memory holds through its cgo.Handle.
type pinnedBuffer struct {
	pinner   runtime.Pinner
	released func()
}

// wrapStorage makes a storage over Go memory at p, pinned until its release callback.
func wrapStorage(p unsafe.Pointer, nbytes int, flags C.uint32_t, released func()) (*Storage, error) {
	buf := &pinnedBuffer{released: released}
	if nbytes > 0 {
		buf.pinner.Pin(p)
	}
	h := cgo.NewHandle(buf)
	wrappedBuffers.Add(1)
	r := C.ct_storage_wrap_go(p, C.size_t(nbytes), flags, C.uintptr_t(h))
	if r.status != C.TENSOR_OK { // the library calls back only on success
		buf.pinner.Unpin()
		h.Delete()
		wrappedBuffers.Add(-1)
	}
	return newStorage(r)
}

// ctensorReleaseGo is the release callback of storages over Go memory; it may
// run on any thread, including a cleanup's.
//
//export ctensorReleaseGo
func ctensorReleaseGo(handle C.uintptr_t) {
	h := cgo.Handle(handle)
	buf := h.Value().(*pinnedBuffer)
	h.Delete()
	buf.pinner.Unpin()
	wrappedBuffers.Add(-1)
	if buf.released != nil {
		buf.released()
	}
}

// Data is t's elements as a Go slice over the tensor's memory, in C order. It
// needs T to match t's dtype (StatusDType), a contiguous t (StatusStride; use
// Contiguous first), CPU memory (StatusDevice) and a writable t
// (StatusReadOnly; see DataReadOnly). The slice is valid while t is open:
// not after Close, nor once t is unreachable and its cleanup may have run, so
// keep t reachable while using it (defer t.Close() does).
func Data[T Element](t *Tensor) ([]T, error) { return data[T](t, "data", false) }

// DataReadOnly is Data for tensors that may be read-only. Writing through the
// slice into a read-only tensor is the caller's bug (it may crash).
func DataReadOnly[T Element](t *Tensor) ([]T, error) { return data[T](t, "data_readonly", true) }

func data[T Element](t *Tensor, op string, allowReadOnly bool) ([]T, error) {
	p, err := t.open(op)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	want := DTypeOf[T]()
	if got := DType(C.tensor_dtype(p)); got != want {
		return nil, errorf(StatusDType, "%s: the tensor's dtype is %v, not %v", op, got, want)
	}
	if C.tensor_is_contiguous(p) == 0 {
		return nil, errorf(StatusStride, "%s: the tensor is not contiguous (sizes %v, strides %v)", op,
			copyDims(C.tensor_sizes(p), C.tensor_ndim(p)), copyDims(C.tensor_strides(p), C.tensor_ndim(p)))
	}
	var devType C.int32_t
	C.tensor_device(p, &devType, nil)
	if !cpuAccessible(devType) {
		return nil, errorf(StatusDevice, "%s: the tensor's memory is on DLPack device type %d", op, devType)
	}
	if !allowReadOnly && C.tensor_is_readonly(p) != 0 {
		return nil, errorf(StatusReadOnly, "%s: the tensor is read-only (use DataReadOnly to read it)", op)
	}
	n := int(C.tensor_numel(p))
	if n == 0 {
		return []T{}, nil
	}
	first := C.tensor_data(p)
	var zero T
	if uintptr(first)%unsafe.Alignof(zero) != 0 {
		return nil, errorf(StatusInvalid, "%s: address %p is not aligned for %T", op, first, zero)
	}
	return unsafe.Slice((*T)(first), n), nil
}

// cpuAccessible: kDLCPU, kDLCUDAHost and kDLCUDAManaged memory, as the library counts it.
func cpuAccessible(devType C.int32_t) bool {
	return devType == C.kDLCPU || devType == C.kDLCUDAHost || devType == C.kDLCUDAManaged
}

// The element accessors below are Data for each Go element type.

func (t *Tensor) Uint8s() ([]uint8, error)           { return Data[uint8](t) }
func (t *Tensor) Int8s() ([]int8, error)             { return Data[int8](t) }
func (t *Tensor) Int16s() ([]int16, error)           { return Data[int16](t) }
func (t *Tensor) Int32s() ([]int32, error)           { return Data[int32](t) }
func (t *Tensor) Int64s() ([]int64, error)           { return Data[int64](t) }
func (t *Tensor) Uint16s() ([]uint16, error)         { return Data[uint16](t) }
func (t *Tensor) Uint32s() ([]uint32, error)         { return Data[uint32](t) }
func (t *Tensor) Uint64s() ([]uint64, error)         { return Data[uint64](t) }
func (t *Tensor) Float32s() ([]float32, error)       { return Data[float32](t) }
func (t *Tensor) Float64s() ([]float64, error)       { return Data[float64](t) }
func (t *Tensor) Complex64s() ([]complex64, error)   { return Data[complex64](t) }
func (t *Tensor) Complex128s() ([]complex128, error) { return Data[complex128](t) }

// Bools is a copy of a bool tensor's elements (any non-zero byte is true), in
// C order; t may be read-only but must be contiguous.
func (t *Tensor) Bools() ([]bool, error) {
	p, err := t.open("bools")
	if err != nil {
		return nil, err
	}
	got := DType(C.tensor_dtype(p))
	t.mu.RUnlock()
	if got != Bool {
		return nil, errorf(StatusDType, "bools: the tensor's dtype is %v, not bool", got)
	}
	u8, err := t.ViewDType(Uint8)
	if err != nil {
		return nil, err
	}
	defer u8.Close()
	bytes, err := DataReadOnly[uint8](u8)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(bytes))
	for i, b := range bytes {
		out[i] = b != 0
	}
	return out, nil
}
