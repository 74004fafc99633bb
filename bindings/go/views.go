package ctensor

/*
#include "shim.h"
*/
import "C"

// Views share t's storage and leave t unchanged; each is a new *Tensor to
// Close. Sizes, strides and offsets come out as PyTorch 1.13 gives them.

// AsStrided is torch.as_strided onto t's storage (strides nil: contiguous).
// Every element the view addresses must lie inside the storage (StatusBounds).
func (t *Tensor) AsStrided(sizes, strides []int64, storageOffset int64) (*Tensor, error) {
	if err := checkStrides("as_strided", sizes, strides); err != nil {
		return nil, err
	}
	return t.derive("as_strided", func(p *C.tensor_t) C.ct_result {
		return C.ct_as_strided(p, C.int64_t(len(sizes)), dimsPtr(sizes), dimsPtr(strides), C.int64_t(storageOffset))
	})
}

// View is Tensor.view(sizes): one size may be -1. StatusStride when the
// strides do not allow a view (Reshape copies instead).
func (t *Tensor) View(sizes ...int64) (*Tensor, error) {
	return t.derive("view", func(p *C.tensor_t) C.ct_result {
		return C.ct_view(p, C.int64_t(len(sizes)), dimsPtr(sizes))
	})
}

// Reshape is Tensor.reshape(sizes): a view where possible, else a contiguous copy.
func (t *Tensor) Reshape(sizes ...int64) (*Tensor, error) {
	return t.derive("reshape", func(p *C.tensor_t) C.ct_result {
		return C.ct_reshape(p, C.int64_t(len(sizes)), dimsPtr(sizes))
	})
}

// Transpose swaps dims dim0 and dim1 (negative dims count from the end).
func (t *Tensor) Transpose(dim0, dim1 int64) (*Tensor, error) {
	return t.derive("transpose", func(p *C.tensor_t) C.ct_result {
		return C.ct_transpose(p, C.int64_t(dim0), C.int64_t(dim1))
	})
}

// Permute reorders dims: dim i of the result is dim dims[i] of t.
func (t *Tensor) Permute(dims ...int64) (*Tensor, error) {
	return t.derive("permute", func(p *C.tensor_t) C.ct_result {
		return C.ct_permute(p, C.int64_t(len(dims)), dimsPtr(dims))
	})
}

// Slice is t[start:stop:step] along dim with Python's clamping; step may be
// negative. SliceEnd and SliceStart stand for omitted bounds.
func (t *Tensor) Slice(dim, start, stop, step int64) (*Tensor, error) {
	return t.derive("slice", func(p *C.tensor_t) C.ct_result {
		return C.ct_slice(p, C.int64_t(dim), C.int64_t(start), C.int64_t(stop), C.int64_t(step))
	})
}

// Select is t.select(dim, index), removing dim; StatusBounds when index is out of range.
func (t *Tensor) Select(dim, index int64) (*Tensor, error) {
	return t.derive("select", func(p *C.tensor_t) C.ct_result {
		return C.ct_select(p, C.int64_t(dim), C.int64_t(index))
	})
}

// Narrow is t.narrow(dim, start, length); StatusBounds when it leaves the dim.
func (t *Tensor) Narrow(dim, start, length int64) (*Tensor, error) {
	return t.derive("narrow", func(p *C.tensor_t) C.ct_result {
		return C.ct_narrow(p, C.int64_t(dim), C.int64_t(start), C.int64_t(length))
	})
}

// Expand is t.expand(sizes): size-1 and new leading dims repeat with stride 0;
// -1 keeps a size.
func (t *Tensor) Expand(sizes ...int64) (*Tensor, error) {
	return t.derive("expand", func(p *C.tensor_t) C.ct_result {
		return C.ct_expand(p, C.int64_t(len(sizes)), dimsPtr(sizes))
	})
}

// BroadcastTo is torch.broadcast_to, the same as Expand.
func (t *Tensor) BroadcastTo(sizes ...int64) (*Tensor, error) {
	return t.derive("broadcast_to", func(p *C.tensor_t) C.ct_result {
		return C.ct_broadcast_to(p, C.int64_t(len(sizes)), dimsPtr(sizes))
	})
}

// Squeeze removes dim if its size is 1 (else the view is unchanged); AllDims
// removes every size-1 dim.
func (t *Tensor) Squeeze(dim int64) (*Tensor, error) {
	return t.derive("squeeze", func(p *C.tensor_t) C.ct_result {
		return C.ct_squeeze(p, C.int64_t(dim))
	})
}

// Unsqueeze inserts a size-1 dim at dim (in [-NDim()-1, NDim()]).
func (t *Tensor) Unsqueeze(dim int64) (*Tensor, error) {
	return t.derive("unsqueeze", func(p *C.tensor_t) C.ct_result {
		return C.ct_unsqueeze(p, C.int64_t(dim))
	})
}

// Flatten is torch.flatten(t, startDim, endDim): a view where possible, else a copy.
func (t *Tensor) Flatten(startDim, endDim int64) (*Tensor, error) {
	return t.derive("flatten", func(p *C.tensor_t) C.ct_result {
		return C.ct_flatten(p, C.int64_t(startDim), C.int64_t(endDim))
	})
}

// ViewDType is Tensor.view(dtype): the same bytes as another element type,
// with PyTorch 1.13's rules when the element sizes differ.
func (t *Tensor) ViewDType(dtype DType) (*Tensor, error) {
	return t.derive("view_dtype", func(p *C.tensor_t) C.ct_result {
		return C.ct_view_dtype(p, C.tensor_dtype_t(dtype))
	})
}
