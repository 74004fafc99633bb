package ctensor_test

import (
	"errors"
	"fmt"

	"ctensor"
)

func ExampleWrap() {
	buf := []float32{1, 2, 3, 4, 5, 6}
	flat, err := ctensor.Wrap(buf, 2, 3) // shares buf
	if err != nil {
		panic(err)
	}
	defer flat.Close()
	t, _ := flat.Transpose(0, 1)
	defer t.Close()
	c, _ := t.Contiguous()
	defer c.Close()
	values, _ := c.Float32s()
	fmt.Println(t.Sizes(), t.Strides(), values)
	// Output: [3 2] [1 3] [1 4 2 5 3 6]
}

func ExampleTensor_Slice() {
	x, _ := ctensor.FromSlice([]int64{0, 1, 2, 3, 4, 5})
	defer x.Close()
	reversed, _ := x.Slice(0, ctensor.SliceEnd, ctensor.SliceStart, -2) // x[::-2]
	defer reversed.Close()
	c, _ := reversed.Contiguous()
	defer c.Close()
	values, _ := c.Int64s()
	fmt.Println(reversed.Strides(), reversed.StorageOffset(), values)
	// Output: [-2] 5 [5 3 1]
}

func ExampleError() {
	x, _ := ctensor.Zeros(ctensor.Float32, 2, 3)
	defer x.Close()
	_, err := x.View(4, -1)
	var e *ctensor.Error
	if errors.As(err, &e) {
		fmt.Println(e.Status, errors.Is(err, ctensor.StatusShape))
		fmt.Println(e.Message)
	}
	// Output:
	// TENSOR_E_SHAPE true
	// view: shape [4, -1] is invalid for input of size 6
}
