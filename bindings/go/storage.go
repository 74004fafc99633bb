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

// open is Tensor.open for a storage.
func (s *Storage) open(op string) (*C.tensor_storage_t, error) {
	if s == nil {
		return nil, nilError(op, "the *Storage")
	}
	s.mu.RLock()
	if s.ptr == nil {
		s.mu.RUnlock()
		return nil, closedError(op)
	}
	return s.ptr, nil
}

// Close releases the reference; idempotent, waits for calls in progress.
// Closing a nil *Storage does nothing.
func (s *Storage) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr != nil {
		s.cleanup.Stop()
		C.tensor_storage_release(s.ptr)
		s.ptr = nil
	}
	return nil
}

// Nbytes is the storage's size in bytes (0 once closed, or for a nil s).
func (s *Storage) Nbytes() int {
	p, err := s.open("")
	if err == nil {
		defer s.mu.RUnlock()
	}
	return int(C.tensor_storage_nbytes(p)) // the C getter's zero value for NULL
}

// IsReadOnly reports whether writes through any view fail with StatusReadOnly.
func (s *Storage) IsReadOnly() bool {
	p, err := s.open("")
	if err == nil {
		defer s.mu.RUnlock()
	}
	return C.tensor_storage_is_readonly(p) != 0 // the C getter's zero value for NULL
}

// Refcount is the storage's reference count: this Storage's and one per tensor
// on it (0 once closed, or for a nil s).
func (s *Storage) Refcount() int64 {
	p, err := s.open("")
	if err == nil {
		defer s.mu.RUnlock()
	}
	return int64(C.tensor_storage_refcount(p)) // the C getter's zero value for NULL
}
