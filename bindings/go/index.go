package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// IndexItem is one item of basic indexing for Tensor.Index: made by
// IndexInt, IndexSlice, IndexBool, NewAxis or Ellipsis.
type IndexItem struct {
	kind   int32
	values [3]int64
}

// IndexInt is an integer index (negative counts from the end); it removes the dim.
func IndexInt(i int64) IndexItem { return IndexItem{kind: C.TENSOR_INDEX_INT, values: [3]int64{i}} }

// IndexSlice is start:stop:step, as Tensor.Slice (SliceEnd and SliceStart for open ends).
func IndexSlice(start, stop, step int64) IndexItem {
	return IndexItem{kind: C.TENSOR_INDEX_SLICE, values: [3]int64{start, stop, step}}
}

// IndexBool is a bool index: a new dim of size 1 (true) or 0 (false).
func IndexBool(b bool) IndexItem {
	v := int64(0)
	if b {
		v = 1
	}
	return IndexItem{kind: C.TENSOR_INDEX_BOOL, values: [3]int64{v}}
}

var (
	// NewAxis is None / np.newaxis: a new dim of size 1.
	NewAxis = IndexItem{kind: C.TENSOR_INDEX_NEWAXIS}
	// Ellipsis is `...`: the dims no integer or slice names.
	Ellipsis = IndexItem{kind: C.TENSOR_INDEX_ELLIPSIS}
)

// Index is t[items...] with NumPy/PyTorch basic indexing, as one new view:
// the same sizes, strides, offset and errors as the chain of Select, Slice and
// Unsqueeze it stands for. t.Index(IndexInt(1), Ellipsis, IndexSlice(SliceEnd,
// SliceStart, -1)) is t[1, ..., ::-1].
func (t *Tensor) Index(items ...IndexItem) (*Tensor, error) {
	kinds := make([]int32, len(items))
	values := make([]int64, 3*len(items))
	for i, item := range items {
		kinds[i] = item.kind
		copy(values[3*i:], item.values[:])
	}
	return t.derive("index", func(p *C.tensor_t) C.ct_result {
		return C.ct_index(p, C.int64_t(len(items)), (*C.int32_t)(unsafe.Pointer(unsafe.SliceData(kinds))),
			dimsPtr(values))
	})
}
