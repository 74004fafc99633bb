package ctensor

/*
#include "shim.h"
*/
import "C"

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"
)

// Contiguous is t itself (a new reference) when t is contiguous, else a new
// contiguous, writable copy.
func (t *Tensor) Contiguous() (*Tensor, error) {
	return t.derive("contiguous", func(p *C.tensor_t) C.ct_result { return C.ct_contiguous(p) })
}

// Clone is a new contiguous, writable copy of t.
func (t *Tensor) Clone() (*Tensor, error) {
	return t.derive("clone", func(p *C.tensor_t) C.ct_result { return C.ct_clone(p) })
}

// To converts t to dtype following torch.asarray's copy rule (see CopyMode).
// A copy is a new contiguous, writable tensor; a shared result may be t's handle.
func (t *Tensor) To(dtype DType, mode CopyMode) (*Tensor, error) {
	return t.derive("to", func(p *C.tensor_t) C.ct_result {
		return C.ct_to(p, C.tensor_dtype_t(dtype), C.int32_t(mode))
	})
}

// CopyFrom is t[...] = src: src broadcasts to t's shape and converts to t's
// dtype; correct when the two share memory. StatusReadOnly for a read-only t,
// StatusOverlap when t has internal overlap (an expanded view, say).
func (t *Tensor) CopyFrom(src *Tensor) error {
	return withBoth(t, src, "copy", func(dst, s *C.tensor_t) error { return statusError(C.ct_copy(dst, s)) })
}

// Fill sets every element of t to value, converted as a copy from a float64.
func (t *Tensor) Fill(value float64) error {
	p, err := t.open("fill")
	if err != nil {
		return err
	}
	defer t.mu.RUnlock()
	return statusError(C.ct_fill(p, C.double(value)))
}

// FillInt64, FillFloat64 and FillComplex128 are PyTorch's fill_: every element
// of t becomes value, range-checked into t's dtype (StatusOverflow with PyTorch's
// message where Fill would wrap or saturate). Unlike Fill, t may have internal
// overlap (an expanded view): each place ends up the value.
func (t *Tensor) FillInt64(value int64) error {
	return t.fillElement(func(p unsafe.Pointer, d C.tensor_dtype_t) C.ct_result {
		return C.ct_scalar_convert_int64(p, d, C.int64_t(value))
	})
}

// FillFloat64 is FillInt64 with a float64 (NaN into an integer dtype overflows).
func (t *Tensor) FillFloat64(value float64) error {
	return t.fillElement(func(p unsafe.Pointer, d C.tensor_dtype_t) C.ct_result {
		return C.ct_scalar_convert_float64(p, d, C.double(value))
	})
}

// FillComplex128 is FillInt64 with a complex128 (a non-zero imaginary part into
// a real dtype other than bool overflows).
func (t *Tensor) FillComplex128(value complex128) error {
	return t.fillElement(func(p unsafe.Pointer, d C.tensor_dtype_t) C.ct_result {
		return C.ct_scalar_convert_complex128(p, d, C.double(real(value)), C.double(imag(value)))
	})
}

func (t *Tensor) fillElement(convert func(unsafe.Pointer, C.tensor_dtype_t) C.ct_result) error {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if t.ptr == nil {
		return closedError("fill_element")
	}
	var element [2]float64 // room for the widest element (complex128)
	p := unsafe.Pointer(&element[0])
	if err := statusError(convert(p, C.tensor_dtype(t.ptr))); err != nil {
		return err
	}
	return statusError(C.ct_fill_element(t.ptr, p))
}

// withBoth runs call with a and b held open (b may be a itself).
func withBoth(a, b *Tensor, op string, call func(pa, pb *C.tensor_t) error) error {
	return withAll(op, []*Tensor{a, b}, func(p []*C.tensor_t) error { return call(p[0], p[1]) })
}

// withAll runs call with every tensor held open, their handles in order (a
// tensor may appear more than once); StatusInvalid for a nil or closed one.
// The locks are taken in address order, once per tensor: read-locking one
// twice, or two in opposite orders, could deadlock behind waiting Closes.
func withAll(op string, tensors []*Tensor, call func(p []*C.tensor_t) error) error {
	for i, t := range tensors {
		if t == nil {
			return nilError(op, fmt.Sprintf("tensor %d of %d", i, len(tensors)))
		}
	}
	distinct := slices.Clone(tensors)
	slices.SortFunc(distinct, func(x, y *Tensor) int {
		return cmp.Compare(uintptr(unsafe.Pointer(x)), uintptr(unsafe.Pointer(y)))
	})
	distinct = slices.Compact(distinct)
	for _, t := range distinct {
		t.mu.RLock()
		defer t.mu.RUnlock()
	}
	handles := make([]*C.tensor_t, len(tensors))
	for i, t := range tensors {
		if t.ptr == nil {
			return closedError(op)
		}
		handles[i] = t.ptr
	}
	return call(handles)
}
