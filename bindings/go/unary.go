package ctensor

/*
#include "shim.h"
*/
import "C"

import "strconv"

// The unary family (exp, sqrt, isnan, ...; the ops and their methods are in
// unary_ops.go, generated from one table), clamp, where, argmax/argmin,
// cumsum/cumprod and softmax/log_softmax. Result dtypes follow PyTorch 1.13:
// the floating-point functions give float32 for bool and integer inputs, the
// predicates give bool, and a dtype an op refuses is StatusDType.

//go:generate go run ./internal/genunary -o unary_ops.go

// UnaryOp is an operation of Unary and UnaryInto (a TENSOR_UOP_* code).
type UnaryOp int32

// String is the op's PyTorch name ("exp", "logical_not").
func (op UnaryOp) String() string {
	if op >= 0 && int(op) < len(unaryNames) {
		return unaryNames[op]
	}
	return "UnaryOp(" + strconv.Itoa(int(op)) + ")"
}

// Unary is op(t) in a new tensor of t's shape, as op's own method
// (t.Unary(UnaryExp) is t.Exp()); an unknown op is StatusInvalid.
func (t *Tensor) Unary(op UnaryOp) (*Tensor, error) {
	return t.derive(op.String(), func(p *C.tensor_t) C.ct_result { return C.ct_unary(C.tensor_unary_op_t(op), p) })
}

// UnaryInto is t = op(a) (PyTorch's out=): t must have a's shape and a dtype
// the result casts to; t may be a itself (in place: t.UnaryInto(UnaryExp, t)).
func (t *Tensor) UnaryInto(op UnaryOp, a *Tensor) error {
	return withAll(op.String()+"_into", []*Tensor{t, a}, func(p []*C.tensor_t) error {
		return statusError(C.ct_unary_into(p[0], C.tensor_unary_op_t(op), p[1]))
	})
}

// Clamp is torch.clamp(t, min, max) (also torch.clip): min(max(t, min), max)
// element-wise. The bounds are tensors that broadcast with t, or wrapped
// numbers (ScalarInt64, ScalarFloat64) that promote as Python numbers: an int8
// tensor with an int bound stays int8. ClampMin and ClampMax take one bound.
func (t *Tensor) Clamp(min, max *Tensor) (*Tensor, error) {
	var out *Tensor
	err := withAll("clamp", []*Tensor{t, min, max}, func(p []*C.tensor_t) (err error) {
		out, err = newTensor(C.ct_clamp(p[0], p[1], p[2]))
		return err
	})
	return out, err
}

// ClampMin is torch.clamp(t, min=min), as Clamp (a NaN wrapped number is passed over, as PyTorch).
func (t *Tensor) ClampMin(min *Tensor) (*Tensor, error) {
	return t.binary("clamp", min, func(a, b *C.tensor_t) C.ct_result { return C.ct_clamp(a, b, nil) })
}

// ClampMax is torch.clamp(t, max=max), as ClampMin.
func (t *Tensor) ClampMax(max *Tensor) (*Tensor, error) {
	return t.binary("clamp", max, func(a, b *C.tensor_t) C.ct_result { return C.ct_clamp(a, nil, b) })
}

// ClampInto is t = clamp(a, min, max) with BinaryInto's out= rules; t may be a (in place).
func (t *Tensor) ClampInto(a, min, max *Tensor) error {
	return withAll("clamp_into", []*Tensor{t, a, min, max}, func(p []*C.tensor_t) error {
		return statusError(C.ct_clamp_into(p[0], p[1], p[2], p[3]))
	})
}

// ClampMinInto is t = clamp(a, min=min), as ClampInto.
func (t *Tensor) ClampMinInto(a, min *Tensor) error {
	return withAll("clamp_into", []*Tensor{t, a, min}, func(p []*C.tensor_t) error {
		return statusError(C.ct_clamp_into(p[0], p[1], p[2], nil))
	})
}

// ClampMaxInto is t = clamp(a, max=max), as ClampInto.
func (t *Tensor) ClampMaxInto(a, max *Tensor) error {
	return withAll("clamp_into", []*Tensor{t, a, max}, func(p []*C.tensor_t) error {
		return statusError(C.ct_clamp_into(p[0], p[1], nil, p[2]))
	})
}

// Where is torch.where(cond, a, b): a where cond is true, else b; the three
// broadcast, a and b promote together (either may be a wrapped number). cond
// must be bool or uint8 (else StatusDType).
func Where(cond, a, b *Tensor) (*Tensor, error) {
	var out *Tensor
	err := withAll("where", []*Tensor{cond, a, b}, func(p []*C.tensor_t) (err error) {
		out, err = newTensor(C.ct_where(p[0], p[1], p[2]))
		return err
	})
	return out, err
}

// WhereInto is t = where(cond, a, b) with BinaryInto's out= rules.
func (t *Tensor) WhereInto(cond, a, b *Tensor) error {
	return withAll("where_into", []*Tensor{t, cond, a, b}, func(p []*C.tensor_t) error {
		return statusError(C.ct_where_into(p[0], p[1], p[2], p[3]))
	})
}

// into runs a C function writing t from src (dst first), both held open.
func (t *Tensor) into(op string, src *Tensor, call func(d, s *C.tensor_t) C.ct_result) error {
	return withBoth(t, src, op, func(d, s *C.tensor_t) error { return statusError(call(d, s)) })
}

// Argmax is torch.argmax(t, dim, keepdim): the int64 index of the first
// largest element along dim, or with dim AllDims of the flattened tensor (a
// 0-dim result, or every dim of size 1 with keepdim). NaN counts as the
// largest; an empty search is StatusShape, bool and complex StatusDType.
func (t *Tensor) Argmax(dim int64, keepdim bool) (*Tensor, error) {
	return t.derive("argmax", func(p *C.tensor_t) C.ct_result {
		return C.ct_argmax(p, C.int64_t(dim), keep(keepdim))
	})
}

// Argmin is torch.argmin, as Argmax (NaN counts as the smallest).
func (t *Tensor) Argmin(dim int64, keepdim bool) (*Tensor, error) {
	return t.derive("argmin", func(p *C.tensor_t) C.ct_result {
		return C.ct_argmin(p, C.int64_t(dim), keep(keepdim))
	})
}

// ArgmaxInto is t = argmax(src, dim, keepdim): t is int64 of the result's shape.
func (t *Tensor) ArgmaxInto(src *Tensor, dim int64, keepdim bool) error {
	return t.into("argmax_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_argmax_into(d, s, C.int64_t(dim), keep(keepdim))
	})
}

// ArgminInto is t = argmin(src, dim, keepdim), as ArgmaxInto.
func (t *Tensor) ArgminInto(src *Tensor, dim int64, keepdim bool) error {
	return t.into("argmin_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_argmin_into(d, s, C.int64_t(dim), keep(keepdim))
	})
}

// Cumsum is torch.cumsum(t, dim): the running sum along dim; bool and integers
// give int64 (convert first for another dtype).
func (t *Tensor) Cumsum(dim int64) (*Tensor, error) {
	return t.derive("cumsum", func(p *C.tensor_t) C.ct_result { return C.ct_cumsum(p, C.int64_t(dim)) })
}

// Cumprod is torch.cumprod(t, dim), as Cumsum.
func (t *Tensor) Cumprod(dim int64) (*Tensor, error) {
	return t.derive("cumprod", func(p *C.tensor_t) C.ct_result { return C.ct_cumprod(p, C.int64_t(dim)) })
}

// Softmax is torch.softmax(t, dim) in t's dtype (floating dtypes only, else
// StatusDType); the max is subtracted first, so large inputs do not overflow.
func (t *Tensor) Softmax(dim int64) (*Tensor, error) {
	return t.derive("softmax", func(p *C.tensor_t) C.ct_result { return C.ct_softmax(p, C.int64_t(dim)) })
}

// LogSoftmax is torch.log_softmax(t, dim), as Softmax.
func (t *Tensor) LogSoftmax(dim int64) (*Tensor, error) {
	return t.derive("log_softmax", func(p *C.tensor_t) C.ct_result { return C.ct_log_softmax(p, C.int64_t(dim)) })
}

// CumsumInto is t = cumsum(src, dim) (the result dtype must cast to t's).
func (t *Tensor) CumsumInto(src *Tensor, dim int64) error {
	return t.into("cumsum_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_cumsum_into(d, s, C.int64_t(dim))
	})
}

// CumprodInto is t = cumprod(src, dim), as CumsumInto.
func (t *Tensor) CumprodInto(src *Tensor, dim int64) error {
	return t.into("cumprod_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_cumprod_into(d, s, C.int64_t(dim))
	})
}

// SoftmaxInto is t = softmax(src, dim): t has src's shape and dtype.
func (t *Tensor) SoftmaxInto(src *Tensor, dim int64) error {
	return t.into("softmax_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_softmax_into(d, s, C.int64_t(dim))
	})
}

// LogSoftmaxInto is t = log_softmax(src, dim), as SoftmaxInto.
func (t *Tensor) LogSoftmaxInto(src *Tensor, dim int64) error {
	return t.into("log_softmax_into", src, func(d, s *C.tensor_t) C.ct_result {
		return C.ct_log_softmax_into(d, s, C.int64_t(dim))
	})
}
