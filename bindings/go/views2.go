//go:build ctensor_experimental

package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// The view family beyond the basic views (experimental in the C API).

// Diagonal is Tensor.diagonal(offset, dim1, dim2): the diagonal of dims dim1 and
// dim2 (removed) as a new last dim; offset > 0 is above the main diagonal.
func (t *Tensor) Diagonal(offset, dim1, dim2 int64) (*Tensor, error) {
	return t.derive("diagonal", func(p *C.tensor_t) C.ct_result {
		return C.ct_diagonal(p, C.int64_t(offset), C.int64_t(dim1), C.int64_t(dim2))
	})
}

// Unfold is Tensor.unfold(dim, size, step): sliding windows of size along dim,
// walked by a new last dim.
func (t *Tensor) Unfold(dim, size, step int64) (*Tensor, error) {
	return t.derive("unfold", func(p *C.tensor_t) C.ct_result {
		return C.ct_unfold(p, C.int64_t(dim), C.int64_t(size), C.int64_t(step))
	})
}

// MoveDim is torch.movedim: dims source[i] move to destination[i]; the others
// keep their order. source and destination must have the same length.
func (t *Tensor) MoveDim(source, destination []int64) (*Tensor, error) {
	if len(source) != len(destination) {
		return nil, errorf(StatusInvalid, "movedim: %d source dims but %d destination dims", len(source),
			len(destination))
	}
	return t.derive("movedim", func(p *C.tensor_t) C.ct_result {
		return C.ct_movedim(p, C.int64_t(len(source)), dimsPtr(source), dimsPtr(destination))
	})
}

// Unflatten is Tensor.unflatten(dim, sizes): dim split into sizes (one may be -1).
func (t *Tensor) Unflatten(dim int64, sizes ...int64) (*Tensor, error) {
	return t.derive("unflatten", func(p *C.tensor_t) C.ct_result {
		return C.ct_unflatten(p, C.int64_t(dim), C.int64_t(len(sizes)), dimsPtr(sizes))
	})
}

// AtLeast is torch.atleast_1d/2d/3d for minDims 1, 2 or 3.
func (t *Tensor) AtLeast(minDims int64) (*Tensor, error) {
	return t.derive("atleast", func(p *C.tensor_t) C.ct_result { return C.ct_atleast(p, C.int64_t(minDims)) })
}

// Split is torch.split(t, splitSize, dim): pieces of splitSize, the last shorter.
func (t *Tensor) Split(splitSize, dim int64) ([]*Tensor, error) {
	return t.pieces("split", func(p *C.tensor_t) C.ct_pieces {
		return C.ct_split(p, C.int64_t(splitSize), C.int64_t(dim))
	})
}

// SplitWithSizes is torch.split(t, sizes, dim): pieces of sizes[i], which must
// sum to the dim's size.
func (t *Tensor) SplitWithSizes(sizes []int64, dim int64) ([]*Tensor, error) {
	return t.pieces("split_with_sizes", func(p *C.tensor_t) C.ct_pieces {
		return C.ct_split_with_sizes(p, C.int64_t(len(sizes)), dimsPtr(sizes), C.int64_t(dim))
	})
}

// Chunk is torch.chunk: pieces of ceil(size / chunks), so possibly fewer than chunks.
func (t *Tensor) Chunk(chunks, dim int64) ([]*Tensor, error) {
	return t.pieces("chunk", func(p *C.tensor_t) C.ct_pieces {
		return C.ct_chunk(p, C.int64_t(chunks), C.int64_t(dim))
	})
}

// TensorSplit is torch.tensor_split(t, sections, dim): exactly sections pieces.
func (t *Tensor) TensorSplit(sections, dim int64) ([]*Tensor, error) {
	return t.pieces("tensor_split", func(p *C.tensor_t) C.ct_pieces {
		return C.ct_tensor_split(p, C.int64_t(sections), C.int64_t(dim))
	})
}

// TensorSplitIndices is torch.tensor_split(t, indices, dim): len(indices)+1
// pieces cut at the indices.
func (t *Tensor) TensorSplitIndices(indices []int64, dim int64) ([]*Tensor, error) {
	return t.pieces("tensor_split_indices", func(p *C.tensor_t) C.ct_pieces {
		return C.ct_tensor_split_indices(p, C.int64_t(len(indices)), dimsPtr(indices), C.int64_t(dim))
	})
}

// pieces runs a split with t held open and adopts each piece.
func (t *Tensor) pieces(op string, call func(p *C.tensor_t) C.ct_pieces) ([]*Tensor, error) {
	p, err := t.open(op)
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	r := call(p)
	if r.status != C.TENSOR_OK {
		return nil, takeError(C.ct_result{status: r.status, message: r.message})
	}
	defer C.free(unsafe.Pointer(r.pieces))
	handles := unsafe.Slice(r.pieces, r.count)
	out := make([]*Tensor, len(handles))
	for i, h := range handles {
		out[i] = adoptTensor(h)
	}
	return out, nil
}
