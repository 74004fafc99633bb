package ctensor_test

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"ctensor"
)

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// wantError checks that err is an *Error with status and a message containing part.
func wantError(t *testing.T, err error, status ctensor.Status, part string) {
	t.Helper()
	var e *ctensor.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want an *ctensor.Error with %v", err, err, status)
	}
	if e.Status != status || !errors.Is(err, status) {
		t.Errorf("status %v, want %v (%s)", e.Status, status, e.Message)
	}
	if !strings.Contains(e.Message, part) {
		t.Errorf("message %q does not contain %q", e.Message, part)
	}
	if !strings.HasPrefix(err.Error(), status.String()+": ") {
		t.Errorf("Error() %q does not start with the status name", err.Error())
	}
}

func TestVersionAndNames(t *testing.T) {
	if ctensor.VersionNumber() < ctensor.HeaderVersionNumber {
		t.Errorf("library %d older than header %d", ctensor.VersionNumber(), ctensor.HeaderVersionNumber)
	}
	v := ctensor.VersionNumber()
	if want := strings.Join([]string{itoa(v / 10000), itoa(v / 100 % 100), itoa(v % 100)}, "."); ctensor.Version() != want {
		t.Errorf("Version %q, VersionNumber %d", ctensor.Version(), v)
	}
	if s := ctensor.StatusBounds.String(); s != "TENSOR_E_BOUNDS" {
		t.Errorf("StatusBounds is %q", s)
	}
	if s := ctensor.Status(99).String(); s != "Status(99)" {
		t.Errorf("unknown status is %q", s)
	}
	for dt, want := range map[ctensor.DType]struct {
		name string
		size int
	}{ctensor.Float32: {"float32", 4}, ctensor.BFloat16: {"bfloat16", 2}, ctensor.Complex128: {"complex128", 16},
		ctensor.Bool: {"bool", 1}, ctensor.Uint64: {"uint64", 8}, ctensor.DType(8): {"DType(8)", 0}} {
		if dt.String() != want.name || dt.Size() != want.size {
			t.Errorf("dtype %d: %q size %d, want %q size %d", int32(dt), dt.String(), dt.Size(), want.name, want.size)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// roundTrip copies values into a tensor, reads them back with Data and checks the dtype.
func roundTrip[T ctensor.Element](t *testing.T, values []T, dtype ctensor.DType) {
	t.Helper()
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice(values))
	defer x.Close()
	if x.DType() != dtype || ctensor.DTypeOf[T]() != dtype {
		t.Errorf("dtype %v, want %v", x.DType(), dtype)
	}
	got := must[[]T](t)(ctensor.Data[T](x))
	if !slices.Equal(got, values) {
		t.Errorf("%v: got %v, want %v", dtype, got, values)
	}
	if unsafe.SliceData(got) == unsafe.SliceData(values) {
		t.Errorf("FromSlice did not copy")
	}
}

func TestFromSliceEveryElementType(t *testing.T) {
	roundTrip(t, []uint8{0, 1, 255}, ctensor.Uint8)
	roundTrip(t, []int8{-128, 0, 127}, ctensor.Int8)
	roundTrip(t, []int16{-32768, 7, 32767}, ctensor.Int16)
	roundTrip(t, []int32{math.MinInt32, 3, math.MaxInt32}, ctensor.Int32)
	roundTrip(t, []int64{math.MinInt64, 3, math.MaxInt64}, ctensor.Int64)
	roundTrip(t, []uint16{0, 65535}, ctensor.Uint16)
	roundTrip(t, []uint32{0, math.MaxUint32}, ctensor.Uint32)
	roundTrip(t, []uint64{0, math.MaxUint64}, ctensor.Uint64)
	roundTrip(t, []float32{-1.5, 0, float32(math.Inf(1))}, ctensor.Float32)
	roundTrip(t, []float64{-1.5, math.SmallestNonzeroFloat64, math.MaxFloat64}, ctensor.Float64)
	roundTrip(t, []complex64{1 + 2i, -3i}, ctensor.Complex64)
	roundTrip(t, []complex128{1 + 2i, -3i}, ctensor.Complex128)
	roundTrip(t, []ctensor.Float16Bits{0x3c00, 0xc000}, ctensor.Float16)
	roundTrip(t, []ctensor.BFloat16Bits{0x3f80, 0x4049}, ctensor.BFloat16)

	b := must[*ctensor.Tensor](t)(ctensor.FromSlice([]bool{true, false, true}, 3, 1))
	defer b.Close()
	if got := must[[]bool](t)(b.Bools()); !slices.Equal(got, []bool{true, false, true}) {
		t.Errorf("Bools %v", got)
	}
	if got := b.Sizes(); !slices.Equal(got, []int64{3, 1}) {
		t.Errorf("sizes %v", got)
	}
}

func TestCreationAndInspection(t *testing.T) {
	z := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float64, 2, 3))
	defer z.Close()
	if !slices.Equal(z.Sizes(), []int64{2, 3}) || !slices.Equal(z.Strides(), []int64{3, 1}) ||
		z.NDim() != 2 || z.Numel() != 6 || !z.IsContiguous() || z.IsReadOnly() || z.StorageOffset() != 0 {
		t.Errorf("zeros: %v", z)
	}
	if v := must[[]float64](t)(z.Float64s()); !slices.Equal(v, make([]float64, 6)) {
		t.Errorf("zeros hold %v", v)
	}
	if typ, id := z.Device(); typ != 1 || id != 0 {
		t.Errorf("device %d/%d, want the CPU (1/0)", typ, id)
	}
	if s := z.String(); s != "Tensor(float64, sizes [2 3], strides [3 1], offset 0)" {
		t.Errorf("String %q", s)
	}
	scalar := must[*ctensor.Tensor](t)(ctensor.Empty(ctensor.Int32))
	defer scalar.Close()
	if scalar.NDim() != 0 || scalar.Numel() != 1 || len(scalar.Sizes()) != 0 {
		t.Errorf("0-dim: %v", scalar)
	}
	empty := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{}, 0, 4))
	defer empty.Close()
	if v := must[[]float32](t)(empty.Float32s()); len(v) != 0 {
		t.Errorf("empty tensor data %v", v)
	}

	s := must[*ctensor.Storage](t)(ctensor.NewStorage(64))
	defer s.Close()
	onS := must[*ctensor.Tensor](t)(ctensor.FromStorage(s, ctensor.Int16, []int64{4, 2}, []int64{1, 4}, 8))
	defer onS.Close()
	if s.Nbytes() != 64 || s.IsReadOnly() || s.Refcount() != 2 {
		t.Errorf("storage: %d bytes, read-only %v, refcount %d", s.Nbytes(), s.IsReadOnly(), s.Refcount())
	}
	if !slices.Equal(onS.Strides(), []int64{1, 4}) || onS.StorageOffset() != 8 || onS.IsContiguous() {
		t.Errorf("from_storage: %v", onS)
	}
	s2 := must[*ctensor.Storage](t)(onS.Storage())
	defer s2.Close()
	if s.Refcount() != 3 {
		t.Errorf("Storage() did not retain: refcount %d", s.Refcount())
	}
}

func TestCopiesAndConversions(t *testing.T) {
	src := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{1.7, -2.9, 1e10, float32(math.NaN()), -1e10, 0.5}, 2, 3))
	defer src.Close()
	i32 := must[*ctensor.Tensor](t)(src.To(ctensor.Int32, ctensor.CopyIfNeeded))
	defer i32.Close()
	// truncation toward zero; NaN gives 0; out of range saturates (the README's rules)
	if got := must[[]int32](t)(i32.Int32s()); !slices.Equal(got, []int32{1, -2, math.MaxInt32, 0, math.MinInt32, 0}) {
		t.Errorf("float32 -> int32: %v", got)
	}
	same := must[*ctensor.Tensor](t)(src.To(ctensor.Float32, ctensor.CopyIfNeeded))
	defer same.Close()
	if src.Refcount() != 2 {
		t.Errorf("To with the same dtype should share the handle: refcount %d", src.Refcount())
	}
	_, err := src.To(ctensor.Int64, ctensor.CopyNever)
	wantError(t, err, ctensor.StatusCopy, "")

	tr := must[*ctensor.Tensor](t)(src.Transpose(0, 1))
	defer tr.Close()
	c := must[*ctensor.Tensor](t)(tr.Contiguous())
	defer c.Close()
	if !c.IsContiguous() || !slices.Equal(c.Sizes(), []int64{3, 2}) {
		t.Errorf("contiguous: %v", c)
	}
	again := must[*ctensor.Tensor](t)(c.Contiguous())
	defer again.Close()
	if c.Refcount() != 2 {
		t.Errorf("Contiguous of a contiguous tensor should retain it: refcount %d", c.Refcount())
	}
	cl := must[*ctensor.Tensor](t)(c.Clone())
	defer cl.Close()
	if c.Refcount() != 2 || cl.Refcount() != 1 {
		t.Errorf("Clone shares: refcounts %d %d", c.Refcount(), cl.Refcount())
	}

	dst := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float64, 2, 3))
	defer dst.Close()
	row := must[*ctensor.Tensor](t)(ctensor.FromSlice([]int64{1, 2, 3}))
	defer row.Close()
	if err := dst.CopyFrom(row); err != nil { // broadcasts [3] to [2, 3], int64 -> float64
		t.Fatal(err)
	}
	if got := must[[]float64](t)(dst.Float64s()); !slices.Equal(got, []float64{1, 2, 3, 1, 2, 3}) {
		t.Errorf("copy: %v", got)
	}
	col := must[*ctensor.Tensor](t)(dst.Select(1, 1))
	defer col.Close()
	if err := col.Fill(-4); err != nil {
		t.Fatal(err)
	}
	if got := must[[]float64](t)(dst.Float64s()); !slices.Equal(got, []float64{1, -4, 3, 1, -4, 3}) {
		t.Errorf("fill through a view: %v", got)
	}
	if err := dst.CopyFrom(dst); err != nil {
		t.Errorf("copy onto itself: %v", err)
	}
}

func TestMisuseGivesErrors(t *testing.T) {
	x := arange(t, 2, 3)
	defer x.Close()

	_, err := x.Float32s()
	wantError(t, err, ctensor.StatusDType, "int64, not float32")
	_, err = ctensor.Data[uint64](x)
	wantError(t, err, ctensor.StatusDType, "not uint64")
	_, err = x.Bools()
	wantError(t, err, ctensor.StatusDType, "not bool")

	tr := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
	defer tr.Close()
	_, err = tr.Int64s()
	wantError(t, err, ctensor.StatusStride, "not contiguous")

	_, err = x.Select(1, 3)
	wantError(t, err, ctensor.StatusBounds, "index 3 is out of range")
	_, err = x.Select(0, -3)
	wantError(t, err, ctensor.StatusBounds, "out of range")
	_, err = x.Narrow(1, 2, 2)
	wantError(t, err, ctensor.StatusBounds, "exceeds size")
	_, err = x.Transpose(0, 2)
	wantError(t, err, ctensor.StatusInvalid, "dim 2 is out of range")
	_, err = x.AsStrided([]int64{2, 3}, []int64{3, 1}, 1)
	wantError(t, err, ctensor.StatusBounds, "storage has 48 bytes")
	_, err = x.AsStrided([]int64{2, 3}, []int64{3}, 0)
	wantError(t, err, ctensor.StatusInvalid, "1 strides given for 2 sizes")
	_, err = x.AsStrided([]int64{-1}, nil, 0)
	wantError(t, err, ctensor.StatusInvalid, "")

	_, err = x.View(4, -1)
	wantError(t, err, ctensor.StatusShape, "invalid for input of size 6")
	_, err = x.View(-1, -1)
	wantError(t, err, ctensor.StatusShape, "only one dimension")
	_, err = tr.View(6)
	wantError(t, err, ctensor.StatusStride, "reshape copies instead")
	_, err = x.Expand(3, 3)
	wantError(t, err, ctensor.StatusShape, "does not match")
	_, err = x.Permute(0)
	wantError(t, err, ctensor.StatusInvalid, "1 dims given")
	_, err = x.Slice(0, 0, 1, 0)
	wantError(t, err, ctensor.StatusInvalid, "step cannot be zero")
	_, err = x.ViewDType(ctensor.DType(8))
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = x.Flatten(1, 0)
	wantError(t, err, ctensor.StatusInvalid, "comes after")
	_, err = x.Unsqueeze(4)
	wantError(t, err, ctensor.StatusInvalid, "out of range")

	_, err = ctensor.FromSlice([]int64{1, 2, 3}, 2, 2)
	wantError(t, err, ctensor.StatusShape, "3 values given for sizes [2 2] (4 elements)")
	_, err = ctensor.FromSlice([]int64{1, 2}, -2)
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = ctensor.FromSlice([]int64{}, 1<<62, 4)
	wantError(t, err, ctensor.StatusOverflow, "")
	_, err = ctensor.Zeros(ctensor.DType(42), 2)
	wantError(t, err, ctensor.StatusInvalid, "")
	_, err = ctensor.Empty(ctensor.Float32, make([]int64, 65)...)
	wantError(t, err, ctensor.StatusInvalid, "ndim 65")
	_, err = ctensor.NewStorage(-1)
	wantError(t, err, ctensor.StatusInvalid, "negative")
	_, err = ctensor.Wrap([]float32{1, 2}, 3)
	wantError(t, err, ctensor.StatusBounds, "")
	if ctensor.WrappedBuffers() != 0 {
		t.Errorf("a failed Wrap left %d buffers pinned", ctensor.WrappedBuffers())
	}

	expanded := must[*ctensor.Tensor](t)(x.Expand(4, 2, 3))
	defer expanded.Close()
	wantError(t, expanded.Fill(1), ctensor.StatusOverlap, "")
	wantError(t, expanded.CopyFrom(x), ctensor.StatusOverlap, "")
	wide := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Int64, 2, 2, 3))
	defer wide.Close()
	wantError(t, x.CopyFrom(wide), ctensor.StatusShape, "")
	wantError(t, ctensor.SetNumThreads(0), ctensor.StatusInvalid, "")
}

func TestMessageBelongsToItsCall(t *testing.T) {
	// Many goroutines failing differently at once: each error's message must be
	// its own call's, though the message is thread-local in C.
	x := arange(t, 2, 3)
	defer x.Close()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				var err error
				var part string
				if (g+i)%2 == 0 {
					_, err, part = selectErr(x, int64(3+i%5))
				} else {
					_, err = x.Transpose(0, int64(2+i%5))
					part = "dim " + itoa(2+i%5) + " is out of range"
				}
				var e *ctensor.Error
				if !errors.As(err, &e) || !strings.Contains(e.Message, part) {
					t.Errorf("message %v does not contain %q", err, part)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func selectErr(x *ctensor.Tensor, index int64) (*ctensor.Tensor, error, string) {
	r, err := x.Select(1, index)
	return r, err, "index " + itoa(int(index)) + " is out of range"
}

func TestClosedHandles(t *testing.T) {
	x := arange(t, 2, 3)
	y := arange(t, 2, 3)
	defer y.Close()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	ops := map[string]func() error{
		"as_strided":   func() error { _, err := x.AsStrided([]int64{1}, nil, 0); return err },
		"view":         func() error { _, err := x.View(6); return err },
		"reshape":      func() error { _, err := x.Reshape(6); return err },
		"transpose":    func() error { _, err := x.Transpose(0, 1); return err },
		"permute":      func() error { _, err := x.Permute(1, 0); return err },
		"slice":        func() error { _, err := x.Slice(0, 0, 1, 1); return err },
		"select":       func() error { _, err := x.Select(0, 0); return err },
		"narrow":       func() error { _, err := x.Narrow(0, 0, 1); return err },
		"expand":       func() error { _, err := x.Expand(2, 3); return err },
		"broadcast_to": func() error { _, err := x.BroadcastTo(2, 3); return err },
		"squeeze":      func() error { _, err := x.Squeeze(ctensor.AllDims); return err },
		"unsqueeze":    func() error { _, err := x.Unsqueeze(0); return err },
		"flatten":      func() error { _, err := x.Flatten(0, 1); return err },
		"view_dtype":   func() error { _, err := x.ViewDType(ctensor.Float64); return err },
		"contiguous":   func() error { _, err := x.Contiguous(); return err },
		"clone":        func() error { _, err := x.Clone(); return err },
		"to":           func() error { _, err := x.To(ctensor.Float32, ctensor.CopyAlways); return err },
		"copy":         func() error { return x.CopyFrom(y) },
		"fill":         func() error { return x.Fill(0) },
		"storage":      func() error { _, err := x.Storage(); return err },
		"data":         func() error { _, err := x.Int64s(); return err },
		"bools":        func() error { _, err := x.Bools(); return err },
	}
	for name, op := range ops {
		wantError(t, op(), ctensor.StatusInvalid, name+": the handle is closed")
	}
	wantError(t, y.CopyFrom(x), ctensor.StatusInvalid, "closed")
	if x.NDim() != 0 || x.Sizes() != nil || x.Strides() != nil || x.Numel() != 0 || x.DType() != -1 ||
		x.Refcount() != 0 || x.IsContiguous() || x.String() != "Tensor(closed)" {
		t.Errorf("getters of a closed tensor: ndim %d sizes %v dtype %v", x.NDim(), x.Sizes(), x.DType())
	}
	s := must[*ctensor.Storage](t)(ctensor.NewStorage(8))
	s.Close()
	s.Close()
	_, err := ctensor.FromStorage(s, ctensor.Uint8, []int64{8}, nil, 0)
	wantError(t, err, ctensor.StatusInvalid, "from_storage: the handle is closed")
	if s.Nbytes() != 0 || s.Refcount() != 0 {
		t.Errorf("closed storage: %d bytes, refcount %d", s.Nbytes(), s.Refcount())
	}
}

func TestReleaseOrderDoesNotMatter(t *testing.T) {
	x := arange(t, 4, 5)
	s := must[*ctensor.Storage](t)(x.Storage())
	defer s.Close()
	v1 := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
	v2 := must[*ctensor.Tensor](t)(v1.Slice(0, 1, ctensor.SliceEnd, 2))
	x.Close()
	v1.Close()
	if got := valuesOf(t, v2); !slices.Equal(got, []int64{1, 6, 11, 16, 3, 8, 13, 18}) {
		t.Errorf("a view outliving its parents reads %v", got)
	}
	if s.Refcount() != 2 {
		t.Errorf("refcount %d, want the storage's own and v2's", s.Refcount())
	}
	v2.Close()
	if s.Refcount() != 1 {
		t.Errorf("refcount %d after closing every tensor", s.Refcount())
	}
}

func TestWrapIsZeroCopy(t *testing.T) {
	buf := []float64{1, 2, 3, 4, 5, 6}
	released := make(chan struct{})
	x := must[*ctensor.Tensor](t)(ctensor.WrapFunc(buf, func() { close(released) }, 2, 3))
	data := must[[]float64](t)(x.Float64s())
	if unsafe.SliceData(data) != unsafe.SliceData(buf) {
		t.Fatal("Wrap copied")
	}
	buf[0] = 10 // Go writes are seen by C
	col := must[*ctensor.Tensor](t)(x.Select(1, 0))
	if err := col.Fill(-1); err != nil { // C writes are seen by Go
		t.Fatal(err)
	}
	if !slices.Equal(buf, []float64{-1, 2, 3, -1, 5, 6}) {
		t.Errorf("buffer after fill %v", buf)
	}
	if ctensor.WrappedBuffers() != 1 {
		t.Errorf("%d buffers pinned, want 1", ctensor.WrappedBuffers())
	}
	x.Close()
	select {
	case <-released:
		t.Fatal("released while a view is open")
	default:
	}
	col.Close()
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("the release function did not run when the last view closed")
	}
	if ctensor.WrappedBuffers() != 0 {
		t.Errorf("%d buffers still pinned", ctensor.WrappedBuffers())
	}
	empty := must[*ctensor.Tensor](t)(ctensor.Wrap([]int32{}))
	if !slices.Equal(empty.Sizes(), []int64{0}) {
		t.Errorf("empty wrap: %v", empty)
	}
	empty.Close()
}

// gcUntil collects garbage until cond holds (cleanups run on their own goroutine).
func gcUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("cleanups did not %s", what)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func TestCleanupReleasesUnclosedHandles(t *testing.T) {
	x := arange(t, 3, 4)
	s := must[*ctensor.Storage](t)(x.Storage())
	defer s.Close()
	func() {
		for range 10 {
			v := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
			_ = v // never closed
		}
	}()
	gcUntil(t, "release 10 unclosed views", func() bool { return x.Numel() == 12 && s.Refcount() == 2 })
	x = nil
	gcUntil(t, "release the unclosed tensor", func() bool { return s.Refcount() == 1 })

	var released sync.WaitGroup
	released.Add(1)
	func() {
		w := must[*ctensor.Tensor](t)(ctensor.WrapFunc(make([]int16, 1000), released.Done))
		v := must[*ctensor.Tensor](t)(w.Narrow(0, 10, 20))
		_, _ = w, v
	}()
	gcUntil(t, "unpin a wrapped buffer", func() bool { return ctensor.WrappedBuffers() == 0 })
	released.Wait()
}

func TestConcurrentUse(t *testing.T) {
	shared := arange(t, 8, 16)
	defer shared.Close()
	s := must[*ctensor.Storage](t)(shared.Storage())
	defer s.Close()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				a, err := shared.Transpose(0, 1)
				if err != nil {
					t.Error(err)
					return
				}
				b, err := a.Slice(1, int64(g%8), ctensor.SliceEnd, 2)
				if err != nil {
					t.Error(err)
					return
				}
				c, err := b.Contiguous()
				if err != nil {
					t.Error(err)
					return
				}
				v, err := c.Int64s()
				if err != nil || v[0] != int64(16*(g%8)) {
					t.Errorf("values %v, %v", v[:1], err)
					return
				}
				a.Close()
				if i%2 == 0 { // the rest are left to the cleanups
					b.Close()
					c.Close()
				}
			}
		}()
	}
	// One tensor used by many goroutines while another closes it: each call
	// either works or reports the closed handle.
	victim := must[*ctensor.Tensor](t)(shared.View(-1))
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				v, err := victim.Narrow(0, 1, 3)
				if err != nil {
					wantError(t, err, ctensor.StatusInvalid, "closed")
					return
				}
				v.Close()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
		victim.Close()
	}()
	wg.Wait()
	gcUntil(t, "release every view of the shared tensor", func() bool { return s.Refcount() == 2 })
}

func TestDLPackRoundTrip(t *testing.T) {
	x := arange(t, 3, 4)
	defer x.Close()
	tr := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
	defer tr.Close()
	s := must[*ctensor.Storage](t)(x.Storage())
	defer s.Close()
	m := must[unsafe.Pointer](t)(tr.ToDLPack())
	if tr.Refcount() != 2 {
		t.Errorf("the export holds no reference: refcount %d", tr.Refcount())
	}
	back := must[*ctensor.Tensor](t)(ctensor.FromDLPack(m))
	if !slices.Equal(back.Sizes(), []int64{4, 3}) || !slices.Equal(back.Strides(), []int64{1, 4}) ||
		back.DType() != ctensor.Int64 {
		t.Errorf("imported %v", back)
	}
	if got := valuesOf(t, back); !slices.Equal(got, valuesOf(t, tr)) {
		t.Errorf("imported values %v", got)
	}
	back.Close() // runs the deleter, which drops the export's reference
	if tr.Refcount() != 1 {
		t.Errorf("refcount %d after the import closed", tr.Refcount())
	}
	_, err := ctensor.FromDLPack(nil)
	wantError(t, err, ctensor.StatusInvalid, "")
}

func TestReadOnlyTensors(t *testing.T) {
	buf := []int32{1, 2, 3, 4}
	ro := must[*ctensor.Tensor](t)(ctensor.WrapReadOnly(buf, 2, 2))
	defer ro.Close()
	if !ro.IsReadOnly() {
		t.Fatal("WrapReadOnly gave a writable tensor")
	}
	s := must[*ctensor.Storage](t)(ro.Storage())
	defer s.Close()
	if !s.IsReadOnly() {
		t.Error("the storage of a read-only tensor is writable")
	}
	row := must[*ctensor.Tensor](t)(ro.Select(0, 1))
	defer row.Close()
	wantError(t, row.Fill(0), ctensor.StatusReadOnly, "read-only")
	wantError(t, ro.CopyFrom(row), ctensor.StatusReadOnly, "read-only")
	_, err := ro.Int32s()
	wantError(t, err, ctensor.StatusReadOnly, "DataReadOnly")
	if v := must[[]int32](t)(ctensor.DataReadOnly[int32](ro)); !slices.Equal(v, buf) || unsafe.SliceData(v) != unsafe.SliceData(buf) {
		t.Errorf("DataReadOnly %v", v)
	}
	c := must[*ctensor.Tensor](t)(ro.Clone())
	defer c.Close()
	if c.IsReadOnly() || c.Fill(7) != nil || !slices.Equal(buf, []int32{1, 2, 3, 4}) {
		t.Errorf("a copy of a read-only tensor must be writable and separate: %v", buf)
	}
	bro := must[*ctensor.Tensor](t)(ctensor.WrapReadOnly([]uint8{0, 2, 1}))
	defer bro.Close()
	asBool := must[*ctensor.Tensor](t)(bro.ViewDType(ctensor.Bool))
	defer asBool.Close()
	if got := must[[]bool](t)(asBool.Bools()); !slices.Equal(got, []bool{false, true, true}) {
		t.Errorf("Bools of read-only bytes 0, 2, 1: %v", got)
	}
	m := must[unsafe.Pointer](t)(ro.ToDLPack()) // DLPack 1.x carries the read-only flag
	back := must[*ctensor.Tensor](t)(ctensor.FromDLPack(m))
	if !back.IsReadOnly() {
		t.Error("a read-only tensor came back writable through DLPack")
	}
	back.Close()
}
