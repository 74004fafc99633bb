//go:build ctensor_experimental

package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// IndexGather is t[..., indices[0], ..., indices[1], ...] (NumPy's and PyTorch's
// advanced indexing) as a new contiguous tensor: index tensor k (any integer
// dtype, negative values counting from the end) picks positions along dim
// dims[k] (ascending). The index tensors broadcast together; their dims replace
// the indexed ones where those are adjacent, else lead the result. StatusBounds
// for an index outside its dim, StatusShape when the index tensors do not
// broadcast, StatusDType for a boolean one (index with Nonzero's columns).
func (t *Tensor) IndexGather(dims []int64, indices ...*Tensor) (*Tensor, error) {
	var out *Tensor
	err := withIndices("index_gather", t, dims, indices, nil, func(p *C.tensor_t, idx **C.tensor_t, _ *C.tensor_t) (err error) {
		out, err = newTensor(C.ct_index_gather(p, C.int64_t(len(dims)), dimsPtr(dims), idx))
		return err
	})
	return out, err
}

// IndexPut is t[same index] = values: values broadcast to IndexGather's result
// shape and convert to t's dtype as CopyFrom converts. Where several positions
// name one element, the last in C order of the index shape wins. Every index
// is checked before anything is written; StatusReadOnly for a read-only t,
// StatusOverlap for one with internal overlap (an expanded view).
func (t *Tensor) IndexPut(dims []int64, indices []*Tensor, values *Tensor) error {
	return withIndices("index_put", t, dims, indices, []*Tensor{values}, func(p *C.tensor_t, idx **C.tensor_t, v *C.tensor_t) error {
		return statusError(C.ct_index_put(p, C.int64_t(len(dims)), dimsPtr(dims), idx, v))
	})
}

// Nonzero is torch.nonzero(t): the coordinates of t's non-zero elements, one
// row each in C order, as an int64 [count, ndim] tensor. Column d (Select(1, d))
// indexes dim d, so a mask indexes through its columns.
func (t *Tensor) Nonzero() (*Tensor, error) {
	return t.derive("nonzero", func(p *C.tensor_t) C.ct_result { return C.ct_nonzero(p) })
}

// withIndices runs call with t, the index tensors and the values (none or one)
// held open; StatusInvalid when dims and indices differ in length.
func withIndices(op string, t *Tensor, dims []int64, indices []*Tensor, values []*Tensor,
	call func(p *C.tensor_t, idx **C.tensor_t, v *C.tensor_t) error) error {
	all := append(append([]*Tensor{t}, indices...), values...)
	return withAll(op, all, func(p []*C.tensor_t) error {
		if len(dims) != len(indices) {
			return errorf(StatusInvalid, "%s: %d dims for %d index tensors", op, len(dims), len(indices))
		}
		var v *C.tensor_t
		if len(values) > 0 {
			v = p[len(p)-1]
		}
		// The slice holds C pointers only, so cgo lets C read it in place.
		return call(p[0], (**C.tensor_t)(unsafe.Pointer(unsafe.SliceData(p[1:1+len(indices)]))), v)
	})
}
