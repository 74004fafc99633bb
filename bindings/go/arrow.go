package ctensor

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// ToArrowC exports t through the Arrow C Data Interface (include/ctensor_arrow.h,
// tensor_to_arrow): schema and array point to zeroed C structs ArrowSchema and
// ArrowArray (C memory, e.g. arrow-go's cdata.CArrowSchema and CArrowArray) that
// receive an `arrow.fixed_shape_tensor` array for ndim >= 2 and a primitive array
// for ndim 1, without copying where a permutation describes t's layout. With
// noCopy, a layout that would need a copy fails (a TENSOR_E_COPY error). On
// success the caller releases both structs once each (or hands them to an Arrow
// importer); they hold their own reference to t. The ctensor/arrowct module
// wraps this for arrow-go.
func (t *Tensor) ToArrowC(schema, array unsafe.Pointer, noCopy bool) error {
	p, err := t.open("to_arrow")
	if err != nil {
		return err
	}
	defer t.mu.RUnlock()
	var flags C.uint32_t
	if noCopy {
		flags = C.TENSOR_ARROW_NO_COPY
	}
	r := C.ct_to_arrow((*C.struct_ArrowSchema)(schema), (*C.struct_ArrowArray)(array), p, flags)
	if r.status != C.TENSOR_OK {
		return takeError(r)
	}
	return nil
}

// FromArrowC is a read-only tensor viewing an Arrow array given as C structs
// ArrowSchema and ArrowArray (tensor_from_arrow): `arrow.fixed_shape_tensor`
// gives [length, *shape] (its permutation applied as strides), a FixedSizeList
// without extension [length, list_size, ...], a primitive array [length]. Zero-copy
// (bool excepted). The schema is only read. On success the array is moved: its
// release is set to NULL and ctensor calls the producer's release when the last
// view is gone; on failure it is untouched and the caller still releases it.
func FromArrowC(schema, array unsafe.Pointer) (*Tensor, error) {
	return newTensor(C.ct_from_arrow((*C.struct_ArrowSchema)(schema), (*C.struct_ArrowArray)(array)))
}
