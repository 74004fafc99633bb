//go:build ctensor_experimental

package ctensor

// The wrappers of the experimental section of include/ctensor.h (whose
// signatures or behaviour a 0.x minor release may still change), built only
// with the ctensor_experimental build tag: this file, views2.go (Diagonal,
// Unfold, MoveDim, Unflatten, AtLeast and the splits), advanced.go
// (IndexGather, IndexPut, Nonzero) and formats.go (EmptyLike, ZerosLike,
// ToWith, CopyFromWith). The tag defines CTENSOR_EXPERIMENTAL for the whole
// package's C code, as C includers opt in.

/*
#cgo CFLAGS: -DCTENSOR_EXPERIMENTAL
#include "shim.h"
*/
import "C"

import "unsafe"

// ConjPhysical is torch.conj_physical: complex values conjugated into a new
// tensor; a tensor of any other dtype gives a new handle to the same tensor.
func (t *Tensor) ConjPhysical() (*Tensor, error) {
	return t.derive("conj_physical", func(p *C.tensor_t) C.ct_result { return C.ct_conj_physical(p) })
}

// Conj is torch.conj without a conjugate bit: as ConjPhysical, but a complex
// result is read-only, so a write that PyTorch's conjugate view would send to t
// fails with StatusReadOnly instead of being lost.
func (t *Tensor) Conj() (*Tensor, error) {
	return t.derive("conj", func(p *C.tensor_t) C.ct_result { return C.ct_conj(p) })
}

// Convert converts src into dst element by element with the library's
// conversion rules (those of CopyFrom), without making tensors: float to int
// truncates and saturates, anything to bool is x != 0. The slices must have
// the same length and must not overlap.
func Convert[D, S Scalar](dst []D, src []S) error {
	if len(dst) != len(src) {
		return errorf(StatusShape, "convert: %d destination elements for %d source elements", len(dst), len(src))
	}
	return statusError(C.ct_convert(unsafe.Pointer(unsafe.SliceData(dst)), C.tensor_dtype_t(DTypeOf[D]()),
		unsafe.Pointer(unsafe.SliceData(src)), C.tensor_dtype_t(DTypeOf[S]()), C.int64_t(len(src))))
}
