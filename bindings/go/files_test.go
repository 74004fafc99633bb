package ctensor_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"ctensor"
)

// values reads any tensor's elements in C order (through a contiguous copy if needed).
func values[T any](t *testing.T, x *ctensor.Tensor) []T {
	t.Helper()
	c := must[*ctensor.Tensor](t)(x.Contiguous())
	defer c.Close()
	var zero T
	var out any
	var err error
	switch any(zero).(type) {
	case float32:
		out, err = ctensor.DataReadOnly[float32](c)
	case float64:
		out, err = ctensor.DataReadOnly[float64](c)
	case int32:
		out, err = ctensor.DataReadOnly[int32](c)
	case int64:
		out, err = ctensor.DataReadOnly[int64](c)
	case uint16:
		out, err = ctensor.DataReadOnly[uint16](c)
	case uint8:
		out, err = ctensor.DataReadOnly[uint8](c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return append([]T(nil), out.([]T)...)
}

func python(t *testing.T, program string) string {
	t.Helper()
	out, err := exec.Command("/usr/bin/python3", "-c", program).CombinedOutput()
	if err != nil {
		t.Fatalf("python3 (scripts/install-deps.sh installs python3-numpy): %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestNpyRoundTripAndModes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.npy")
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float64{0, 0.5, 1, 1.5, 2, 2.5}, 2, 3))
	xt := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
	if err := xt.SaveNpy(path); err != nil {
		t.Fatal(err)
	}
	want := values[float64](t, xt)

	mapped := must[*ctensor.Tensor](t)(ctensor.LoadNpy(path, ctensor.LoadMapped))
	if !reflect.DeepEqual(mapped.Sizes(), []int64{3, 2}) || !reflect.DeepEqual(values[float64](t, mapped), want) {
		t.Fatalf("loaded %v %v, want [3 2] %v", mapped.Sizes(), values[float64](t, mapped), want)
	}
	if !mapped.IsReadOnly() {
		t.Error("a mapped load must be read-only")
	}
	wantError(t, mapped.Fill(1), ctensor.StatusReadOnly, "")
	writable := must[*ctensor.Tensor](t)(ctensor.LoadNpy(path, ctensor.LoadWritable))
	if err := writable.Fill(-1); err != nil {
		t.Fatal(err)
	}
	copied := must[*ctensor.Tensor](t)(ctensor.LoadNpy(path, ctensor.LoadCopy))
	if copied.IsReadOnly() || !reflect.DeepEqual(values[float64](t, copied), want) {
		t.Errorf("copy-on-write writes reached the file: %v", values[float64](t, copied))
	}
}

func TestNpyAgreesWithNumPy(t *testing.T) {
	dir := t.TempDir()
	theirs, ours := filepath.Join(dir, "numpy.npy"), filepath.Join(dir, "ours.npy")
	python(t, "import numpy as np; np.save('"+theirs+"', np.asfortranarray(np.arange(6, dtype='>i4').reshape(2, 3)))")
	f := must[*ctensor.Tensor](t)(ctensor.LoadNpy(theirs, ctensor.LoadMapped))
	if f.DType() != ctensor.Int32 || !reflect.DeepEqual(values[int32](t, f), []int32{0, 1, 2, 3, 4, 5}) {
		t.Errorf("NumPy's file read as %v %v", f.DType(), values[int32](t, f))
	}
	x := must[*ctensor.Tensor](t)(ctensor.FromSlice([]uint16{1, 2, 3, 4, 5, 6}, 3, 2))
	xt := must[*ctensor.Tensor](t)(x.Transpose(0, 1))
	if err := xt.SaveNpy(ours); err != nil {
		t.Fatal(err)
	}
	got := python(t, "import io, numpy as np\na = np.load('"+ours+"')\nb = io.BytesIO(); np.save(b, a)\n"+
		"print(a.dtype, a.shape, a.tolist(), b.getvalue() == open('"+ours+"', 'rb').read())")
	if want := "uint16 (2, 3) [[1, 3, 5], [2, 4, 6]] True"; got != want {
		t.Errorf("NumPy read %q, want %q", got, want)
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ctensor.LoadNpy(filepath.Join(dir, "missing.npy"), ctensor.LoadMapped)
	wantError(t, err, ctensor.StatusIO, "missing.npy")
	corrupt := filepath.Join(dir, "corrupt")
	if err := os.WriteFile(corrupt, []byte("\x93NUMPY\x01\x00\x10\x00{'descr': '<f4',"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ctensor.LoadNpy(corrupt, ctensor.LoadMapped)
	wantError(t, err, ctensor.StatusFormat, "")
	_, err = ctensor.OpenSafeTensors(corrupt, ctensor.LoadCopy)
	wantError(t, err, ctensor.StatusFormat, "")
	_, err = ctensor.OpenSafeTensors(filepath.Join(dir, "missing.safetensors"), ctensor.LoadMapped)
	wantError(t, err, ctensor.StatusIO, "missing.safetensors")
	_, err = ctensor.LoadNpy("a\x00b", ctensor.LoadMapped)
	wantError(t, err, ctensor.StatusInvalid, "NUL")
	bf := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.BFloat16, 2))
	wantError(t, bf.SaveNpy(filepath.Join(dir, "bf.npy")), ctensor.StatusDType, "")
	c := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Complex128, 1))
	out := filepath.Join(dir, "out.safetensors")
	wantError(t, ctensor.SaveSafeTensors(out, map[string]*ctensor.Tensor{"c": c}, nil), ctensor.StatusDType, "")
	wantError(t, ctensor.SaveSafeTensors(out, map[string]*ctensor.Tensor{"__metadata__": bf}, nil),
		ctensor.StatusInvalid, "")
	_, err = ctensor.MapFile(corrupt, 1<<20, 0, ctensor.MapRead)
	wantError(t, err, ctensor.StatusBounds, "")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed save left %s", out)
	}
	closed := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 1))
	closed.Close()
	wantError(t, closed.SaveNpy(filepath.Join(dir, "closed.npy")), ctensor.StatusInvalid, "closed")
}

func TestSafeTensorsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.safetensors")
	w := must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{0, 1, 2, 3, 4, 5}, 2, 3))
	wt := must[*ctensor.Tensor](t)(w.Transpose(0, 1))
	b := must[*ctensor.Tensor](t)(ctensor.FromSlice([]int64{1, -1}, 2))
	err := ctensor.SaveSafeTensors(path, map[string]*ctensor.Tensor{"weight_t": wt, "bias": b, "again": b},
		map[string]string{"step": "10"})
	if err != nil {
		t.Fatal(err)
	}
	st := must[*ctensor.SafeTensors](t)(ctensor.OpenSafeTensors(path, ctensor.LoadMapped))
	if got, want := st.Names(), []string{"again", "bias", "weight_t"}; !reflect.DeepEqual(got, want) || st.Len() != 3 {
		t.Errorf("names %v (len %d), want %v", got, st.Len(), want)
	}
	if v, ok := st.Metadata("step"); !ok || v != "10" {
		t.Errorf("metadata step = %q, %v", v, ok)
	}
	if _, ok := st.Metadata("epoch"); ok {
		t.Error("metadata epoch should be absent")
	}
	if keys := st.MetadataKeys(); !reflect.DeepEqual(keys, []string{"step"}) {
		t.Errorf("metadata keys %v, want [step]", keys)
	}
	_, err = st.Get("missing")
	wantError(t, err, ctensor.StatusInvalid, "missing")
	got := must[*ctensor.Tensor](t)(st.Get("weight_t"))
	bias := must[*ctensor.Tensor](t)(st.Get("bias"))
	st.Close()
	st.Close()
	_, err = st.Get("bias")
	wantError(t, err, ctensor.StatusInvalid, "closed")
	// The tensors outlive the handle.
	if !reflect.DeepEqual(got.Sizes(), []int64{3, 2}) || !reflect.DeepEqual(values[float32](t, got), []float32{0, 3, 1, 4, 2, 5}) {
		t.Errorf("weight_t %v %v", got.Sizes(), values[float32](t, got))
	}
	if !reflect.DeepEqual(values[int64](t, bias), []int64{1, -1}) || !bias.IsReadOnly() {
		t.Errorf("bias %v", values[int64](t, bias))
	}
}

func TestMappedFilesAndSharedMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.bin")
	if err := os.WriteFile(path, []byte{0, 1, 2, 3, 4, 5, 6, 7}, 0o600); err != nil {
		t.Fatal(err)
	}
	view := func(s *ctensor.Storage, dtype ctensor.DType, n int64) *ctensor.Tensor {
		return must[*ctensor.Tensor](t)(ctensor.FromStorage(s, dtype, []int64{n}, nil, 0))
	}
	ro := must[*ctensor.Storage](t)(ctensor.MapFile(path, 2, 4, ctensor.MapRead))
	if !ro.IsReadOnly() || ro.Fd() != -1 || !reflect.DeepEqual(values[uint8](t, view(ro, ctensor.Uint8, 4)), []uint8{2, 3, 4, 5}) {
		t.Error("read-only mapping of bytes 2..6")
	}
	rw := must[*ctensor.Storage](t)(ctensor.MapFile(path, 4, 0, ctensor.MapWrite))
	if err := view(rw, ctensor.Uint8, 4).Fill(9); err != nil {
		t.Fatal(err)
	}
	private := must[*ctensor.Storage](t)(ctensor.MapFile(path, 0, 0, ctensor.MapPrivate))
	if err := view(private, ctensor.Uint8, 8).Fill(1); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !reflect.DeepEqual(got, []byte{0, 1, 2, 3, 9, 9, 9, 9}) {
		t.Errorf("file holds %v after a shared and a private write", got)
	}

	shared := must[*ctensor.Storage](t)(ctensor.NewSharedStorage(16))
	fd := shared.Fd()
	if fd < 0 {
		t.Fatal("a shared storage has a descriptor")
	}
	other := must[*ctensor.Storage](t)(ctensor.StorageFromFd(fd, 0, ctensor.MapWrite))
	if err := view(shared, ctensor.Int32, 4).Fill(42); err != nil {
		t.Fatal(err)
	}
	if got := values[int32](t, view(other, ctensor.Int32, 4)); !reflect.DeepEqual(got, []int32{42, 42, 42, 42}) {
		t.Errorf("the second mapping sees %v", got)
	}
	dup, err := syscall.Dup(fd)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(dup)
	shared.Close()
	_, err = ctensor.StorageFromFd(dup, 64, ctensor.MapRead)
	wantError(t, err, ctensor.StatusBounds, "")
	_, err = ctensor.StorageFromFd(-1, 0, ctensor.MapRead)
	wantError(t, err, ctensor.StatusInvalid, "")
	if plain := must[*ctensor.Storage](t)(ctensor.NewStorage(4)); plain.Fd() != -1 {
		t.Error("an owned storage has no descriptor")
	}
}

func TestLoadWithProgressAndCancel(t *testing.T) {
	dir := t.TempDir()
	npy, st := filepath.Join(dir, "big.npy"), filepath.Join(dir, "big.safetensors")
	x := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 5<<20)) // 20 MiB: three chunks
	defer x.Close()
	if err := x.SaveNpy(npy); err != nil {
		t.Fatal(err)
	}
	if err := ctensor.SaveSafeTensors(st, map[string]*ctensor.Tensor{"x": x}, nil); err != nil {
		t.Fatal(err)
	}
	const total = 20 << 20
	var calls [][2]uint64
	record := func(done, total uint64) bool {
		calls = append(calls, [2]uint64{done, total})
		return true
	}
	got := must[*ctensor.Tensor](t)(ctensor.LoadNpyWith(npy, ctensor.LoadCopy,
		ctensor.LoadOptions{Progress: record, Threads: 1}))
	defer got.Close()
	if len(calls) < 2 || calls[0] != [2]uint64{0, total} || calls[len(calls)-1] != [2]uint64{total, total} {
		t.Fatalf("progress calls %v, want (0, %d) first and (%d, %d) last", calls, total, total, total)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] < calls[i-1][0] {
			t.Fatalf("progress went back: %v", calls)
		}
	}
	calls = nil
	f := must[*ctensor.SafeTensors](t)(ctensor.OpenSafeTensorsWith(st, ctensor.LoadCopy,
		ctensor.LoadOptions{Progress: record, ProgressMinBytes: total + 1}))
	f.Close()
	if len(calls) != 0 {
		t.Errorf("a read under ProgressMinBytes reported %v", calls)
	}
	stop := func(done, total uint64) bool { return false }
	_, err := ctensor.LoadNpyWith(npy, ctensor.LoadCopy, ctensor.LoadOptions{Progress: stop})
	wantError(t, err, ctensor.StatusCancelled, "cancelled by the progress callback")
	_, err = ctensor.OpenSafeTensorsWith(st, ctensor.LoadCopy, ctensor.LoadOptions{Progress: stop})
	wantError(t, err, ctensor.StatusCancelled, "cancelled by the progress callback")
	_, err = ctensor.LoadNpyWith(npy, ctensor.LoadCopy, ctensor.LoadOptions{Threads: -1})
	wantError(t, err, ctensor.StatusInvalid, "Threads -1")
}
