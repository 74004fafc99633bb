package ctensor_test

import (
	"slices"
	"testing"

	"ctensor"
)

// chain applies views in turn, closing the intermediate tensors.
func chain(t *testing.T, x *ctensor.Tensor, steps ...func(*ctensor.Tensor) (*ctensor.Tensor, error)) *ctensor.Tensor {
	t.Helper()
	x = must[*ctensor.Tensor](t)(x.View(x.Sizes()...)) // a new handle, so that closing is uniform
	for _, step := range steps {
		next := must[*ctensor.Tensor](t)(step(x))
		x.Close()
		x = next
	}
	return x
}

func sameLayout(t *testing.T, got, want *ctensor.Tensor) {
	t.Helper()
	if !slices.Equal(got.Sizes(), want.Sizes()) || !slices.Equal(got.Strides(), want.Strides()) ||
		got.StorageOffset() != want.StorageOffset() {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestIndexEqualsItsChain(t *testing.T) {
	x := arange(t, 2, 3, 4)
	defer x.Close()
	// x[1, ..., ::-2, None]
	got := must[*ctensor.Tensor](t)(x.Index(ctensor.IndexInt(1), ctensor.Ellipsis,
		ctensor.IndexSlice(ctensor.SliceEnd, ctensor.SliceStart, -2), ctensor.NewAxis))
	defer got.Close()
	want := chain(t, x,
		func(v *ctensor.Tensor) (*ctensor.Tensor, error) { return v.Select(0, 1) },
		func(v *ctensor.Tensor) (*ctensor.Tensor, error) {
			return v.Slice(1, ctensor.SliceEnd, ctensor.SliceStart, -2)
		},
		func(v *ctensor.Tensor) (*ctensor.Tensor, error) { return v.Unsqueeze(2) })
	defer want.Close()
	sameLayout(t, got, want)
	if !slices.Equal(got.Sizes(), []int64{3, 2, 1}) || !slices.Equal(valuesOf(t, got), []int64{15, 13, 19, 17, 23, 21}) {
		t.Errorf("x[1, ..., ::-2, None] is %v holding %v", got, valuesOf(t, got))
	}

	// x[-1, False, 1:3] and x[True] and x[] (a new view)
	empty := must[*ctensor.Tensor](t)(x.Index(ctensor.IndexInt(-1), ctensor.IndexBool(false), ctensor.IndexSlice(1, 3, 1)))
	defer empty.Close()
	if !slices.Equal(empty.Sizes(), []int64{0, 2, 4}) {
		t.Errorf("x[-1, False, 1:3] sizes %v", empty.Sizes())
	}
	one := must[*ctensor.Tensor](t)(x.Index(ctensor.IndexBool(true)))
	defer one.Close()
	if !slices.Equal(one.Sizes(), []int64{1, 2, 3, 4}) {
		t.Errorf("x[True] sizes %v", one.Sizes())
	}
	same := must[*ctensor.Tensor](t)(x.Index())
	defer same.Close()
	sameLayout(t, same, x)

	_, err := x.Index(ctensor.IndexInt(0), ctensor.IndexInt(3))
	wantError(t, err, ctensor.StatusBounds, "")
	_, err = x.Index(ctensor.IndexInt(0), ctensor.IndexInt(0), ctensor.IndexInt(0), ctensor.IndexInt(0))
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = x.Index(ctensor.IndexSlice(0, 1, 0))
	wantError(t, err, ctensor.StatusInvalid, "")
	x.Close()
	_, err = x.Index(ctensor.NewAxis)
	wantError(t, err, ctensor.StatusInvalid, "index: the handle is closed")
}

func TestDTypeKinds(t *testing.T) {
	for dt, want := range map[ctensor.DType]struct {
		kind   ctensor.Kind
		signed bool
	}{ctensor.Bool: {ctensor.KindBool, false}, ctensor.Uint16: {ctensor.KindInt, false},
		ctensor.Int8: {ctensor.KindInt, true}, ctensor.BFloat16: {ctensor.KindFloat, true},
		ctensor.Complex64: {ctensor.KindComplex, true}, ctensor.DType(8): {ctensor.KindUnknown, false}} {
		if dt.Kind() != want.kind || dt.IsSigned() != want.signed {
			t.Errorf("%v: kind %d signed %v", dt, dt.Kind(), dt.IsSigned())
		}
	}
}
