package ctensor_test

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"ctensor"
)

// TestUnaryMatchesPyTorch runs every op of the family (by code, through Unary)
// and clamp, where, argmax/argmin, cumsum/cumprod and softmax on the math
// inputs, against PyTorch 1.13.
func TestUnaryMatchesPyTorch(t *testing.T) {
	a, b, i8, bo := mathInputs(t)
	var cases []mathCase
	for op := ctensor.UnaryNeg; op <= ctensor.UnaryBitwiseNot; op++ {
		fn := "torch." + op.String()
		if op == ctensor.UnaryGelu {
			fn = "torch.nn.functional.gelu"
		}
		for _, in := range []struct {
			name string
			x    *ctensor.Tensor
		}{{"a", a}, {"b", b}, {"i8", i8}, {"bo", bo}} {
			got, err := in.x.Unary(op)
			cases = append(cases, mathCase{fn + "(" + in.name + ")", got, err})
		}
	}
	c := func(expr string) func(*ctensor.Tensor, error) mathCase {
		return func(got *ctensor.Tensor, err error) mathCase { return mathCase{expr, got, err} }
	}
	scalar := func(v float64) *ctensor.Tensor { return must[*ctensor.Tensor](t)(ctensor.ScalarFloat64(v)) }
	one := must[*ctensor.Tensor](t)(ctensor.ScalarInt64(1))
	minus1 := must[*ctensor.Tensor](t)(ctensor.ScalarInt64(-1))
	positive := must[*ctensor.Tensor](t)(a.Gt(must[*ctensor.Tensor](t)(ctensor.ScalarInt64(0))))
	cases = append(cases,
		c("torch.clamp(a, -1, 1)")(a.Clamp(minus1, one)),
		c("torch.clamp(i8, min=110)")(i8.ClampMin(must[*ctensor.Tensor](t)(ctensor.ScalarInt64(110)))),
		c("torch.clamp(i8, max=110.5)")(i8.ClampMax(scalar(110.5))),
		c("torch.clamp(a, b, b)")(a.Clamp(b, b)),
		c("torch.clamp(bo, bo, bo)")(bo.Clamp(bo, bo)),
		c("torch.where(a > 0, a, b)")(ctensor.Where(positive, a, b)),
		c("torch.where(bo, i8, 2.5)")(ctensor.Where(bo, i8, scalar(2.5))),
		c("torch.where(a, a, b)")(ctensor.Where(a, a, b)),
		c("torch.argmax(a)")(a.Argmax(ctensor.AllDims, false)),
		c("torch.argmax(a, 1)")(a.Argmax(1, false)),
		c("torch.argmin(a, 0, keepdim=True)")(a.Argmin(0, true)),
		c("torch.argmin(a, keepdim=True)")(a.Argmin(ctensor.AllDims, true)),
		c("torch.argmax(bo)")(bo.Argmax(ctensor.AllDims, false)),
		c("torch.argmax(a, 2)")(a.Argmax(2, false)),
		c("torch.cumsum(a, 1)")(a.Cumsum(1)), c("torch.cumsum(i8, 0)")(i8.Cumsum(0)),
		c("torch.cumprod(a, 0)")(a.Cumprod(0)), c("torch.cumprod(bo, -1)")(bo.Cumprod(-1)),
		c("torch.softmax(a, 1)")(a.Softmax(1)), c("torch.log_softmax(a, 0)")(a.LogSoftmax(0)),
		c("torch.softmax(b, 0)")(b.Softmax(0)), c("torch.softmax(a, 3)")(a.Softmax(3)),
	)
	compareWithTorch(t, cases)
}

// TestUnaryFloat64MatchesGoMath checks the named methods against package math
// within a few ulp, and known values and IEEE edges.
func TestUnaryFloat64MatchesGoMath(t *testing.T) {
	xs := []float64{-3.5, -1, -0.25, 0, 0.5, 0.75, 2, 10}
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice(xs, int64(len(xs))))
	for _, c := range []struct {
		name   string
		method func() (*ctensor.Tensor, error)
		want   func(float64) float64
	}{
		{"exp", x.Exp, math.Exp}, {"exp2", x.Exp2, math.Exp2}, {"expm1", x.Expm1, math.Expm1},
		{"log", x.Log, math.Log}, {"log2", x.Log2, math.Log2}, {"log10", x.Log10, math.Log10},
		{"log1p", x.Log1p, math.Log1p}, {"sqrt", x.Sqrt, math.Sqrt},
		{"rsqrt", x.Rsqrt, func(v float64) float64 { return 1 / math.Sqrt(v) }},
		{"sin", x.Sin, math.Sin}, {"cos", x.Cos, math.Cos}, {"tan", x.Tan, math.Tan},
		{"asin", x.Asin, math.Asin}, {"acos", x.Acos, math.Acos}, {"atan", x.Atan, math.Atan},
		{"sinh", x.Sinh, math.Sinh}, {"cosh", x.Cosh, math.Cosh}, {"tanh", x.Tanh, math.Tanh},
		{"sigmoid", x.Sigmoid, func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }},
		{"relu", x.Relu, func(v float64) float64 { return math.Max(v, 0) }},
		{"gelu", x.Gelu, func(v float64) float64 { return v / 2 * (1 + math.Erf(v/math.Sqrt2)) }},
		{"erf", x.Erf, math.Erf}, {"floor", x.Floor, math.Floor}, {"ceil", x.Ceil, math.Ceil},
		{"trunc", x.Trunc, math.Trunc}, {"round", x.Round, math.RoundToEven},
		{"frac", x.Frac, func(v float64) float64 { return v - math.Trunc(v) }},
		{"reciprocal", x.Reciprocal, func(v float64) float64 { return 1 / v }},
		{"square", x.Square, func(v float64) float64 { return v * v }},
		{"neg", x.Neg, func(v float64) float64 { return -v }}, {"abs", x.Abs, math.Abs},
	} {
		got := values[float64](t, must[*ctensor.Tensor](t)(c.method()))
		for i, v := range xs {
			w := c.want(v)
			if !(got[i] == w || math.IsNaN(got[i]) && math.IsNaN(w) || math.Abs(got[i]-w) <= 4*0x1p-52*math.Abs(w)) {
				t.Errorf("%s(%v) = %v, math gives %v", c.name, v, got[i], w)
			}
		}
	}
	edges := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float64{math.Copysign(0, -1), -1, math.Inf(1), math.NaN()}, 4))
	sq := values[float64](t, must[*ctensor.Tensor](t)(edges.Sqrt()))
	if !(sq[0] == 0 && math.Signbit(sq[0]) && math.IsNaN(sq[1]) && math.IsInf(sq[2], 1) && math.IsNaN(sq[3])) {
		t.Errorf("sqrt(-0, -1, inf, nan) = %v", sq)
	}
	isnan := values[uint8](t, must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(edges.IsNaN()).ViewDType(ctensor.Uint8)))
	isinf := values[uint8](t, must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(edges.IsInf()).ViewDType(ctensor.Uint8)))
	finite := values[uint8](t, must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(edges.IsFinite()).ViewDType(ctensor.Uint8)))
	not := values[uint8](t, must[*ctensor.Tensor](t)(must[*ctensor.Tensor](t)(edges.LogicalNot()).ViewDType(ctensor.Uint8)))
	if string(isnan) != "\x00\x00\x00\x01" || string(isinf) != "\x00\x00\x01\x00" ||
		string(finite) != "\x01\x01\x00\x00" || string(not) != "\x01\x00\x00\x00" {
		t.Errorf("isnan %v isinf %v isfinite %v logical_not %v", isnan, isinf, finite, not)
	}
}

func TestUnaryDTypeRulesAndInto(t *testing.T) {
	ints := must[*ctensor.Tensor](t)(ctensor.FromSlice([]int32{0, 1, -4}, 3))
	e := must[*ctensor.Tensor](t)(ints.Exp())
	if got := values[float32](t, e); e.DType() != ctensor.Float32 || got[0] != 1 || got[1] != float32(math.E) {
		t.Errorf("exp(int32) = %v %v, want float32 [1 e ...]", e.DType(), got)
	}
	if r := must[*ctensor.Tensor](t)(ints.Relu()); r.DType() != ctensor.Int32 {
		t.Errorf("relu(int32) is %v", r.DType())
	}
	if got := values[int32](t, must[*ctensor.Tensor](t)(ints.BitwiseNot())); got[0] != -1 || got[2] != 3 {
		t.Errorf("bitwise_not = %v", got)
	}
	floats := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{1, 4, 9}, 3))
	_, err := floats.BitwiseNot()
	wantError(t, err, ctensor.StatusDType, "")
	_, err = ints.Frac()
	wantError(t, err, ctensor.StatusDType, "")
	_, err = floats.Unary(ctensor.UnaryOp(99))
	wantError(t, err, ctensor.StatusInvalid, "")
	if ctensor.UnaryLogicalNot.String() != "logical_not" || ctensor.UnaryOp(99).String() != "UnaryOp(99)" {
		t.Errorf("names: %v %v", ctensor.UnaryLogicalNot, ctensor.UnaryOp(99))
	}

	if err := floats.UnaryInto(ctensor.UnarySqrt, floats); err != nil { // in place
		t.Fatal(err)
	}
	if got := values[float32](t, floats); got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Errorf("sqrt_ gave %v", got)
	}
	intsOut := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int32, 3))
	wantError(t, intsOut.UnaryInto(ctensor.UnaryExp, floats), ctensor.StatusDType, "")
	wantError(t, must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 2)).UnaryInto(ctensor.UnaryExp, floats),
		ctensor.StatusShape, "")

	lo := must[*ctensor.Tensor](t)(ctensor.ScalarFloat64(1.5))
	if err := floats.ClampMinInto(floats, lo); err != nil {
		t.Fatal(err)
	}
	if got := values[float32](t, floats); got[0] != 1.5 || got[2] != 3 {
		t.Errorf("clamp_(min=1.5) gave %v", got)
	}
	hi := must[*ctensor.Tensor](t)(ctensor.ScalarFloat64(2.5))
	if err := floats.ClampMaxInto(floats, hi); err != nil {
		t.Fatal(err)
	}
	if err := floats.ClampInto(floats, lo, hi); err != nil {
		t.Fatal(err)
	}
	if got := values[float32](t, floats); got[0] != 1.5 || got[1] != 2 || got[2] != 2.5 {
		t.Errorf("clamp_(max=2.5) gave %v", got)
	}
	wantError(t, intsOut.ClampInto(floats, lo, hi), ctensor.StatusDType, "")

	cond := must[*ctensor.Tensor](t)(ctensor.FromSlice([]bool{true, false, true}, 3))
	dst := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float64, 3))
	if err := dst.WhereInto(cond, ints, hi); err != nil {
		t.Fatal(err)
	}
	if got := values[float64](t, dst); got[0] != 0 || got[1] != 2.5 || got[2] != -4 {
		t.Errorf("where into gave %v", got)
	}
	_, err = ctensor.Where(ints, ints, ints)
	wantError(t, err, ctensor.StatusDType, "")
}

func TestArgCumSoftmaxValues(t *testing.T) {
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{3, 9, 1, 9, -2, 8}, 2, 3))
	all := must[*ctensor.Tensor](t)(x.Argmax(ctensor.AllDims, false))
	if v, _ := all.ItemInt64(); v != 1 || all.NDim() != 0 {
		t.Errorf("argmax over all = %v (ndim %d), want the first largest, 1", v, all.NDim())
	}
	if got := values[int64](t, must[*ctensor.Tensor](t)(x.Argmax(1, false))); got[0] != 1 || got[1] != 0 {
		t.Errorf("argmax(dim 1) = %v", got)
	}
	idx := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int64, 3))
	if err := idx.ArgminInto(x, 0, false); err != nil {
		t.Fatal(err)
	}
	if got := values[int64](t, idx); got[0] != 0 || got[1] != 1 || got[2] != 0 {
		t.Errorf("argmin into = %v", got)
	}
	if err := idx.ArgmaxInto(x, 0, false); err != nil {
		t.Fatal(err)
	}
	if got := values[int64](t, idx); got[0] != 1 || got[1] != 0 || got[2] != 1 {
		t.Errorf("argmax into = %v", got)
	}
	wantError(t, must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int32, 3)).ArgmaxInto(x, 0, false), ctensor.StatusDType, "")
	_, err := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 0)).Argmax(ctensor.AllDims, false)
	wantError(t, err, ctensor.StatusShape, "")

	n := must[*ctensor.Tensor](t)(ctensor.FromSlice([]int32{1, 2, 3, 4}, 2, 2))
	cs := must[*ctensor.Tensor](t)(n.Cumsum(-1))
	if got := values[int64](t, cs); cs.DType() != ctensor.Int64 || got[1] != 3 || got[3] != 7 {
		t.Errorf("cumsum = %v %v", cs.DType(), got)
	}
	prod := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float64, 2, 2))
	if err := prod.CumprodInto(n, 0); err != nil {
		t.Fatal(err)
	}
	if got := values[float64](t, prod); got[2] != 3 || got[3] != 8 {
		t.Errorf("cumprod into = %v", got)
	}
	if err := prod.CumsumInto(n, 0); err != nil {
		t.Fatal(err)
	}
	if got := values[float64](t, prod); got[2] != 4 || got[3] != 6 {
		t.Errorf("cumsum into = %v", got)
	}

	big := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float64{1, 2, 3, -1, 0, 700}, 2, 3))
	p := values[float64](t, must[*ctensor.Tensor](t)(big.Softmax(1)))
	for r := 0; r < 2; r++ {
		if s := p[3*r] + p[3*r+1] + p[3*r+2]; math.Abs(s-1) > 1e-12 {
			t.Errorf("softmax row %d sums to %v", r, s)
		}
	}
	if p[5] != 1 {
		t.Errorf("softmax of 700 against 0 and -1 is %v, want 1 (no overflow)", p[5])
	}
	out := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float64, 2, 3))
	if err := out.LogSoftmaxInto(big, 1); err != nil {
		t.Fatal(err)
	}
	for i, v := range values[float64](t, out)[:3] {
		if math.Abs(v-math.Log(p[i])) > 1e-12 {
			t.Errorf("log_softmax[%d] = %v, log(softmax) %v", i, v, math.Log(p[i]))
		}
	}
	if err := out.SoftmaxInto(big, 0); err != nil {
		t.Fatal(err)
	}
	wantError(t, must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 2, 3)).SoftmaxInto(big, 0), ctensor.StatusDType, "")
	_, err = n.Softmax(0)
	wantError(t, err, ctensor.StatusDType, "")
}

// TestUnaryOpsAreGenerated fails while unary_ops.go differs from what
// internal/genunary writes (run `go generate` after changing its table).
func TestUnaryOpsAreGenerated(t *testing.T) {
	out := filepath.Join(t.TempDir(), "unary_ops.go")
	if msg, err := exec.Command("go", "run", "./internal/genunary", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go run ./internal/genunary: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("unary_ops.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("unary_ops.go is stale: run `go generate` in bindings/go")
	}
}
