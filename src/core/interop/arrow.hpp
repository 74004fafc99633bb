// Arrow C Data / C Device Data Interface exchange. Export describes a tensor as
// an `arrow.fixed_shape_tensor` (or a primitive array for 1-d) whose structs
// hold a tensor reference; import views the producer's buffers in a storage
// whose release runs the producer's release. Only bool (bit-packed in Arrow)
// and layouts no permutation describes are copied, on export, through layout's
// contiguous(); import copies bool alone.
#pragma once

#include <cstdint>
#include <vector>

#include "layout/tensor.hpp"
#include "ctensor_arrow.h"

namespace ctensor::core {

// Error(Invalid) if schema or array is NULL, else marks both released (release
// NULL), as a failed export leaves them.
void clear_arrow_outputs(const char* op, ArrowSchema* schema, ArrowArray* array);

// tensor_to_arrow(_device): fills *schema and *array (release set) or throws
// with both left released. `no_copy`: Error(Copy) where the export would copy.
// `any_device`: memory on a device the CPU cannot read is exported when no copy
// is needed (else Error(Device)).
void export_arrow(const char* op, ArrowSchema* schema, ArrowArray* array, Tensor& t, bool no_copy,
                  bool any_device);

// tensor_from_arrow(_device): a read-only tensor viewing `array`, which is moved
// (array->release set to NULL) only on success. `device` is where the buffers are.
Ref<Tensor> import_arrow(const char* op, const ArrowSchema* schema, ArrowArray* array, Device device);

// tensor_from_arrow_device: import_arrow of array->array on array's device.
// Invalid (NULL array), Unsupported (a sync event: ctensor cannot wait on one),
// Format (a device id that does not fit DLPack's int32).
Ref<Tensor> import_arrow_device(const char* op, const ArrowSchema* schema, ArrowDeviceArray* array);

// tensor_from_arrow_variable_shape: one view per row, `array` moved only on success.
std::vector<Ref<Tensor>> import_arrow_variable_shape(const char* op, const ArrowSchema* schema,
                                                     ArrowArray* array);

}  // namespace ctensor::core
