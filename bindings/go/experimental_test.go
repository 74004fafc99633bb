//go:build ctensor_experimental

package ctensor_test

// Tests of the experimental wrappers (go test -tags ctensor_experimental).

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"ctensor"
)

// The view chains of views_torch_test.go over experimental functions.
var experimentalChains = []viewChain{
	{[]int64{3, 4, 5}, [][]any{{"diagonal", 1, 0, 2}}},
	{[]int64{3, 4, 5}, [][]any{{"diagonal", -2, -1, 1}}},
	{[]int64{3, 4}, [][]any{{"diagonal", 5, 0, 1}}},
	{[]int64{2, 7}, [][]any{{"unfold", 1, 3, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"movedim", []int64{0, 2}, []int64{2, 0}}}},
	{[]int64{2, 3, 4}, [][]any{{"movedim", []int64{-1}, []int64{0}}}},
	{[]int64{2, 12}, [][]any{{"unflatten", 1, []int64{3, -1}}}},
	{[]int64{5}, [][]any{{"atleast", 2}}},
	{[]int64{2, 3}, [][]any{{"atleast", 3}}},
	{[]int64{7, 2}, [][]any{{"split_piece", 3, 0, 2}}},
	{[]int64{2, 7}, [][]any{{"split_with_sizes_piece", []int64{2, 5}, 1, 1}}},
	{[]int64{7, 2}, [][]any{{"chunk_piece", 3, 0, 1}}},
	{[]int64{2, 7}, [][]any{{"tensor_split_piece", 3, 1, 0}}},
	{[]int64{2, 7}, [][]any{{"tensor_split_piece", []int64{1, 5}, 1, 2}}},
	// failures: each must fail in PyTorch and in ctensor
	{[]int64{3, 4}, [][]any{{"diagonal", 0, 1, 1}}},
	{[]int64{2, 7}, [][]any{{"unfold", 1, 8, 1}}},
	{[]int64{2, 12}, [][]any{{"unflatten", 1, []int64{5, -1}}}},
	{[]int64{2, 7}, [][]any{{"split_with_sizes_piece", []int64{2, 4}, 1, 0}}},
}

func init() {
	torchChains = append(torchChains, experimentalChains...)
	experimentalOp = func(x *ctensor.Tensor, op []any) (*ctensor.Tensor, error, bool) {
		a := op[1:]
		var y *ctensor.Tensor
		var err error
		switch op[0] {
		case "diagonal":
			y, err = x.Diagonal(num(a[0]), num(a[1]), num(a[2]))
		case "unfold":
			y, err = x.Unfold(num(a[0]), num(a[1]), num(a[2]))
		case "movedim":
			y, err = x.MoveDim(ints(a[0]), ints(a[1]))
		case "unflatten":
			y, err = x.Unflatten(num(a[0]), ints(a[1])...)
		case "atleast":
			y, err = x.AtLeast(num(a[0]))
		case "split_piece", "split_with_sizes_piece", "chunk_piece", "tensor_split_piece":
			y, err = piece(x, op[0].(string), a)
		default:
			return nil, nil, false
		}
		return y, err, true
	}
}

// piece runs a split and keeps piece a[2] (closing the others).
func piece(x *ctensor.Tensor, op string, a []any) (*ctensor.Tensor, error) {
	var pieces []*ctensor.Tensor
	var err error
	switch arg, dim := a[0], num(a[1]); {
	case op == "split_piece":
		pieces, err = x.Split(num(arg), dim)
	case op == "split_with_sizes_piece":
		pieces, err = x.SplitWithSizes(ints(arg), dim)
	case op == "chunk_piece":
		pieces, err = x.Chunk(num(arg), dim)
	default:
		if sizes, ok := arg.([]int64); ok {
			pieces, err = x.TensorSplitIndices(sizes, dim)
		} else {
			pieces, err = x.TensorSplit(num(arg), dim)
		}
	}
	if err != nil {
		return nil, err
	}
	keep := int(num(a[2]))
	for i, p := range pieces {
		if i != keep {
			p.Close()
		}
	}
	if keep >= len(pieces) {
		return nil, fmt.Errorf("%s gave %d pieces", op, len(pieces))
	}
	return pieces[keep], nil
}

func TestSplitsGiveEveryPiece(t *testing.T) {
	x := arange(t, 10, 3)
	defer x.Close()
	count := func(pieces []*ctensor.Tensor, err error) []int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var sizes []int64
		for _, p := range pieces {
			sizes = append(sizes, p.Sizes()[0])
			p.Close()
		}
		return sizes
	}
	for name, c := range map[string]struct{ got, want []int64 }{
		"split 4":               {count(x.Split(4, 0)), []int64{4, 4, 2}},
		"split_with_sizes":      {count(x.SplitWithSizes([]int64{1, 0, 9}, 0)), []int64{1, 0, 9}},
		"chunk 4":               {count(x.Chunk(4, 0)), []int64{3, 3, 3, 1}},
		"tensor_split 4":        {count(x.TensorSplit(4, 0)), []int64{3, 3, 2, 2}},
		"tensor_split_indices":  {count(x.TensorSplitIndices([]int64{2, -3, 1}, 0)), []int64{2, 5, 0, 9}},
		"chunk of an empty dim": {count(must[*ctensor.Tensor](t)(x.Narrow(0, 0, 0)).Chunk(2, 0)), []int64{0, 0}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: piece sizes %v, want %v", name, c.got, c.want)
		}
	}
	_, err := x.Split(-1, 0)
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = x.SplitWithSizes([]int64{4, 4}, 0)
	wantError(t, err, ctensor.StatusShape, "")
	_, err = x.Chunk(2, 2)
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = x.MoveDim([]int64{0}, nil)
	wantError(t, err, ctensor.StatusInvalid, "1 source dims but 0 destination dims")
	_, err = x.AtLeast(4)
	wantError(t, err, ctensor.StatusInvalid, "")
	y := arange(t, 2)
	y.Close()
	_, err = y.Split(1, 0)
	wantError(t, err, ctensor.StatusInvalid, "split: the handle is closed")
}

func TestConjugates(t *testing.T) {
	z := must[*ctensor.Tensor](t)(ctensor.FromSlice([]complex64{1 + 2i, -3 - 4i}, 2))
	phys := must[*ctensor.Tensor](t)(z.ConjPhysical())
	if got := must[[]complex64](t)(phys.Complex64s()); fmt.Sprint(got) != "[(1-2i) (-3+4i)]" {
		t.Errorf("conj_physical gave %v", got)
	}
	if phys.IsReadOnly() {
		t.Error("conj_physical's result is read-only")
	}
	lazy := must[*ctensor.Tensor](t)(z.Conj())
	if got := must[[]complex64](t)(ctensor.DataReadOnly[complex64](lazy)); fmt.Sprint(got) != "[(1-2i) (-3+4i)]" {
		t.Errorf("conj gave %v", got)
	}
	wantError(t, lazy.Fill(0), ctensor.StatusReadOnly, "read-only")
	a, _, _, _ := mathInputs(t)
	same := must[*ctensor.Tensor](t)(a.Conj())
	if a.Refcount() != 2 || same.Refcount() != 2 || same.IsReadOnly() {
		t.Errorf("conj of a real tensor is not the tensor itself (refcounts %d, %d)", a.Refcount(), same.Refcount())
	}
}

func TestConvertSlices(t *testing.T) {
	src := []float64{1.9, -1.9, 300, math.NaN(), math.Inf(-1), 0}
	i8 := make([]int8, len(src))
	if err := ctensor.Convert(i8, src); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(i8, []int8{1, -1, 127, 0, -128, 0}) {
		t.Errorf("float64 -> int8: %v", i8)
	}
	b := make([]bool, len(src))
	if err := ctensor.Convert(b, src); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b, []bool{true, true, true, true, true, false}) {
		t.Errorf("float64 -> bool: %v", b)
	}
	h := make([]ctensor.Float16Bits, 2)
	if err := ctensor.Convert(h, []float32{1, -2}); err != nil || !slices.Equal(h, []ctensor.Float16Bits{0x3c00, 0xc000}) {
		t.Errorf("float32 -> float16: %#x, %v", h, err)
	}
	wantError(t, ctensor.Convert(make([]int32, 1), src), ctensor.StatusShape, "1 destination elements for 6")
	buf := []int32{1, 2, 3}
	wantError(t, ctensor.Convert(buf, buf), ctensor.StatusOverlap, "")
}
