package arrowct

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"ctensor"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// must is v, panicking (failing the test) on an error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func asBytes[T ctensor.Element](v []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(zero)))
}

// valuesAddr is the address of an array's first element (of the leaf values
// of nested FixedSizeLists), its offsets applied.
func valuesAddr(d arrow.ArrayData, width int) uintptr {
	off := d.Offset()
	for len(d.Children()) > 0 {
		n := d.DataType().(*arrow.FixedSizeListType).Len()
		d = d.Children()[0]
		off = off*int(n) + d.Offset()
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(d.Buffers()[1].Bytes()))) + uintptr(off*width)
}

func status(err error) ctensor.Status {
	var e *ctensor.Error
	if errors.As(err, &e) {
		return e.Status
	}
	return ctensor.StatusOK
}

// roundTrip exports vals as [2, 3], [6] and [1, 2, 3] and reads them back: same
// dtype, sizes and bytes, and (zero-copy) the same memory.
func roundTrip[T ctensor.Element](t *testing.T, vals []T) {
	t.Helper()
	for _, sizes := range [][]int64{{2, 3}, {6}, {1, 2, 3}} {
		src := must(ctensor.FromSlice(vals, sizes...))
		field, arr, err := ToArrow(src, true)
		if err != nil {
			t.Fatalf("%v %v: %v", ctensor.DTypeOf[T](), sizes, err)
		}
		if int64(arr.Len()) != sizes[0] {
			t.Fatalf("length %d, want %d", arr.Len(), sizes[0])
		}
		back := must(FromArrowField(field, arr))
		arr.Release()
		got := must(ctensor.DataReadOnly[T](back))
		want := must(ctensor.Data[T](src))
		if back.DType() != src.DType() || !equal(back.Sizes(), sizes) || !bytes.Equal(asBytes(got), asBytes(vals)) {
			t.Fatalf("%v %v: got %v %v %v", src.DType(), sizes, back.DType(), back.Sizes(), got)
		}
		if &got[0] != &want[0] {
			t.Fatalf("%v %v: not zero-copy (%p vs %p)", src.DType(), sizes, &got[0], &want[0])
		}
		back.Close()
		src.Close()
	}
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEveryDTypeRoundTripsBitExact(t *testing.T) {
	roundTrip(t, []uint8{0, 1, 2, 127, 128, 255})
	roundTrip(t, []int8{math.MinInt8, -1, 0, 1, 2, math.MaxInt8})
	roundTrip(t, []int16{math.MinInt16, -1, 0, 1, 2, math.MaxInt16})
	roundTrip(t, []uint16{0, 1, 2, 3, 40000, math.MaxUint16})
	roundTrip(t, []int32{math.MinInt32, -1, 0, 1, 2, math.MaxInt32})
	roundTrip(t, []uint32{0, 1, 2, 3, 4000000000, math.MaxUint32})
	roundTrip(t, []int64{math.MinInt64, -1, 0, 1, 2, math.MaxInt64})
	roundTrip(t, []uint64{0, 1, 2, 3, 1 << 63, math.MaxUint64})
	roundTrip(t, []ctensor.Float16Bits{0xbe00, 0x7e01, 0x7c00, 0x0400, 0x8000, 0x7bff})
	roundTrip(t, []ctensor.BFloat16Bits{0xbfc0, 0x7fc1, 0x7f80, 0x0080, 0x8000, 0x7f7f})
	roundTrip(t, []float32{-1.5, float32(math.NaN()), float32(math.Inf(1)), math.SmallestNonzeroFloat32, 0, math.MaxFloat32})
	roundTrip(t, []float64{-1.5, math.NaN(), math.Inf(-1), math.SmallestNonzeroFloat64, 0, math.MaxFloat64})
	roundTrip(t, []complex64{complex(1, -2), complex(0, 3.5), 1i, 7 + 8i, 9 + 10i, complex(math.MaxFloat32, -1)})
	roundTrip(t, []complex128{complex(1, -2), complex(0, 3.5), 1i, 7 + 8i, 9 + 10i, complex(math.MaxFloat64, -1)})
}

func TestBoolRoundTripsAsACopy(t *testing.T) {
	vals := []bool{true, false, false, true, true, false}
	src := must(ctensor.FromSlice(vals, 2, 3))
	defer src.Close()
	if _, _, err := ToArrow(src, true); status(err) != ctensor.StatusCopy {
		t.Fatalf("bool with noCopy: %v", err)
	}
	field, arr, err := ToArrow(src, false)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	back := must(FromArrowField(field, arr))
	defer back.Close()
	got := must(back.Bools())
	for i := range vals {
		if got[i] != vals[i] {
			t.Fatalf("got %v, want %v", got, vals)
		}
	}
}

func TestExportIsAFixedShapeTensorViewingTheTensor(t *testing.T) {
	src := must(ctensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	defer src.Close()
	field, arr, err := ToArrow(src, true)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if name, _ := field.Metadata.GetValue("ARROW:extension:name"); name != "arrow.fixed_shape_tensor" {
		t.Fatalf("extension name %q", name)
	}
	if meta, _ := field.Metadata.GetValue("ARROW:extension:metadata"); meta != `{"shape":[3]}` {
		t.Fatalf("extension metadata %q", meta)
	}
	list := arr.(*array.FixedSizeList)
	values := list.ListValues().(*array.Float32).Float32Values()
	data := must(src.Float32s())
	if &values[0] != &data[0] || list.Len() != 2 {
		t.Fatalf("not the tensor's memory: %p vs %p", &values[0], &data[0])
	}
}

// Logical element dim i is physical dim permutation[i] (the specification's
// rule), so the elements read back equal those of the permuted view.
func TestPermutedTensorIsExportedWithItsPermutation(t *testing.T) {
	phys := make([]int32, 48)
	for i := range phys {
		phys[i] = int32(i)
	}
	base := must(ctensor.FromSlice(phys, 2, 2, 3, 4))
	defer base.Close()
	view := must(base.Permute(0, 3, 1, 2)) // element shape [4, 2, 3]
	defer view.Close()
	field, arr, err := ToArrow(view, true)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	meta, _ := field.Metadata.GetValue("ARROW:extension:metadata")
	if !strings.Contains(meta, `"shape":[2,3,4]`) || !strings.Contains(meta, `"permutation":[2,0,1]`) {
		t.Fatalf("metadata %s", meta)
	}
	if valuesAddr(arr.Data(), 4) != addr(base) {
		t.Fatal("not zero-copy")
	}
	back := must(FromArrowField(field, arr))
	defer back.Close()
	if !equal(back.Sizes(), []int64{2, 4, 2, 3}) {
		t.Fatalf("sizes %v", back.Sizes())
	}
	got := must(ctensor.DataReadOnly[int32](must(back.Contiguous())))
	n := 0
	for b := 0; b < 2; b++ {
		for i := 0; i < 4; i++ {
			for j := 0; j < 2; j++ {
				for k := 0; k < 3; k++ {
					if want := int32(b*24 + j*12 + k*4 + i); got[n] != want {
						t.Fatalf("element %d: %d, want %d", n, got[n], want)
					}
					n++
				}
			}
		}
	}
}

func addr(x *ctensor.Tensor) uintptr {
	return uintptr(unsafe.Pointer(&must(ctensor.Data[int32](x))[0]))
}

func TestStridedLayoutCopiesOrIsRefused(t *testing.T) {
	src := must(ctensor.FromSlice([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4))
	defer src.Close()
	view := must(src.Slice(1, 0, ctensor.SliceEnd, 2))
	defer view.Close()
	if _, _, err := ToArrow(view, true); status(err) != ctensor.StatusCopy {
		t.Fatalf("noCopy: %v", err)
	}
	field, arr := must2(ToArrow(view, false))
	defer arr.Release()
	back := must(FromArrowField(field, arr))
	defer back.Close()
	got := must(ctensor.DataReadOnly[int64](back))
	for i, want := range []int64{0, 2, 4, 6, 8, 10} {
		if got[i] != want {
			t.Fatalf("got %v", got)
		}
	}
}

func must2(f arrow.Field, a arrow.Array, err error) (arrow.Field, arrow.Array) {
	if err != nil {
		panic(err)
	}
	return f, a
}

// Arrays built by arrow-go's builders are viewed in place, element by element;
// the tensor keeps arrow-go's memory until its last view goes, then nothing leaks.
func TestBuilderArraysAreViewedAndReleased(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewFixedSizeListBuilder(mem, 4, arrow.PrimitiveTypes.Float32)
	vb := b.ValueBuilder().(*array.Float32Builder)
	for row := 0; row < 3; row++ {
		b.Append(true)
		for col := 0; col < 4; col++ {
			vb.Append(float32(row*4+col) * 0.5)
		}
	}
	arr := b.NewArray().(*array.FixedSizeList)
	b.Release()
	tensor := must(FromArrow(arr))
	sliced := array.NewSlice(arr, 1, 3)
	part := must(FromArrow(sliced))
	sliced.Release()
	values := arr.ListValues().(*array.Float32)
	if tensor.DType() != ctensor.Float32 || !equal(tensor.Sizes(), []int64{3, 4}) {
		t.Fatalf("%v %v", tensor.DType(), tensor.Sizes())
	}
	got := must(ctensor.DataReadOnly[float32](tensor))
	if &got[0] != &values.Float32Values()[0] {
		t.Fatal("not zero-copy")
	}
	for i := 0; i < 12; i++ {
		if got[i] != values.Value(i) {
			t.Fatalf("element %d: %v, want %v", i, got[i], values.Value(i))
		}
	}
	gotPart := must(ctensor.DataReadOnly[float32](part))
	if len(gotPart) != 8 || gotPart[0] != values.Value(4) || &gotPart[0] != &values.Float32Values()[4] {
		t.Fatalf("sliced: %v", gotPart)
	}
	arr.Release()
	if mem.CurrentAlloc() == 0 {
		t.Fatal("the tensors no longer hold arrow-go's memory")
	}
	tensor.Close()
	part.Close()
}

func TestNullsAreRefused(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{1, 0, 3}, []bool{true, false, true})
	ints := ib.NewArray()
	ib.Release()
	if _, err := FromArrow(ints); status(err) != ctensor.StatusFormat {
		t.Fatalf("int32 with a null: %v", err)
	}
	ints.Release()
	lb := array.NewFixedSizeListBuilder(mem, 2, arrow.PrimitiveTypes.Int32)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
	lb.AppendNull()
	lists := lb.NewArray()
	lb.Release()
	if _, err := FromArrow(lists); status(err) != ctensor.StatusFormat {
		t.Fatalf("list with a null: %v", err)
	}
	lists.Release()
}

// The exported array holds its own reference to the tensor until its release.
func TestExportedArraysHoldTheTensor(t *testing.T) {
	src := must(ctensor.FromSlice([]uint16{1, 2, 3, 4}, 2, 2))
	defer src.Close()
	before := src.Refcount()
	_, arr := must2(ToArrow(src, true))
	if src.Refcount() <= before {
		t.Fatalf("refcount %d, before %d", src.Refcount(), before)
	}
	arr.Release()
	if src.Refcount() != before {
		t.Fatalf("refcount %d after release, want %d", src.Refcount(), before)
	}
}
