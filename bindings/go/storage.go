package ctensor

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"sync"
)

// Storage is one reference to a libctensor storage: a refcounted byte buffer
// that tensors view. Close it like a Tensor; a cleanup releases it otherwise.
type Storage struct {
	mu      sync.RWMutex // as Tensor's
	ptr     *C.tensor_storage_t
	cleanup runtime.Cleanup
}

func releaseStorage(p *C.tensor_storage_t) { C.tensor_storage_release(p) }

// adoptStorage takes over one reference to p.
func adoptStorage(p *C.tensor_storage_t) *Storage {
	s := &Storage{ptr: p}
	s.cleanup = runtime.AddCleanup(s, releaseStorage, p)
	return s
}

func newStorage(r C.ct_result) (*Storage, error) {
	if r.status != C.TENSOR_OK {
		return nil, takeError(r)
	}
	return adoptStorage((*C.tensor_storage_t)(r.out)), nil
}

// NewStorage allocates an owned, zero-filled, writable storage of nbytes bytes.
func NewStorage(nbytes int) (*Storage, error) {
	if nbytes < 0 {
		return nil, errorf(StatusInvalid, "storage_new: nbytes %d is negative", nbytes)
	}
	return newStorage(C.ct_storage_new(C.size_t(nbytes)))
}

// Close releases the reference; idempotent, waits for calls in progress.
func (s *Storage) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr != nil {
		s.cleanup.Stop()
		C.tensor_storage_release(s.ptr)
		s.ptr = nil
	}
	return nil
}

// Nbytes is the storage's size in bytes (0 once closed).
func (s *Storage) Nbytes() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.tensor_storage_nbytes(s.ptr))
}

// IsReadOnly reports whether writes through any view fail with StatusReadOnly.
func (s *Storage) IsReadOnly() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return C.tensor_storage_is_readonly(s.ptr) != 0
}

// Refcount is the storage's reference count: this Storage's and one per tensor
// on it (0 once closed).
func (s *Storage) Refcount() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(C.tensor_storage_refcount(s.ptr))
}
