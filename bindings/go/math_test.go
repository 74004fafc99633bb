package ctensor_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"ctensor"
)

// mathCase is an expression over math_test's inputs in Python and what ctensor gave.
type mathCase struct {
	expr string
	got  *ctensor.Tensor
	err  error
}

// compareWithTorch checks dtype, sizes and values (through float64) against
// PyTorch 1.13, and that ctensor fails exactly where PyTorch raises.
func compareWithTorch(t *testing.T, cases []mathCase) {
	t.Helper()
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = strconv.Quote(c.expr)
	}
	out := python(t, `import torch
a = torch.tensor([[1.5, -2.0, 3.0], [0.25, 5.0, -6.0]])
b = torch.tensor([10, -20, 30], dtype=torch.int32)
i8 = torch.tensor([100, 120], dtype=torch.int8)
bo = torch.tensor([True, False])
for e in [`+strings.Join(exprs, ", ")+`]:
    try:
        r = eval(e)
    except (RuntimeError, ValueError, IndexError):
        print("error"); continue
    print(str(r.dtype)[6:], " ".join(map(str, r.shape)), " ".join(map(repr, r.double().reshape(-1).tolist())), sep=";")`)
	lines := strings.Split(out, "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d oracle lines for %d cases:\n%s", len(lines), len(cases), out)
	}
	for i, c := range cases {
		if lines[i] == "error" {
			if c.err == nil {
				t.Errorf("%s: PyTorch raises, ctensor gave %v", c.expr, c.got)
			}
			continue
		}
		if c.err != nil {
			t.Errorf("%s: ctensor failed (%v), PyTorch gives %s", c.expr, c.err, lines[i])
			continue
		}
		f := strings.Split(lines[i], ";")
		if got := fmt.Sprint(c.got.DType(), ";", strings.Trim(fmt.Sprint(c.got.Sizes()), "[]")); got != f[0]+";"+f[1] {
			t.Errorf("%s: ctensor %s, PyTorch %s;%s", c.expr, got, f[0], f[1])
			continue
		}
		f64 := must[*ctensor.Tensor](t)(c.got.To(ctensor.Float64, ctensor.CopyAlways))
		got := values[float64](t, f64)
		want := strings.Fields(f[2])
		for j, w := range want {
			v, _ := strconv.ParseFloat(w, 64)
			if !(got[j] == v || math.Abs(got[j]-v) <= 1e-6*math.Abs(v)) {
				t.Errorf("%s: ctensor %v, PyTorch %v", c.expr, got, want)
				break
			}
		}
	}
}

func mathInputs(t *testing.T) (a, b, i8, bo *ctensor.Tensor) {
	return must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{1.5, -2, 3, 0.25, 5, -6}, 2, 3)),
		must[*ctensor.Tensor](t)(ctensor.FromSlice([]int32{10, -20, 30}, 3)),
		must[*ctensor.Tensor](t)(ctensor.FromSlice([]int8{100, 120}, 2)),
		must[*ctensor.Tensor](t)(ctensor.FromSlice([]bool{true, false}, 2))
}

func TestMathMatchesPyTorch(t *testing.T) {
	a, b, i8, bo := mathInputs(t)
	c := func(expr string) func(*ctensor.Tensor, error) mathCase {
		return func(got *ctensor.Tensor, err error) mathCase { return mathCase{expr, got, err} }
	}
	two := must[*ctensor.Tensor](t)(ctensor.ScalarInt64(2))
	ten := must[*ctensor.Tensor](t)(ctensor.ScalarInt64(10))
	half := must[*ctensor.Tensor](t)(ctensor.ScalarFloat64(0.5))
	yes := must[*ctensor.Tensor](t)(ctensor.ScalarBool(true))
	zeros0x3 := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 0, 3))
	zeros2 := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 2))
	b1 := must[*ctensor.Tensor](t)(b.Unsqueeze(0))
	at := must[*ctensor.Tensor](t)(a.Transpose(0, 1))
	cases := []mathCase{
		c("a + b")(a.Add(b)), c("a - b")(a.Sub(b)), c("a * b")(a.Mul(b)),
		c("a / b")(a.Div(b)), c("b / b")(b.Div(b)), c("b ** 2")(b.Pow(two)),
		c("torch.maximum(a, b)")(a.Maximum(b)), c("torch.minimum(a, b)")(a.Minimum(b)),
		c("a == b")(a.Eq(b)), c("a != 2")(a.Ne(two)), c("a < b")(a.Lt(b)),
		c("a <= 0.5")(a.Le(half)), c("a > 2")(a.Gt(two)), c("a >= 0.5")(a.Ge(half)),
		c("i8 + 10")(i8.Add(ten)), c("b * 0.5")(b.Mul(half)), c("bo + bo")(bo.Add(bo)),
		c("bo * True")(bo.Mul(yes)), c("bo - bo")(bo.Sub(bo)),
		c("a + torch.zeros(2)")(a.Add(zeros2)),
		c("-a")(a.Neg()), c("-i8")(i8.Neg()), c("a.abs()")(a.Abs()), c("-bo")(bo.Neg()),
		c("a.sum()")(a.Sum(nil, false)), c("a.sum(1)")(a.Sum([]int64{1}, false)),
		c("a.sum((0, 1), keepdim=True)")(a.Sum([]int64{0, -1}, true)), c("b.sum()")(b.Sum(nil, false)),
		c("bo.sum()")(bo.Sum(nil, false)), c("a.sum(2)")(a.Sum([]int64{2}, false)),
		c("a.mean(0)")(a.Mean([]int64{0}, false)), c("b.mean()")(b.Mean(nil, false)),
		c("a.prod(1)")(a.Prod([]int64{1}, false)), c("a.amax(0)")(a.Amax([]int64{0}, false)),
		c("a.amin(1, keepdim=True)")(a.Amin([]int64{1}, true)),
		c("torch.zeros(0, 3).amax(0)")(zeros0x3.Amax([]int64{0}, false)),
		c("torch.cat([a, b[None]], 0)")(ctensor.Cat([]*ctensor.Tensor{a, b1}, 0)),
		c("torch.cat([a, a.T], 1)")(ctensor.Cat([]*ctensor.Tensor{a, at}, 1)),
		c("torch.stack([b, b], 1)")(ctensor.Stack([]*ctensor.Tensor{b, b}, 1)),
		c("torch.stack([a, b], 0)")(ctensor.Stack([]*ctensor.Tensor{a, b}, 0)),
	}
	compareWithTorch(t, cases)
}

func TestMathItemsComparisonsAndInPlace(t *testing.T) {
	a, b, i8, _ := mathInputs(t)
	sum := must[*ctensor.Tensor](t)(a.Sum(nil, false))
	if v, err := sum.ItemFloat64(); err != nil || v != 1.75 {
		t.Errorf("a.sum().item() = %v, %v", v, err)
	}
	bsum := must[*ctensor.Tensor](t)(b.Sum(nil, false))
	if v, err := bsum.ItemInt64(); err != nil || v != 20 {
		t.Errorf("b.sum().item() = %v, %v", v, err)
	}
	_, err := a.ItemFloat64()
	wantError(t, err, ctensor.StatusShape, "")
	if eq, err := a.Equal(must[*ctensor.Tensor](t)(a.Clone())); err != nil || !eq {
		t.Errorf("equal to its clone: %v, %v", eq, err)
	}
	nudged := must[*ctensor.Tensor](t)(a.Add(must[*ctensor.Tensor](t)(ctensor.ScalarFloat64(1e-7))))
	if ok, err := a.AllClose(nudged, 1e-5, 1e-8, false); err != nil || !ok {
		t.Errorf("allclose: %v, %v", ok, err)
	}
	_, err = a.AllClose(b, 1e-5, 1e-8, false)
	wantError(t, err, ctensor.StatusDType, "")
	if d, err := i8.ResultType(must[*ctensor.Tensor](t)(ctensor.ScalarInt64(1000))); err != nil || d != ctensor.Int8 {
		t.Errorf("result_type(int8, 1000) = %v, %v", d, err)
	}
	u64 := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Uint64, 1))
	_, err = u64.ResultType(b)
	wantError(t, err, ctensor.StatusDType, "")
	_, err = ctensor.PromoteTypes(ctensor.Uint64, ctensor.Int64)
	wantError(t, err, ctensor.StatusDType, "promote_types: no integer dtype holds both uint64 and int64")
	if d, err := ctensor.PromoteTypes(ctensor.Uint32, ctensor.Int32); err != nil || d != ctensor.Int64 {
		t.Errorf("promote_types(uint32, int32) = %v, %v", d, err)
	}
	acc := must[*ctensor.Tensor](t)(a.Clone())
	if err := acc.BinaryInto(ctensor.OpAdd, acc, b); err != nil {
		t.Fatal(err)
	}
	if got := values[float32](t, acc); fmt.Sprint(got) != "[11.5 -22 33 10.25 -15 24]" {
		t.Errorf("acc += b gave %v", got)
	}
	ints := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int32, 2, 3))
	wantError(t, ints.BinaryInto(ctensor.OpMul, a, b), ctensor.StatusDType, "")
	_, err = ctensor.Cat(nil, 0)
	wantError(t, err, ctensor.StatusInvalid, "")
	closed := must[*ctensor.Tensor](t)(a.Clone())
	closed.Close()
	_, err = a.Add(closed)
	wantError(t, err, ctensor.StatusInvalid, "closed")
}
