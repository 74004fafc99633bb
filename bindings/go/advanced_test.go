//go:build ctensor_experimental

package ctensor_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ctensor"
)

func int64s(t *testing.T, v []int64, sizes ...int64) *ctensor.Tensor {
	return must[*ctensor.Tensor](t)(ctensor.FromSlice(v, sizes...))
}

// TestIndexGatherMatchesPyTorch: sizes and values of gathers over
// torch.arange(60).reshape(3, 4, 5) with index tensors on adjacent and separated
// dims, broadcast index shapes, int32 and strided index tensors, and a mask
// through Nonzero's columns.
func TestIndexGatherMatchesPyTorch(t *testing.T) {
	x := arange(t, 3, 4, 5)
	defer x.Close()
	rows, cols := int64s(t, []int64{1, 0}, 2, 1), must[*ctensor.Tensor](t)(ctensor.FromSlice([]int32{4, -5, 2}, 3))
	strided := must[*ctensor.Tensor](t)(int64s(t, []int64{0, 9, 3, 9, 1, 9}, 6).Slice(0, 0, 6, 2)) // [0, 3, 1]
	mask := must[*ctensor.Tensor](t)(ctensor.FromSlice([]bool{true, false, true, true, false, false, true, false, false, true, false, true}, 3, 4))
	nz := must[*ctensor.Tensor](t)(mask.Nonzero())
	m0, m1 := must[*ctensor.Tensor](t)(nz.Select(1, 0)), must[*ctensor.Tensor](t)(nz.Select(1, 1))
	gather := func(dims []int64, idx ...*ctensor.Tensor) *ctensor.Tensor {
		return must[*ctensor.Tensor](t)(x.IndexGather(dims, idx...))
	}
	cases := []struct {
		expr string
		got  *ctensor.Tensor
	}{
		{"t[L(1, 0)]", gather([]int64{0}, int64s(t, []int64{1, 0}, 2))},
		{"t[:, :, L(0, 3, 1)]", gather([]int64{-1}, strided)},
		{"t[:, L([1], [0]), L(4, -5, 2)]", gather([]int64{1, 2}, rows, cols)},
		{"t[L([1], [0]), :, L(4, -5, 2)]", gather([]int64{0, 2}, rows, cols)},
		{"t[torch.tensor([[1, 0, 1, 1], [0, 0, 1, 0], [0, 1, 0, 1]], dtype=torch.bool)]", gather([]int64{0, 1}, m0, m1)},
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = strconv.Quote(c.expr)
	}
	out := python(t, `import torch
t = torch.arange(60).reshape(3, 4, 5)
L = lambda *v: torch.tensor(v)
for e in [`+strings.Join(exprs, ", ")+`]:
    r = eval(e)
    print(" ".join(map(str, r.shape)), " ".join(map(str, r.reshape(-1).tolist())), sep=";")`)
	lines := strings.Split(out, "\n")
	for i, c := range cases {
		got := strings.Trim(fmt.Sprint(c.got.Sizes()), "[]") + ";" + strings.Trim(fmt.Sprint(values[int64](t, c.got)), "[]")
		if got != lines[i] {
			t.Errorf("%s: ctensor %s, PyTorch %s", c.expr, got, lines[i])
		}
	}
}

func TestIndexPutLastWriteWinsAndConverts(t *testing.T) {
	x := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 5))
	at := int64s(t, []int64{1, 3, 1}, 3)
	v := must[*ctensor.Tensor](t)(ctensor.FromSlice([]int32{7, 8, 9}, 3))
	if err := x.IndexPut([]int64{0}, []*ctensor.Tensor{at}, v); err != nil {
		t.Fatal(err)
	}
	if got := values[float32](t, x); !slices.Equal(got, []float32{0, 9, 0, 8, 0}) {
		t.Errorf("got %v, want [0 9 0 8 0]", got)
	}
	// a bad index anywhere: nothing written
	bad := int64s(t, []int64{0, 5, 1}, 3)
	wantError(t, x.IndexPut([]int64{0}, []*ctensor.Tensor{bad}, v), ctensor.StatusBounds,
		"index 5 is out of bounds for dimension 0 with size 5")
	if got := values[float32](t, x); !slices.Equal(got, []float32{0, 9, 0, 8, 0}) {
		t.Errorf("after a refused put: %v", got)
	}
}

func TestIndexRefusals(t *testing.T) {
	x := arange(t, 3, 4)
	defer x.Close()
	a, b := int64s(t, []int64{0, 1}, 2), int64s(t, []int64{0, 1, 2}, 3)
	_, err := x.IndexGather([]int64{0, 1}, a, b)
	wantError(t, err, ctensor.StatusShape, "index_gather")
	_, err = x.IndexGather([]int64{0}, a, a)
	wantError(t, err, ctensor.StatusInvalid, "2 index tensors")
	_, err = x.IndexGather(nil)
	wantError(t, err, ctensor.StatusInvalid, "index_gather")
	_, err = x.IndexGather([]int64{1, 0}, a, a)
	wantError(t, err, ctensor.StatusInvalid, "ascending")
	mask := must[*ctensor.Tensor](t)(ctensor.FromSlice([]bool{true, false, true}, 3))
	_, err = x.IndexGather([]int64{0}, mask)
	wantError(t, err, ctensor.StatusDType, "nonzero")
	one := must[*ctensor.Tensor](t)(ctensor.ScalarInt64(1))
	expanded := must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int64, 1, 4)).Expand(3, 4))
	wantError(t, expanded.IndexPut([]int64{0}, []*ctensor.Tensor{a}, one), ctensor.StatusOverlap, "overlap")
	closed := int64s(t, []int64{0}, 1)
	closed.Close()
	_, err = x.IndexGather([]int64{0}, closed)
	wantError(t, err, ctensor.StatusInvalid, "closed")
}
