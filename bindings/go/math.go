package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// Math (docs/math.md): element-wise operations with PyTorch's type promotion,
// reductions, Cat/Stack and whole-tensor comparisons. Each result is a new,
// writable tensor; shape, dtype and device mismatches are errors.

// BinaryOp is an operation of BinaryInto.
type BinaryOp int32

// The operations of BinaryInto.
const (
	OpAdd     BinaryOp = C.TENSOR_OP_ADD
	OpSub     BinaryOp = C.TENSOR_OP_SUB
	OpMul     BinaryOp = C.TENSOR_OP_MUL
	OpDiv     BinaryOp = C.TENSOR_OP_DIV
	OpPow     BinaryOp = C.TENSOR_OP_POW
	OpMaximum BinaryOp = C.TENSOR_OP_MAXIMUM
	OpMinimum BinaryOp = C.TENSOR_OP_MINIMUM
	OpEq      BinaryOp = C.TENSOR_OP_EQ
	OpNe      BinaryOp = C.TENSOR_OP_NE
	OpLt      BinaryOp = C.TENSOR_OP_LT
	OpLe      BinaryOp = C.TENSOR_OP_LE
	OpGt      BinaryOp = C.TENSOR_OP_GT
	OpGe      BinaryOp = C.TENSOR_OP_GE
)

// ScalarBool is a wrapped number: a 0-dim tensor that promotes as a Python bool
// does in PyTorch.
func ScalarBool(value bool) (*Tensor, error) {
	v := C.int32_t(0)
	if value {
		v = 1
	}
	return newTensor(C.ct_scalar_bool(v))
}

// ScalarInt64 is a wrapped number that promotes as a Python int: an int8 tensor
// plus ScalarInt64(1) stays int8.
func ScalarInt64(value int64) (*Tensor, error) { return newTensor(C.ct_scalar_int64(C.int64_t(value))) }

// ScalarFloat64 is a wrapped number that promotes as a Python float: an int32
// tensor times ScalarFloat64(0.5) is float32.
func ScalarFloat64(value float64) (*Tensor, error) {
	return newTensor(C.ct_scalar_float64(C.double(value)))
}

// ScalarComplex128 is a wrapped number that promotes as a Python complex.
func ScalarComplex128(value complex128) (*Tensor, error) {
	return newTensor(C.ct_scalar_complex128(C.double(real(value)), C.double(imag(value))))
}

// binary runs a C function of two tensors that makes a new one.
func (t *Tensor) binary(op string, other *Tensor, call func(a, b *C.tensor_t) C.ct_result) (*Tensor, error) {
	var out *Tensor
	err := withBoth(t, other, op, func(a, b *C.tensor_t) (err error) {
		out, err = newTensor(call(a, b))
		return err
	})
	return out, err
}

// Add is t + other: broadcast (StatusShape when the shapes do not), promoted
// as PyTorch does (StatusDType without a result type); integers wrap.
func (t *Tensor) Add(other *Tensor) (*Tensor, error) {
	return t.binary("add", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_add(a, b) })
}

// Sub is t - other, as Add; bool operands are StatusDType.
func (t *Tensor) Sub(other *Tensor) (*Tensor, error) {
	return t.binary("sub", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_sub(a, b) })
}

// Mul is t * other, as Add.
func (t *Tensor) Mul(other *Tensor) (*Tensor, error) {
	return t.binary("mul", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_mul(a, b) })
}

// Div is true division, as Add; integers divide in float32.
func (t *Tensor) Div(other *Tensor) (*Tensor, error) {
	return t.binary("div", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_div(a, b) })
}

// Pow is t ** other, as Add.
func (t *Tensor) Pow(other *Tensor) (*Tensor, error) {
	return t.binary("pow", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_pow(a, b) })
}

// Maximum is torch.maximum (NaN wins).
func (t *Tensor) Maximum(other *Tensor) (*Tensor, error) {
	return t.binary("maximum", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_maximum(a, b) })
}

// Minimum is torch.minimum (NaN wins).
func (t *Tensor) Minimum(other *Tensor) (*Tensor, error) {
	return t.binary("minimum", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_minimum(a, b) })
}

// Eq is t == other element-wise: a bool tensor.
func (t *Tensor) Eq(other *Tensor) (*Tensor, error) {
	return t.binary("eq", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_eq(a, b) })
}

// Ne is t != other element-wise.
func (t *Tensor) Ne(other *Tensor) (*Tensor, error) {
	return t.binary("ne", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_ne(a, b) })
}

// Lt is t < other element-wise.
func (t *Tensor) Lt(other *Tensor) (*Tensor, error) {
	return t.binary("lt", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_lt(a, b) })
}

// Le is t <= other element-wise.
func (t *Tensor) Le(other *Tensor) (*Tensor, error) {
	return t.binary("le", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_le(a, b) })
}

// Gt is t > other element-wise.
func (t *Tensor) Gt(other *Tensor) (*Tensor, error) {
	return t.binary("gt", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_gt(a, b) })
}

// Ge is t >= other element-wise.
func (t *Tensor) Ge(other *Tensor) (*Tensor, error) {
	return t.binary("ge", other, func(a, b *C.tensor_t) C.ct_result { return C.ct_ge(a, b) })
}

// BinaryInto is t = op(a, b) (PyTorch's out=): t must have the broadcast shape
// and a dtype the result casts to; t may be a or b (in place: t.BinaryInto(OpAdd, t, b)).
func (t *Tensor) BinaryInto(op BinaryOp, a, b *Tensor) error {
	return withAll("binary_into", []*Tensor{t, a, b}, func(p []*C.tensor_t) error {
		return statusError(C.ct_binary_into(p[0], C.tensor_op_t(op), p[1], p[2]))
	})
}

// Neg is -t (integers wrap; bool is StatusDType).
func (t *Tensor) Neg() (*Tensor, error) {
	return t.derive("neg", func(p *C.tensor_t) C.ct_result { return C.ct_neg(p) })
}

// Abs is |t| (complex gives its real dtype; bool is StatusDType).
func (t *Tensor) Abs() (*Tensor, error) {
	return t.derive("abs", func(p *C.tensor_t) C.ct_result { return C.ct_abs(p) })
}

func keep(keepdim bool) C.int32_t {
	if keepdim {
		return 1
	}
	return 0
}

// Sum is torch.sum(t, dims, keepdim); no dims reduces every dim. Integers and
// bool give int64; float sums are pairwise.
func (t *Tensor) Sum(dims []int64, keepdim bool) (*Tensor, error) {
	return t.derive("sum", func(p *C.tensor_t) C.ct_result {
		return C.ct_sum(p, C.int64_t(len(dims)), dimsPtr(dims), keep(keepdim))
	})
}

// Mean is torch.mean, as Sum; float and complex dtypes only (else StatusDType).
func (t *Tensor) Mean(dims []int64, keepdim bool) (*Tensor, error) {
	return t.derive("mean", func(p *C.tensor_t) C.ct_result {
		return C.ct_mean(p, C.int64_t(len(dims)), dimsPtr(dims), keep(keepdim))
	})
}

// Prod is torch.prod, as Sum.
func (t *Tensor) Prod(dims []int64, keepdim bool) (*Tensor, error) {
	return t.derive("prod", func(p *C.tensor_t) C.ct_result {
		return C.ct_prod(p, C.int64_t(len(dims)), dimsPtr(dims), keep(keepdim))
	})
}

// Amax is torch.amax, as Sum; an empty reduction is StatusShape.
func (t *Tensor) Amax(dims []int64, keepdim bool) (*Tensor, error) {
	return t.derive("amax", func(p *C.tensor_t) C.ct_result {
		return C.ct_amax(p, C.int64_t(len(dims)), dimsPtr(dims), keep(keepdim))
	})
}

// Amin is torch.amin, as Amax.
func (t *Tensor) Amin(dims []int64, keepdim bool) (*Tensor, error) {
	return t.derive("amin", func(p *C.tensor_t) C.ct_result {
		return C.ct_amin(p, C.int64_t(len(dims)), dimsPtr(dims), keep(keepdim))
	})
}

// valueError is nil for a successful ct_*_result, else its *Error.
func valueError(status C.tensor_status_t, message *C.char) error {
	return statusError(C.ct_result{status: status, message: message})
}

// ItemFloat64 is t's single element (numel 1, else StatusShape) as a float64.
func (t *Tensor) ItemFloat64() (float64, error) {
	var v float64
	err := withAll("item", []*Tensor{t}, func(p []*C.tensor_t) error {
		r := C.ct_item_float64(p[0])
		v = float64(r.value)
		return valueError(r.status, r.message)
	})
	return v, err
}

// ItemInt64 is t's single element as an int64 (floats truncate toward zero and saturate).
func (t *Tensor) ItemInt64() (int64, error) {
	var v int64
	err := withAll("item", []*Tensor{t}, func(p []*C.tensor_t) error {
		r := C.ct_item_int64(p[0])
		v = int64(r.value)
		return valueError(r.status, r.message)
	})
	return v, err
}

// ResultType is torch.result_type(t, other): the dtype binary operations compute in.
func (t *Tensor) ResultType(other *Tensor) (DType, error) {
	var d DType
	err := withBoth(t, other, "result_type", func(a, b *C.tensor_t) error {
		r := C.ct_result_type(a, b)
		d = DType(r.value)
		return valueError(r.status, r.message)
	})
	return d, err
}

// PromoteTypes is torch.promote_types(a, b): the dtype binary operations on
// tensors of dtypes a and b compute in (StatusDType for uint64 with a signed
// integer, exactly where ResultType fails).
func PromoteTypes(a, b DType) (DType, error) {
	r := C.ct_promote_types(C.tensor_dtype_t(a), C.tensor_dtype_t(b))
	return DType(r.value), valueError(r.status, r.message)
}

// Equal is torch.equal: the same sizes and every element equal (NaN never is).
func (t *Tensor) Equal(other *Tensor) (bool, error) {
	var eq bool
	err := withBoth(t, other, "equal", func(a, b *C.tensor_t) error {
		r := C.ct_equal(a, b)
		eq = r.value != 0
		return valueError(r.status, r.message)
	})
	return eq, err
}

// AllClose is torch.allclose(t, other, rtol, atol, equalNaN): the dtypes must
// match (StatusDType), the shapes broadcast.
func (t *Tensor) AllClose(other *Tensor, rtol, atol float64, equalNaN bool) (bool, error) {
	var close bool
	err := withBoth(t, other, "allclose", func(a, b *C.tensor_t) error {
		r := C.ct_allclose(a, b, C.double(rtol), C.double(atol), keep(equalNaN))
		close = r.value != 0
		return valueError(r.status, r.message)
	})
	return close, err
}

// join runs cat or stack over the tensors held open.
func join(op string, tensors []*Tensor, call func(n C.int64_t, p **C.tensor_t) C.ct_result) (*Tensor, error) {
	var out *Tensor
	err := withAll(op, tensors, func(p []*C.tensor_t) (err error) {
		// The slice holds C pointers only, so cgo lets C read it in place.
		out, err = newTensor(call(C.int64_t(len(p)), (**C.tensor_t)(unsafe.Pointer(unsafe.SliceData(p)))))
		return err
	})
	return out, err
}

// Cat is torch.cat(tensors, dim): a new contiguous tensor in the promoted dtype.
func Cat(tensors []*Tensor, dim int64) (*Tensor, error) {
	return join("cat", tensors, func(n C.int64_t, p **C.tensor_t) C.ct_result { return C.ct_cat(n, p, C.int64_t(dim)) })
}

// Stack is torch.stack(tensors, dim): tensors of one shape joined along a new dim.
func Stack(tensors []*Tensor, dim int64) (*Tensor, error) {
	return join("stack", tensors, func(n C.int64_t, p **C.tensor_t) C.ct_result {
		return C.ct_stack(n, p, C.int64_t(dim))
	})
}
