package ctensor

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// Files and shared memory (docs/files.md): mapped and fd-backed storages,
// NumPy .npy files and safetensors files.

// MapMode is how MapFile and StorageFromFd map memory.
type MapMode uint32

const (
	// MapRead maps shared and read-only: the storage refuses writes.
	MapRead MapMode = C.TENSOR_MAP_READ
	// MapWrite maps shared and writable: writes reach the file and every other mapping.
	MapWrite MapMode = C.TENSOR_MAP_WRITE
	// MapPrivate maps copy-on-write: writable, writes stay in this process.
	MapPrivate MapMode = C.TENSOR_MAP_PRIVATE
)

// LoadMode is how LoadNpy and OpenSafeTensors bring data in.
type LoadMode uint32

const (
	// LoadMapped maps the file read-only, zero-copy: the tensors are read-only.
	LoadMapped LoadMode = 0
	// LoadWritable maps it copy-on-write: zero-copy and writable, writes never reach the file.
	LoadWritable LoadMode = C.TENSOR_LOAD_WRITABLE
	// LoadCopy reads it into owned, writable memory; the file is not kept mapped.
	LoadCopy LoadMode = C.TENSOR_LOAD_COPY
)

// cString is s as a C string the caller frees, or StatusInvalid for a NUL byte
// (where C would cut the string short).
func cString(op, what, s string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, errorf(StatusInvalid, "%s: the %s %q holds a NUL byte", op, what, s)
	}
	return C.CString(s), nil
}

// withPath runs call with path as a C string.
func withPath[T any](op, path string, call func(p *C.char) (T, error)) (T, error) {
	p, err := cString(op, "path", path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer C.free(unsafe.Pointer(p))
	return call(p)
}

// MapFile maps bytes [offset, offset+nbytes) of the file at path (nbytes 0: to
// its end) as a storage without reading it. StatusIO when the file cannot be
// opened, StatusBounds for a range outside it (an empty file included).
func MapFile(path string, offset, nbytes uint64, mode MapMode) (*Storage, error) {
	return withPath("storage_map_file", path, func(p *C.char) (*Storage, error) {
		return newStorage(C.ct_storage_map_file(p, C.uint64_t(offset), C.uint64_t(nbytes), C.uint32_t(mode)))
	})
}

// NewSharedStorage allocates a zero-filled, writable storage of nbytes bytes in
// anonymous shared memory (memfd), to share with other processes through Fd.
func NewSharedStorage(nbytes int) (*Storage, error) {
	if nbytes < 0 {
		return nil, errorf(StatusInvalid, "storage_new_shared: nbytes %d is negative", nbytes)
	}
	return newStorage(C.ct_storage_new_shared(C.size_t(nbytes)))
}

// StorageFromFd maps the first nbytes bytes (0: all) of the file or shared
// memory behind fd. The descriptor is duplicated: the caller keeps and closes fd.
func StorageFromFd(fd int, nbytes int, mode MapMode) (*Storage, error) {
	if nbytes < 0 {
		return nil, errorf(StatusInvalid, "storage_from_fd: nbytes %d is negative", nbytes)
	}
	return newStorage(C.ct_storage_from_fd(C.int32_t(fd), C.size_t(nbytes), C.uint32_t(mode)))
}

// Fd is the descriptor behind a storage from NewSharedStorage or StorageFromFd,
// or -1 for any other (or closed) storage. It belongs to the storage and is
// closed with its last reference: syscall.Dup it to keep it longer.
func (s *Storage) Fd() int {
	p, err := s.open("fd")
	if err == nil {
		defer s.mu.RUnlock()
	}
	return int(C.tensor_storage_fd(p)) // -1 for NULL
}

// LoadNpy loads a NumPy .npy file (C or Fortran order; Fortran arrays become
// strided views). StatusIO for a missing file, StatusFormat for a corrupt one,
// StatusDType for a dtype ctensor lacks.
func LoadNpy(path string, mode LoadMode) (*Tensor, error) {
	return withPath("load_npy", path, func(p *C.char) (*Tensor, error) {
		return newTensor(C.ct_load_npy(p, C.uint32_t(mode)))
	})
}

// LoadOptions are the options of LoadNpyWith and OpenSafeTensorsWith; the
// zero value gives the defaults of LoadNpy and OpenSafeTensors.
type LoadOptions struct {
	// Progress, when not nil, is called while a LoadCopy load reads a file (and
	// only when the read is at least ProgressMinBytes), on the loading
	// goroutine, with done never decreasing: first (0, total), last (total,
	// total). Returning false cancels the load, which then fails with
	// StatusCancelled having freed what it made.
	Progress         func(done, total uint64) bool
	ProgressMinBytes uint64
	// Threads a LoadCopy read may use, the caller's included (0: NumThreads();
	// more is capped to it).
	Threads int
}

// withProgress runs call with a handle on o.Progress (0 when nil), deleted after.
func withProgress[T any](o LoadOptions, call func(h C.uintptr_t) (T, error)) (T, error) {
	if o.Progress == nil {
		return call(0)
	}
	h := cgo.NewHandle(o.Progress)
	defer h.Delete()
	return call(C.uintptr_t(h))
}

// ctensorProgressGo is the progress callback of LoadNpyWith and
// OpenSafeTensorsWith; it runs on the thread of the cgo call that loads.
//
//export ctensorProgressGo
func ctensorProgressGo(handle C.uintptr_t, done, total C.uint64_t) C.int32_t {
	if cgo.Handle(handle).Value().(func(done, total uint64) bool)(uint64(done), uint64(total)) {
		return 0
	}
	return 1
}

// LoadNpyWith is LoadNpy with options: a progress callback that may cancel
// (StatusCancelled), and the threads a LoadCopy read uses.
func LoadNpyWith(path string, mode LoadMode, o LoadOptions) (*Tensor, error) {
	if o.Threads < 0 || o.Threads > math.MaxInt32 {
		return nil, errorf(StatusInvalid, "load_npy_with: Threads %d is out of range", o.Threads)
	}
	return withPath("load_npy_with", path, func(p *C.char) (*Tensor, error) {
		return withProgress(o, func(h C.uintptr_t) (*Tensor, error) {
			return newTensor(C.ct_load_npy_with_go(p, C.uint32_t(mode), h, C.uint64_t(o.ProgressMinBytes),
				C.int32_t(o.Threads)))
		})
	})
}

// SaveNpy writes t (any strides) as a .npy file in C order, as NumPy 1.24's
// np.save does, to exactly path, atomically (a temporary file renamed over it).
// StatusDType for bfloat16.
func (t *Tensor) SaveNpy(path string) error {
	_, err := withPath("save_npy", path, func(p *C.char) (struct{}, error) {
		h, err := t.open("save_npy")
		if err != nil {
			return struct{}{}, err
		}
		defer t.mu.RUnlock()
		return struct{}{}, statusError(C.ct_save_npy(h, p))
	})
	return err
}

// SafeTensors is an open safetensors file: its validated header and its data,
// mapped (or read) once. Tensors got from it share the data and stay valid
// after Close; a cleanup releases the handle if Close is never called.
type SafeTensors struct {
	mu      sync.RWMutex // as Tensor's
	ptr     *C.tensor_safetensors_t
	cleanup runtime.Cleanup
}

func releaseSafeTensors(p *C.tensor_safetensors_t) { C.tensor_safetensors_release(p) }

// OpenSafeTensors opens and validates a safetensors file. StatusIO for a
// missing file, StatusFormat for a malformed one.
func OpenSafeTensors(path string, mode LoadMode) (*SafeTensors, error) {
	return withPath("safetensors_open", path, func(p *C.char) (*SafeTensors, error) {
		return newSafeTensors(C.ct_safetensors_open(p, C.uint32_t(mode)))
	})
}

// OpenSafeTensorsWith is OpenSafeTensors with the options of LoadNpyWith (the
// progress of a LoadCopy open counts the data section's bytes).
func OpenSafeTensorsWith(path string, mode LoadMode, o LoadOptions) (*SafeTensors, error) {
	if o.Threads < 0 || o.Threads > math.MaxInt32 {
		return nil, errorf(StatusInvalid, "safetensors_open_with: Threads %d is out of range", o.Threads)
	}
	return withPath("safetensors_open_with", path, func(p *C.char) (*SafeTensors, error) {
		return withProgress(o, func(h C.uintptr_t) (*SafeTensors, error) {
			return newSafeTensors(C.ct_safetensors_open_with_go(p, C.uint32_t(mode), h,
				C.uint64_t(o.ProgressMinBytes), C.int32_t(o.Threads)))
		})
	})
}

func newSafeTensors(r C.ct_result) (*SafeTensors, error) {
	if r.status != C.TENSOR_OK {
		return nil, takeError(r)
	}
	st := &SafeTensors{ptr: (*C.tensor_safetensors_t)(r.out)}
	st.cleanup = runtime.AddCleanup(st, releaseSafeTensors, st.ptr)
	return st, nil
}

// open is Tensor.open for a safetensors file.
func (st *SafeTensors) open(op string) (*C.tensor_safetensors_t, error) {
	if st == nil {
		return nil, nilError(op, "the *SafeTensors")
	}
	st.mu.RLock()
	if st.ptr == nil {
		st.mu.RUnlock()
		return nil, closedError(op)
	}
	return st.ptr, nil
}

// Close releases the handle; idempotent. Closing a nil *SafeTensors does nothing.
func (st *SafeTensors) Close() error {
	if st == nil {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ptr != nil {
		st.cleanup.Stop()
		C.tensor_safetensors_release(st.ptr)
		st.ptr = nil
	}
	return nil
}

// Len is the number of tensors in the file (0 once closed).
func (st *SafeTensors) Len() int {
	p, err := st.open("safetensors_count")
	if err == nil {
		defer st.mu.RUnlock()
	}
	return int(C.tensor_safetensors_count(p)) // 0 for NULL
}

// Names are the tensors' names in the order of the file's header (nil once closed).
func (st *SafeTensors) Names() []string {
	return st.strings("safetensors_name", func(p *C.tensor_safetensors_t) C.int64_t { return C.tensor_safetensors_count(p) },
		func(p *C.tensor_safetensors_t, i C.int64_t) *C.char { return C.tensor_safetensors_name(p, i) })
}

// strings lists the count(p) strings at(p, i) of an open handle; nil when there
// are none or st is nil or closed.
func (st *SafeTensors) strings(op string, count func(*C.tensor_safetensors_t) C.int64_t,
	at func(*C.tensor_safetensors_t, C.int64_t) *C.char) []string {
	p, err := st.open(op)
	if err != nil {
		return nil
	}
	defer st.mu.RUnlock()
	n := int64(count(p))
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = C.GoString(at(p, C.int64_t(i)))
	}
	return out
}

// Get is the tensor called name, a view sharing the file's data (zero-copy).
// StatusInvalid when there is none, StatusDType for F8 dtypes.
func (st *SafeTensors) Get(name string) (*Tensor, error) {
	p, err := st.open("safetensors_get")
	if err != nil {
		return nil, err
	}
	defer st.mu.RUnlock()
	c, err := cString("safetensors_get", "name", name)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(c))
	return newTensor(C.ct_safetensors_get(p, c))
}

// Metadata is the "__metadata__" value for key, and whether there is one.
func (st *SafeTensors) Metadata(key string) (string, bool) {
	p, err := st.open("safetensors_metadata")
	if err != nil {
		return "", false
	}
	defer st.mu.RUnlock()
	if strings.IndexByte(key, 0) >= 0 {
		return "", false
	}
	c := C.CString(key)
	defer C.free(unsafe.Pointer(c))
	value := C.tensor_safetensors_metadata(p, c)
	if value == nil {
		return "", false
	}
	return C.GoString(value), true
}

// MetadataKeys is every "__metadata__" key, in the order of the file's header
// (nil when there is none or st is closed); Metadata gives each value. Both come
// from the header read at open, not from the file as it is now.
func (st *SafeTensors) MetadataKeys() []string {
	return st.strings("safetensors_metadata_key",
		func(p *C.tensor_safetensors_t) C.int64_t { return C.tensor_safetensors_metadata_count(p) },
		func(p *C.tensor_safetensors_t, i C.int64_t) *C.char { return C.tensor_safetensors_metadata_key(p, i) })
}

// SaveSafeTensors writes tensors (any strides, stored in C order) under their
// names and the metadata pairs as a safetensors file, atomically. StatusInvalid
// for the name "__metadata__", StatusDType for complex128.
func SaveSafeTensors(path string, tensors map[string]*Tensor, metadata map[string]string) error {
	const op = "safetensors_save"
	var cstrings []*C.char
	defer func() {
		for _, c := range cstrings {
			C.free(unsafe.Pointer(c))
		}
	}()
	convert := func(what string, strs []string) ([]*C.char, error) {
		out := make([]*C.char, len(strs))
		for i, s := range strs {
			c, err := cString(op, what, s)
			if err != nil {
				return nil, err
			}
			cstrings = append(cstrings, c)
			out[i] = c
		}
		return out, nil
	}
	names := sortedKeys(tensors)
	keys := sortedKeys(metadata)
	values := make([]string, len(keys))
	for i, k := range keys {
		values[i] = metadata[k]
	}
	cPath, err := convert("path", []string{path})
	if err != nil {
		return err
	}
	cNames, err := convert("name", names)
	if err != nil {
		return err
	}
	cKeys, err := convert("metadata key", keys)
	if err != nil {
		return err
	}
	cValues, err := convert("metadata value", values)
	if err != nil {
		return err
	}
	held := make([]*Tensor, len(names))
	for i, name := range names {
		if held[i] = tensors[name]; held[i] == nil {
			return nilError(op, fmt.Sprintf("the tensor named %q", name))
		}
	}
	return withAll(op, held, func(handles []*C.tensor_t) error {
		// The slices hold C pointers only, so cgo lets C read them in place.
		return statusError(C.ct_safetensors_save(cPath[0], C.int64_t(len(names)), cStrings(cNames),
			(**C.tensor_t)(unsafe.Pointer(unsafe.SliceData(handles))), C.int64_t(len(keys)), cStrings(cKeys),
			cStrings(cValues)))
	})
}

func cStrings(s []*C.char) **C.char { return (**C.char)(unsafe.Pointer(unsafe.SliceData(s))) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
