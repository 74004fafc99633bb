package ctensor_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"testing"

	"ctensor"
)

// viewChain is a start shape (arange(numel) as int64) and view ops applied in
// turn, spelled as testdata/torch_views.py spells them for PyTorch.
type viewChain struct {
	Shape []int64 `json:"shape"`
	Ops   [][]any `json:"ops"`
}

type torchResult struct {
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
	Offset  int64   `json:"offset"`
	DType   string  `json:"dtype"`
	Values  []int64 `json:"values"`
	Error   string  `json:"error"`
}

// open is Python's None as a slice bound.
var open any = nil

var torchChains = []viewChain{
	{[]int64{2, 3, 4}, [][]any{{"transpose", 0, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"permute", []int64{2, 0, 1}}}},
	{[]int64{2, 3, 4}, [][]any{{"slice", 1, 0, open, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"slice", 2, -3, 100, 2}, {"transpose", 0, 1}}},
	{[]int64{2, 3, 4}, [][]any{{"slice", 0, 5, 9, 1}}},
	{[]int64{2, 3, 4}, [][]any{{"select", 1, -1}}},
	{[]int64{2, 3, 4}, [][]any{{"narrow", 2, 1, 2}, {"select", 0, 1}}},
	{[]int64{2, 3, 4}, [][]any{{"unsqueeze", 1}, {"expand", []int64{5, 2, -1, 3, 4}}}},
	{[]int64{3, 1}, [][]any{{"expand", []int64{2, 3, 4}}}},
	{[]int64{3, 1}, [][]any{{"broadcast_to", []int64{3, 5}}}},
	{[]int64{1, 3, 1, 2}, [][]any{{"squeeze", open}}},
	{[]int64{1, 3, 1, 2}, [][]any{{"squeeze", 2}, {"squeeze", 1}}},
	{[]int64{2, 3, 4}, [][]any{{"unsqueeze", -1}, {"unsqueeze", 0}}},
	{[]int64{2, 3, 4}, [][]any{{"view", []int64{4, -1}}}},
	{[]int64{2, 3, 4}, [][]any{{"transpose", 1, 2}, {"view", []int64{2, 12}}}},
	{[]int64{2, 3, 4}, [][]any{{"transpose", 1, 2}, {"reshape", []int64{2, 12}}}},
	{[]int64{2, 3, 4}, [][]any{{"transpose", 0, 1}, {"reshape", []int64{3, 2, 2, 2}}}},
	{[]int64{2, 3, 4}, [][]any{{"flatten", 1, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"permute", []int64{1, 0, 2}}, {"flatten", 0, 1}}},
	{[]int64{2, 3, 4}, [][]any{{"as_strided", []int64{3, 3}, []int64{1, 4}, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"view_dtype", "int32"}}},
	{[]int64{2, 3, 4}, [][]any{{"view_dtype", "int32"}, {"slice", 2, 1, open, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"view_dtype", "float64"}, {"view_dtype", "int64"}}},
	{[]int64{2, 0, 3}, [][]any{{"transpose", 0, 2}, {"reshape", []int64{3, -1, 2}}}},
	{[]int64{6}, [][]any{{"select", 0, 2}, {"unsqueeze", 0}, {"expand", []int64{3}}}},
	// failures: each must fail in PyTorch and in ctensor
	{[]int64{2, 3, 4}, [][]any{{"transpose", 0, 3}}},
	{[]int64{2, 3, 4}, [][]any{{"select", 1, 3}}},
	{[]int64{2, 3, 4}, [][]any{{"narrow", 2, 3, 2}}},
	{[]int64{2, 3, 4}, [][]any{{"view", []int64{5, -1}}}},
	{[]int64{2, 3, 4}, [][]any{{"transpose", 1, 2}, {"view", []int64{24}}}},
	{[]int64{2, 3, 4}, [][]any{{"expand", []int64{2, 2, 4}}}},
	{[]int64{2, 3, 4}, [][]any{{"as_strided", []int64{3, 3}, []int64{8, 1}, 7}}},
	{[]int64{2, 3, 4}, [][]any{{"permute", []int64{0, 1, 1}}}},
	{[]int64{2, 3, 3}, [][]any{{"view_dtype", "int32"}, {"slice", 2, 1, open, 1}, {"view_dtype", "int64"}}},
}

func runTorch(t *testing.T, chains []viewChain) []torchResult {
	t.Helper()
	input, err := json.Marshal(chains)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", "testdata/torch_views.py")
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the PyTorch oracle failed (scripts/install-deps.sh installs python3-torch): %v\n%s", err, stderr.String())
	}
	var results []torchResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatal(err)
	}
	return results
}

func arange(t testing.TB, sizes ...int64) *ctensor.Tensor {
	t.Helper()
	n := int64(1)
	for _, s := range sizes {
		n *= s
	}
	values := make([]int64, n)
	for i := range values {
		values[i] = int64(i)
	}
	flat, err := ctensor.FromSlice(values)
	if err != nil {
		t.Fatal(err)
	}
	defer flat.Close()
	x, err := flat.View(sizes...) // no sizes: a 0-dim tensor
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func ints(v any) []int64 { return v.([]int64) }

func num(v any) int64 {
	if v == nil {
		return math.MaxInt64 // only slice bounds are open; the callers map it
	}
	return int64(v.(int))
}

// experimentalOp runs the ops over experimental C functions (set by
// experimental_test.go with the ctensor_experimental tag); ok is false for others.
var experimentalOp func(x *ctensor.Tensor, op []any) (y *ctensor.Tensor, err error, ok bool)

// applyOp runs one op of a chain; the input stays open (the caller closes it).
func applyOp(x *ctensor.Tensor, op []any) (*ctensor.Tensor, error) {
	a := op[1:]
	switch op[0] {
	case "transpose":
		return x.Transpose(num(a[0]), num(a[1]))
	case "permute":
		return x.Permute(ints(a[0])...)
	case "slice":
		start, stop := ctensor.SliceStart, ctensor.SliceEnd
		if a[1] != nil {
			start = num(a[1])
		}
		if a[2] != nil {
			stop = num(a[2])
		}
		return x.Slice(num(a[0]), start, stop, num(a[3]))
	case "select":
		return x.Select(num(a[0]), num(a[1]))
	case "narrow":
		return x.Narrow(num(a[0]), num(a[1]), num(a[2]))
	case "expand":
		return x.Expand(ints(a[0])...)
	case "broadcast_to":
		return x.BroadcastTo(ints(a[0])...)
	case "squeeze":
		if a[0] == nil {
			return x.Squeeze(ctensor.AllDims)
		}
		return x.Squeeze(num(a[0]))
	case "unsqueeze":
		return x.Unsqueeze(num(a[0]))
	case "view":
		return x.View(ints(a[0])...)
	case "reshape":
		return x.Reshape(ints(a[0])...)
	case "flatten":
		return x.Flatten(num(a[0]), num(a[1]))
	case "as_strided":
		return x.AsStrided(ints(a[0]), ints(a[1]), num(a[2]))
	case "view_dtype":
		dtypes := map[string]ctensor.DType{"int32": ctensor.Int32, "int64": ctensor.Int64, "float64": ctensor.Float64}
		return x.ViewDType(dtypes[a[0].(string)])
	}
	if experimentalOp != nil {
		if y, err, ok := experimentalOp(x, op); ok {
			return y, err
		}
	}
	panic(fmt.Sprint("unknown op ", op[0]))
}

// valuesOf is x's elements in C order, widened to int64 (x holds integers).
func valuesOf(t testing.TB, x *ctensor.Tensor) []int64 {
	t.Helper()
	c, err := x.To(ctensor.Int64, ctensor.CopyAlways)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v, err := c.Int64s()
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(v)
}

func TestViewsMatchPyTorch(t *testing.T) {
	want := runTorch(t, torchChains)
	for i, chain := range torchChains {
		t.Run(fmt.Sprint(chain.Shape, chain.Ops), func(t *testing.T) {
			x := arange(t, chain.Shape...)
			var err error
			for _, op := range chain.Ops {
				var next *ctensor.Tensor
				next, err = applyOp(x, op)
				x.Close()
				if err != nil {
					break
				}
				x = next
			}
			w := want[i]
			if w.Error != "" {
				var e *ctensor.Error
				if !errors.As(err, &e) || e.Message == "" {
					t.Fatalf("PyTorch raised %s; ctensor gave %v", w.Error, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("PyTorch succeeded; ctensor: %v", err)
			}
			defer x.Close()
			if got := x.Sizes(); !slices.Equal(got, w.Sizes) {
				t.Errorf("sizes %v, PyTorch %v", got, w.Sizes)
			}
			if got := x.Strides(); !slices.Equal(got, w.Strides) {
				t.Errorf("strides %v, PyTorch %v", got, w.Strides)
			}
			if got := x.StorageOffset(); got != w.Offset {
				t.Errorf("storage offset %d, PyTorch %d", got, w.Offset)
			}
			if got := x.DType().String(); got != w.DType {
				t.Errorf("dtype %s, PyTorch %s", got, w.DType)
			}
			if got := valuesOf(t, x); !slices.Equal(got, w.Values) {
				t.Errorf("values %v, PyTorch %v", got, w.Values)
			}
		})
	}
}
