//go:build ctensor_experimental

package ctensor_test

import (
	"math"
	"slices"
	"testing"

	"ctensor"
)

// The strides of torch.empty_like(x) and x.clone() in PyTorch 1.13.
func TestLikeTensorsKeepPyTorchLayouts(t *testing.T) {
	data := make([]float32, 24)
	for i := range data {
		data[i] = float32(i)
	}
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice(data, 2, 3, 4))
	defer x.Close()
	cases := []struct {
		view    *ctensor.Tensor
		strides []int64
	}{
		{x, []int64{12, 4, 1}},
		{must[*ctensor.Tensor](t)(x.Permute(2, 0, 1)), []int64{1, 12, 4}},                                   // dense: kept
		{must[*ctensor.Tensor](t)(x.Slice(2, ctensor.SliceEnd, ctensor.SliceStart, -1)), []int64{12, 4, 1}}, // by magnitude
		{must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(x.Transpose(0, 2)).Slice(0, 0, ctensor.SliceEnd, 2)),
			[]int64{1, 2, 6}}, // its dims' order
	}
	for _, c := range cases {
		empty := must[*ctensor.Tensor](t)(c.view.EmptyLike(ctensor.Float64, ctensor.PreserveFormat))
		if !slices.Equal(empty.Strides(), c.strides) || !slices.Equal(empty.Sizes(), c.view.Sizes()) {
			t.Errorf("empty_like of %v: %v", c.view, empty)
		}
		zeros := must[*ctensor.Tensor](t)(c.view.ZerosLike(ctensor.Int32, ctensor.ContiguousFormat))
		if !zeros.IsContiguous() || slices.ContainsFunc(must[[]int32](t)(zeros.Int32s()), func(v int32) bool { return v != 0 }) {
			t.Errorf("zeros_like: %v", zeros)
		}
		clone := must[*ctensor.Tensor](t)(c.view.ToWith(ctensor.Float32, ctensor.CopyAlways, ctensor.PreserveFormat,
			ctensor.ConvertLibrary))
		if !slices.Equal(clone.Strides(), c.strides) {
			t.Errorf("clone of %v: %v", c.view, clone)
		}
		want := must[*ctensor.Tensor](t)(c.view.Contiguous())
		got := must[*ctensor.Tensor](t)(clone.Contiguous())
		if !slices.Equal(must[[]float32](t)(got.Float32s()), must[[]float32](t)(want.Float32s())) {
			t.Errorf("clone's values: %v", got)
		}
		for _, h := range []*ctensor.Tensor{empty, zeros, clone, want, got} {
			h.Close()
		}
		if c.view != x {
			c.view.Close()
		}
	}
	_, err := x.EmptyLike(ctensor.Float32, ctensor.MemoryFormat(2))
	wantError(t, err, ctensor.StatusInvalid, "memory format")
	shared := must[*ctensor.Tensor](t)(x.ToWith(ctensor.Float32, ctensor.CopyIfNeeded, ctensor.ContiguousFormat,
		ctensor.ConvertTorchX86))
	defer shared.Close()
	if x.Refcount() != 2 {
		t.Errorf("ToWith with the same dtype should share the handle: refcount %d", x.Refcount())
	}
	_, err = x.ToWith(ctensor.Int8, ctensor.CopyNever, ctensor.PreserveFormat, ctensor.ConvertLibrary)
	wantError(t, err, ctensor.StatusCopy, "")
}

func TestTorchX86Conversion(t *testing.T) {
	src := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float64{-3.7, 300, math.NaN(), 1e10, 128}))
	defer src.Close()
	u8 := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Uint8, 5))
	defer u8.Close()
	if err := u8.CopyFromWith(src, ctensor.ConvertTorchX86); err != nil {
		t.Fatal(err)
	}
	if got := must[[]uint8](t)(u8.Uint8s()); !slices.Equal(got, []uint8{253, 44, 0, 0, 128}) {
		t.Errorf("torch float64 -> uint8: %v", got)
	}
	if err := u8.CopyFromWith(src, ctensor.ConvertLibrary); err != nil {
		t.Fatal(err)
	}
	if got := must[[]uint8](t)(u8.Uint8s()); !slices.Equal(got, []uint8{0, 255, 0, 255, 128}) {
		t.Errorf("library float64 -> uint8: %v", got)
	}
	i32 := must[*ctensor.Tensor](t)(src.ToWith(ctensor.Int32, ctensor.CopyAlways, ctensor.PreserveFormat,
		ctensor.ConvertTorchX86))
	defer i32.Close()
	if got := must[[]int32](t)(i32.Int32s()); !slices.Equal(got, []int32{-3, 300, math.MinInt32, math.MinInt32, 128}) {
		t.Errorf("torch float64 -> int32: %v", got)
	}
	wantError(t, u8.CopyFromWith(src, ctensor.Conversion(2)), ctensor.StatusInvalid, "conversion")
}
