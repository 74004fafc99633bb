package ctensor_test

import (
	"reflect"
	"testing"

	"ctensor"
)

// FillInt64/FillFloat64/FillComplex128 range-check into the dtype and fill
// destinations that Fill refuses for their internal overlap.
func TestFillElementChecksAndFillsOverlap(t *testing.T) {
	base := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Uint8, 3))
	defer base.Close()
	head := must[*ctensor.Tensor](t)(base.Slice(0, 0, 1, 1))
	defer head.Close()
	expanded := must[*ctensor.Tensor](t)(head.Expand(4))
	defer expanded.Close()
	wantError(t, expanded.Fill(1), ctensor.StatusOverlap, "")
	if err := expanded.FillInt64(-1); err != nil { // wraps, as PyTorch's fill_
		t.Fatal(err)
	}
	if got := must[[]uint8](t)(ctensor.Data[uint8](base)); !reflect.DeepEqual(got, []uint8{255, 0, 0}) {
		t.Errorf("after FillInt64(-1): %v", got)
	}
	wantError(t, expanded.FillInt64(256), ctensor.StatusOverflow,
		"scalar_convert: value cannot be converted to type uint8_t without overflow")
	wantError(t, base.FillFloat64(-0.5), ctensor.StatusOverflow, "uint8_t")
	if err := base.FillFloat64(7.9); err != nil {
		t.Fatal(err)
	}
	if got := must[[]uint8](t)(ctensor.Data[uint8](base)); !reflect.DeepEqual(got, []uint8{7, 7, 7}) {
		t.Errorf("after FillFloat64(7.9): %v", got)
	}
	wantError(t, base.FillComplex128(1+2i), ctensor.StatusOverflow, "uint8_t")
	c := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Complex128, 2))
	defer c.Close()
	if err := c.FillComplex128(1 + 2i); err != nil {
		t.Fatal(err)
	}
	if got := must[[]complex128](t)(ctensor.Data[complex128](c)); !reflect.DeepEqual(got, []complex128{1 + 2i, 1 + 2i}) {
		t.Errorf("after FillComplex128: %v", got)
	}
}
