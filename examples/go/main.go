// The quickstart (examples/quickstart.c) in Go: wraps a Go slice without
// copying, takes a strided view of it (a transpose made with AsStrided),
// materialises the view with Contiguous, and shows the error of a view that
// reaches outside its storage. It prints what the C program prints. Run with:
//
//	PKG_CONFIG_PATH=... go run .
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"ctensor"
)

func printTensor(label string, t *ctensor.Tensor) {
	fmt.Printf("%s: sizes [%s] strides [%s] contiguous %d\n", label, join(t.Sizes()), join(t.Strides()),
		boolInt(t.IsContiguous()))
	if t.IsContiguous() {
		values, err := t.Float32s()
		check(err, "Float32s")
		fmt.Print("  values:")
		for _, v := range values {
			fmt.Printf(" %g", v)
		}
		fmt.Println()
	}
}

func join(dims []int64) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, ", ")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func check(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s failed: %v\n", what, err)
		os.Exit(1)
	}
}

func main() {
	// A 2x3 matrix in Go memory, row-major.
	buffer := []float32{1, 2, 3, 4, 5, 6}
	released := make(chan struct{})

	fmt.Printf("ctensor %s\n", ctensor.Version())

	// Zero-copy: the tensor shares buffer (pinned meanwhile); the function
	// runs when the last view goes.
	flat, err := ctensor.WrapFunc(buffer, func() {
		fmt.Println("release callback: caller buffer no longer used")
		close(released)
	})
	check(err, "WrapFunc")
	values, err := flat.Float32s()
	check(err, "Float32s")
	same := "no"
	if unsafe.SliceData(values) == unsafe.SliceData(buffer) {
		same = "yes"
	}
	fmt.Printf("tensor_data == buffer: %s\n", same)

	// Views are new handles onto the same storage; the input is never changed.
	matrix, err := flat.AsStrided([]int64{2, 3}, []int64{3, 1}, 0)
	check(err, "AsStrided")
	transposed, err := flat.AsStrided([]int64{3, 2}, []int64{1, 3}, 0)
	check(err, "AsStrided")
	printTensor("matrix", matrix)
	printTensor("transposed view", transposed)

	// A contiguous copy of the transpose (a contiguous input would just be retained).
	packed, err := transposed.Contiguous()
	check(err, "Contiguous")
	printTensor("contiguous copy", packed)

	// Views are bounds-checked: 2x3 elements from offset 1 need 7 floats, there are 6.
	bad, err := flat.AsStrided([]int64{2, 3}, []int64{3, 1}, 1)
	var e *ctensor.Error
	if !errors.As(err, &e) {
		fmt.Fprintln(os.Stderr, "the out-of-bounds view did not fail")
		os.Exit(1)
	}
	outcome := "set"
	if bad == nil {
		outcome = "NULL"
	}
	fmt.Printf("out-of-bounds view: %v (%s), out is %s\n", e.Status, e.Message, outcome)

	// Close order does not matter: each view holds the storage.
	flat.Close()
	matrix.Close()
	packed.Close()
	transposed.Close() // the last view of buffer: the function runs here
	<-released
	runtime.KeepAlive(buffer)
	if e.Status != ctensor.StatusBounds {
		os.Exit(1)
	}
}
