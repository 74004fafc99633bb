// Package arrowct moves ctensor tensors to and from arrow-go arrays through the
// Arrow C Data Interface (include/ctensor_arrow.h), without copying where the
// layout allows. It is its own module so that the ctensor package keeps no
// dependency on arrow-go.
//
// A tensor of ndim >= 2 becomes a FixedSizeList array whose field carries the
// canonical extension `arrow.fixed_shape_tensor` in its metadata
// (ARROW:extension:name, ARROW:extension:metadata with "shape" and, for a
// permuted layout, "permutation"); arrow-go registers no type for that
// extension, so the array is the storage array and the field says how to read
// it. A 1-d tensor becomes a primitive array. docs/arrow.md has the mapping.
package arrowct

/*
#cgo pkg-config: ctensor
#include <ctensor_arrow.h>
*/
import "C"

import (
	"unsafe"

	"ctensor"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/cdata"
)

// ToArrow exports t as an arrow-go array and the field describing it (see the
// package comment). The array views t's memory when a permutation describes
// t's layout (bool always copies, Arrow's bool being bit-packed); with noCopy a
// layout that needs a copy fails with a TENSOR_E_COPY error instead. The array
// holds its own reference to t until its last Release; t stays the caller's.
func ToArrow(t *ctensor.Tensor, noCopy bool) (arrow.Field, arrow.Array, error) {
	var schema cdata.CArrowSchema
	var array cdata.CArrowArray
	if err := t.ToArrowC(unsafe.Pointer(&schema), unsafe.Pointer(&array), noCopy); err != nil {
		return arrow.Field{}, nil, err
	}
	defer cdata.ReleaseCArrowSchema(&schema)
	field, arr, err := cdata.ImportCArray(&array, &schema)
	if err != nil {
		cdata.ReleaseCArrowArray(&array)
		return arrow.Field{}, nil, err
	}
	return field, arr, nil
}

// FromArrow is a read-only tensor viewing arr without copying (bool
// excepted): a FixedSizeList array (nested ones give one dim each) is
// [length, list_size, ...], a primitive array [length]. arr's offset is
// honoured and nulls are refused. The tensor keeps arr's buffers alive (its
// own reference, dropped when the last view of the tensor goes); the caller
// still releases arr as usual.
func FromArrow(arr arrow.Array) (*ctensor.Tensor, error) {
	return FromArrowField(arrow.Field{Name: "", Type: arr.DataType()}, arr)
}

// FromArrowField is FromArrow reading the array's type and metadata from
// field, so that an `arrow.fixed_shape_tensor` field (as ToArrow returns, or as
// read from IPC or Parquet) gives [length, *shape] with its permutation applied
// as strides. field.Type must be arr's type.
func FromArrowField(field arrow.Field, arr arrow.Array) (*ctensor.Tensor, error) {
	// A one-field schema exports the field with its metadata as child 0.
	var schema cdata.CArrowSchema
	cdata.ExportArrowSchema(arrow.NewSchema([]arrow.Field{field}, nil), &schema)
	defer cdata.ReleaseCArrowSchema(&schema)
	var array cdata.CArrowArray
	cdata.ExportArrowArray(arr, &array, nil)
	child := *(*C.struct_ArrowSchema)(unsafe.Pointer(&schema)).children
	t, err := ctensor.FromArrowC(unsafe.Pointer(child), unsafe.Pointer(&array))
	if err != nil {
		cdata.ReleaseCArrowArray(&array)
		return nil, err
	}
	return t, nil
}
