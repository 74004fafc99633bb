package ctensor_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ctensor"
)

// handleFuncs are the package's exported functions that take handles, by name;
// TestNilHandlesGiveErrInvalid fails when the source has one not listed here,
// so a new entry point cannot skip the nil test. Generic ones are instantiated.
var handleFuncs = map[string]any{
	"Cat":             ctensor.Cat,
	"Stack":           ctensor.Stack,
	"FromStorage":     ctensor.FromStorage,
	"SaveSafeTensors": ctensor.SaveSafeTensors,
	"Data":            ctensor.Data[float32],
	"DataReadOnly":    ctensor.DataReadOnly[float32],
}

var (
	tensorType      = reflect.TypeFor[*ctensor.Tensor]()
	storageType     = reflect.TypeFor[*ctensor.Storage]()
	safeTensorsType = reflect.TypeFor[*ctensor.SafeTensors]()
	errorType       = reflect.TypeFor[error]()
)

// isHandle: a handle type, or a slice or map of one.
func isHandle(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return isHandle(t.Elem())
	}
	return t == tensorType || t == storageType || t == safeTensorsType
}

// sourceHandleFuncs lists the exported functions (not methods) of the package's
// source whose parameters mention Tensor, Storage or SafeTensors.
func sourceHandleFuncs(t *testing.T) []string {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	mentions := regexp.MustCompile(`\b(Tensor|Storage|SafeTensors)\b`)
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() {
				continue
			}
			params := src[fset.Position(fn.Type.Params.Pos()).Offset:fset.Position(fn.Type.Params.End()).Offset]
			if mentions.Match(params) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// handles makes the valid handles the calls get where no nil is placed.
type handles struct {
	tensor  *ctensor.Tensor
	storage *ctensor.Storage
	st      *ctensor.SafeTensors
	dir     string
}

func newHandles(t *testing.T) *handles {
	h := &handles{dir: t.TempDir()}
	h.tensor = must[*ctensor.Tensor](t)(ctensor.FromSlice([]float32{1, 2}, 2))
	h.storage = must[*ctensor.Storage](t)(ctensor.NewStorage(8))
	path := filepath.Join(h.dir, "one.safetensors")
	if err := ctensor.SaveSafeTensors(path, map[string]*ctensor.Tensor{"x": h.tensor}, nil); err != nil {
		t.Fatal(err)
	}
	h.st = must[*ctensor.SafeTensors](t)(ctensor.OpenSafeTensors(path, ctensor.LoadCopy))
	return h
}

// value is an argument of type typ: a valid handle, or with withNil a nil one
// (for a slice or map, one valid element and one nil); other types get their
// zero value, strings a path in the test's directory.
func (h *handles) value(typ reflect.Type, withNil bool) reflect.Value {
	switch {
	case typ.Kind() == reflect.Slice && isHandle(typ.Elem()):
		s := reflect.MakeSlice(typ, 0, 2)
		return reflect.Append(s, h.value(typ.Elem(), false), h.value(typ.Elem(), withNil))
	case typ.Kind() == reflect.Map && isHandle(typ.Elem()):
		m := reflect.MakeMap(typ)
		m.SetMapIndex(reflect.ValueOf("a"), h.value(typ.Elem(), false))
		m.SetMapIndex(reflect.ValueOf("b"), h.value(typ.Elem(), withNil))
		return m
	case withNil && isHandle(typ):
		return reflect.Zero(typ)
	case typ == tensorType:
		return reflect.ValueOf(h.tensor)
	case typ == storageType:
		return reflect.ValueOf(h.storage)
	case typ == safeTensorsType:
		return reflect.ValueOf(h.st)
	case typ.Kind() == reflect.String:
		return reflect.ValueOf(filepath.Join(h.dir, "out")).Convert(typ)
	}
	return reflect.Zero(typ)
}

// call runs fn with a nil in parameter nilAt and returns its results, or the
// panic's value.
func (h *handles) call(fn reflect.Value, nilAt int) (out []reflect.Value, panicked any) {
	typ := fn.Type()
	args := make([]reflect.Value, typ.NumIn())
	for i := range args {
		args[i] = h.value(typ.In(i), i == nilAt)
	}
	defer func() { panicked = recover() }()
	if typ.IsVariadic() {
		return fn.CallSlice(args), nil
	}
	return fn.Call(args), nil
}

// checkNil calls fn (methods with the receiver first) with nil in each handle
// position in turn: no call may panic; a call returning an error must return
// one matching ErrInvalid that says what was nil; one without an error must
// return what it returns for a closed handle (closed(), nil when none applies).
func checkNil(t *testing.T, h *handles, name string, fn reflect.Value, closed func() []reflect.Value) {
	typ := fn.Type()
	for pos := range typ.NumIn() {
		if !isHandle(typ.In(pos)) {
			continue
		}
		out, panicked := h.call(fn, pos)
		where := name + " with a nil in parameter " + itoa(pos)
		switch {
		case panicked != nil:
			t.Errorf("%s panics: %v", where, panicked)
		case typ.NumOut() > 0 && typ.Out(typ.NumOut()-1) == errorType:
			err, _ := out[len(out)-1].Interface().(error)
			if !errors.Is(err, ctensor.ErrInvalid) || !strings.Contains(err.Error(), "nil") {
				t.Errorf("%s returns %v, want an ErrInvalid naming the nil", where, err)
			}
		case closed != nil && pos == 0:
			want := closed()
			for i := range out {
				if !reflect.DeepEqual(out[i].Interface(), want[i].Interface()) {
					t.Errorf("%s returns %v, want %v as for a closed handle", where, out[i], want[i])
				}
			}
		}
	}
}

// nilReceiverExceptions: methods whose nil receiver behaves on purpose unlike
// a closed handle. Close does nothing and returns nil, as tensor_release(NULL)
// does, so `defer x.Close()` is harmless after a failed constructor; String
// says "Tensor(nil)" rather than "Tensor(closed)".
var nilReceiverExceptions = map[string]bool{
	"*ctensor.Tensor.Close": true, "*ctensor.Storage.Close": true, "*ctensor.SafeTensors.Close": true,
	"*ctensor.Tensor.String": true,
}

func TestNilHandlesGiveErrInvalid(t *testing.T) {
	h := newHandles(t)
	defer h.tensor.Close()
	defer h.storage.Close()
	defer h.st.Close()

	if got, want := sourceHandleFuncs(t), slices.Sorted(maps.Keys(handleFuncs)); !slices.Equal(got, want) {
		t.Fatalf("exported functions taking handles %v, but handleFuncs lists %v", got, want)
	}
	for _, name := range slices.Sorted(maps.Keys(handleFuncs)) {
		checkNil(t, h, name, reflect.ValueOf(handleFuncs[name]), nil)
	}

	closedTensor := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 2))
	closedTensor.Close()
	closedStorage := must[*ctensor.Storage](t)(ctensor.NewStorage(8))
	closedStorage.Close()
	closedSt := must[*ctensor.SafeTensors](t)(ctensor.OpenSafeTensors(filepath.Join(h.dir, "one.safetensors"),
		ctensor.LoadCopy))
	closedSt.Close()
	methods := 0
	for _, c := range []struct {
		typ    reflect.Type
		closed reflect.Value
	}{{tensorType, reflect.ValueOf(closedTensor)}, {storageType, reflect.ValueOf(closedStorage)},
		{safeTensorsType, reflect.ValueOf(closedSt)}} {
		for i := range c.typ.NumMethod() {
			m := c.typ.Method(i)
			name := c.typ.String() + "." + m.Name
			methods++
			if nilReceiverExceptions[name] {
				continue
			}
			closed := func() []reflect.Value {
				args := []reflect.Value{c.closed}
				for j := 1; j < m.Type.NumIn(); j++ {
					args = append(args, h.value(m.Type.In(j), false))
				}
				if m.Type.IsVariadic() {
					return m.Func.CallSlice(args)
				}
				return m.Func.Call(args)
			}
			checkNil(t, h, name, m.Func, closed)
		}
	}
	if methods < 80 { // 84 without the ctensor_experimental tag, more with it
		t.Errorf("only %d methods enumerated", methods)
	}
	var nilTensor *ctensor.Tensor
	var nilStorage *ctensor.Storage
	var nilSt *ctensor.SafeTensors
	if nilTensor.Close() != nil || nilStorage.Close() != nil || nilSt.Close() != nil {
		t.Error("closing a nil handle should do nothing")
	}
	if got := nilTensor.String(); got != "Tensor(nil)" {
		t.Errorf("nil String() = %q", got)
	}
}

// The issue's four panicking calls, by hand.
func TestNilArgumentsOfTheIssue(t *testing.T) {
	x := must[*ctensor.Tensor](t)(ctensor.Zeros(ctensor.Float32, 2))
	defer x.Close()
	_, err := x.Add(nil)
	wantError(t, err, ctensor.StatusInvalid, "add: tensor 1 of 2 is nil")
	_, err = ctensor.Cat([]*ctensor.Tensor{x, nil}, 0)
	wantError(t, err, ctensor.StatusInvalid, "cat: tensor 1 of 2 is nil")
	wantError(t, x.CopyFrom(nil), ctensor.StatusInvalid, "copy: tensor 1 of 2 is nil")
	err = ctensor.SaveSafeTensors(filepath.Join(t.TempDir(), "x.safetensors"),
		map[string]*ctensor.Tensor{"x": x, "y": nil}, nil)
	wantError(t, err, ctensor.StatusInvalid, `safetensors_save: the tensor named "y" is nil`)
	if !errors.Is(err, ctensor.ErrInvalid) {
		t.Error("not an ErrInvalid")
	}
}

// Every status code of the header has its Go constant, named as the library names it.
func TestStatusesMatchTheHeader(t *testing.T) {
	header, err := os.ReadFile("../../include/ctensor.h")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("ctensor.go")
	if err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`(?m)^#define (TENSOR_(?:OK|E_[A-Z_]+)) (\d+)`).FindAllStringSubmatch(string(header), -1)
	if len(codes) < 16 {
		t.Fatalf("only %d status codes found in the header", len(codes))
	}
	for _, c := range codes {
		if !regexp.MustCompile(`Status\w+ +Status = C\.` + c[1] + `\n`).Match(src) {
			t.Errorf("no Go constant for %s", c[1])
		}
		if got := ctensor.Status(atoi(t, c[2])).String(); got != c[1] {
			t.Errorf("Status(%s) is %s, want %s", c[2], got, c[1])
		}
	}
	if ctensor.StatusInternal != 15 || ctensor.StatusInternal.String() != "TENSOR_E_INTERNAL" {
		t.Errorf("StatusInternal = %d (%v)", ctensor.StatusInternal, ctensor.StatusInternal)
	}
}

func atoi(t *testing.T, s string) int32 {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return int32(n)
}
