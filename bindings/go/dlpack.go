package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// ToDLPack exports t without copying as a DLPack 1.x DLManagedTensorVersioned
// (as an unsafe.Pointer, for C code or another cgo package). It holds its own
// reference to t; whoever holds it must call its deleter exactly once, or hand
// it to FromDLPack.
func (t *Tensor) ToDLPack() (unsafe.Pointer, error) {
	p, err := t.open("to_dlpack")
	if err != nil {
		return nil, err
	}
	defer t.mu.RUnlock()
	r := C.ct_to_dlpack(p)
	if r.status != C.TENSOR_OK {
		return nil, takeError(r)
	}
	return r.out, nil
}

// FromDLPack is a tensor viewing the memory a DLManagedTensorVersioned (C
// memory, e.g. from ToDLPack or a C library) describes, without copying. On
// success the tensor owns m and calls its deleter when the last view is gone;
// on failure m is untouched and the caller still deletes it.
func FromDLPack(m unsafe.Pointer) (*Tensor, error) {
	return newTensor(C.ct_from_dlpack((*C.DLManagedTensorVersioned)(m)))
}
