//go:build ctensor_experimental

package ctensor

// Memory formats and conversion policies (experimental in the C API).

/*
#include "shim.h"
*/
import "C"

// MemoryFormat is the layout of a tensor made like another (PyTorch's
// memory_format=): see EmptyLike and ToWith.
type MemoryFormat int32

const (
	// PreserveFormat is torch.preserve_format: t's own strides when t is
	// non-overlapping and dense (or has no elements), else dense strides in t's
	// dims' stride order (a transposed tensor stays column-major); PyTorch's
	// strides exactly.
	PreserveFormat MemoryFormat = C.TENSOR_PRESERVE_FORMAT
	// ContiguousFormat is torch.contiguous_format: C order.
	ContiguousFormat MemoryFormat = C.TENSOR_CONTIGUOUS_FORMAT
)

// Conversion is how elements convert between dtypes: see CopyFromWith and ToWith.
type Conversion uint32

const (
	// ConvertLibrary is the library's rules, as CopyFrom and To convert: float to
	// integer truncates and saturates (NaN to 0), 16-bit floats round once.
	ConvertLibrary Conversion = C.TENSOR_CONVERT_LIBRARY
	// ConvertTorchX86 is PyTorch 1.13's results on x86-64: float to int8/int16/int32
	// through a 32-bit truncation and to uint8/int64 through a 64-bit one, keeping
	// the low bits (-3.7 to uint8 253; NaN and out-of-range values through
	// INT_MIN); float64, complex128, int32 and int64 to float16/bfloat16 rounded
	// through float32; complex to bool by the real part. uint16/uint32/uint64 (not
	// PyTorch 1.13 dtypes) keep the library's rules.
	ConvertTorchX86 Conversion = C.TENSOR_CONVERT_TORCH_X86
)

// EmptyLike is torch.empty_like(t, dtype=dtype, memory_format=format): a new
// tensor of t's shape whose contents are unspecified. It reads no elements.
func (t *Tensor) EmptyLike(dtype DType, format MemoryFormat) (*Tensor, error) {
	return t.derive("empty_like", func(p *C.tensor_t) C.ct_result {
		return C.ct_empty_like(p, C.tensor_dtype_t(dtype), C.int32_t(format))
	})
}

// ZerosLike is torch.zeros_like(t, dtype=dtype, memory_format=format).
func (t *Tensor) ZerosLike(dtype DType, format MemoryFormat) (*Tensor, error) {
	return t.derive("zeros_like", func(p *C.tensor_t) C.ct_result {
		return C.ct_zeros_like(p, C.tensor_dtype_t(dtype), C.int32_t(format))
	})
}

// ToWith is To laid out and converted as asked (Tensor.to(dtype, copy=...,
// memory_format=...)): the copy rule is To's (the format never decides it), and
// a copy is a new writable tensor in `format`, its elements converted by conv.
// t.ToWith(t.DType(), CopyAlways, format, conv) is clone(memory_format=format).
func (t *Tensor) ToWith(dtype DType, mode CopyMode, format MemoryFormat, conv Conversion) (*Tensor, error) {
	return t.derive("to_with", func(p *C.tensor_t) C.ct_result {
		return C.ct_to_with(p, C.tensor_dtype_t(dtype), C.int32_t(mode), C.int32_t(format), C.uint32_t(conv))
	})
}

// CopyFromWith is CopyFrom converting by conv.
func (t *Tensor) CopyFromWith(src *Tensor, conv Conversion) error {
	return withBoth(t, src, "copy_with", func(dst, s *C.tensor_t) error {
		return statusError(C.ct_copy_with(dst, s, C.uint32_t(conv)))
	})
}
