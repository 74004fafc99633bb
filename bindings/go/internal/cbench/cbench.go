// Package cbench times view creation in C and through bare cgo calls, as
// baselines for the ctensor package's benchmark of its wrappers (test files
// cannot use cgo themselves).
package cbench

/*
#cgo pkg-config: ctensor
#include <ctensor.h>

static tensor_t *cbench_matrix(void) {
  const int64_t sizes[2] = {64, 64};
  tensor_t *t = NULL;
  tensor_zeros(&t, 2, sizes, TENSOR_FLOAT32);
  return t;
}

// One transpose view made and released: what a Go Transpose+Close does in C.
static int32_t cbench_transpose_once(const tensor_t *t) {
  tensor_t *v = NULL;
  tensor_status_t s = tensor_transpose(&v, t, 0, 1);
  tensor_release(v);
  return s;
}

static int32_t cbench_transpose_loop(const tensor_t *t, int64_t n) {
  int32_t status = 0;
  for (int64_t i = 0; i < n; ++i) status |= cbench_transpose_once(t);
  return status;
}
*/
import "C"

import (
	"fmt"
	"time"
)

// Matrix is a 64x64 float32 tensor to take views of.
type Matrix struct{ t *C.tensor_t }

// NewMatrix makes one; Close releases it.
func NewMatrix() Matrix { return Matrix{C.cbench_matrix()} }

// Close releases the matrix.
func (m Matrix) Close() { C.tensor_release(m.t) }

// CLoop is the time of n transposes made and released in one C loop.
func (m Matrix) CLoop(n int) time.Duration {
	start := time.Now()
	if C.cbench_transpose_loop(m.t, C.int64_t(n)) != 0 {
		panic(fmt.Sprint("transpose failed"))
	}
	return time.Since(start)
}

// CgoEach is the time of n transposes made and released by one cgo call each.
func (m Matrix) CgoEach(n int) time.Duration {
	start := time.Now()
	for range n {
		if C.cbench_transpose_once(m.t) != 0 {
			panic("transpose failed")
		}
	}
	return time.Since(start)
}
