// Arrow C Data / C Device Data Interface exchange; the work and the checks are the
// core's (interop/arrow).
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "interop/arrow.hpp"
#include "decode.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_to_arrow(struct ArrowSchema* schema_out, struct ArrowArray* array_out, tensor_t* t,
                                uint32_t flags) {
  return capi::guarded("to_arrow", [&](const char* op) {
    core::clear_arrow_outputs(op, schema_out, array_out);
    core::Tensor& tensor = capi::arg(t, op);
    core::export_arrow(op, schema_out, array_out, tensor, capi::arrow_no_copy_arg(flags, op), false);
  });
}

tensor_status_t tensor_to_arrow_device(struct ArrowSchema* schema_out, struct ArrowDeviceArray* array_out,
                                       tensor_t* t, uint32_t flags) {
  return capi::guarded("to_arrow_device", [&](const char* op) {
    if (!array_out) core::fail(core::Status::Invalid, op, ": array_out is NULL");
    std::memset(array_out, 0, sizeof *array_out);
    core::clear_arrow_outputs(op, schema_out, &array_out->array);
    core::Tensor& tensor = capi::arg(t, op);
    core::export_arrow(op, schema_out, &array_out->array, tensor, capi::arrow_no_copy_arg(flags, op), true);
    const core::Device d = tensor.storage()->device();
    array_out->device_type = d.type;
    array_out->device_id = d.id;
  });
}

tensor_status_t tensor_from_arrow(tensor_t** out, struct ArrowSchema* schema, struct ArrowArray* array) {
  return capi::produce(out, "from_arrow",
                       [&](const char* op) { return core::import_arrow(op, schema, array, core::Device{}); });
}

tensor_status_t tensor_from_arrow_device(tensor_t** out, struct ArrowSchema* schema, struct ArrowDeviceArray* array) {
  return capi::produce(out, "from_arrow_device",
                       [&](const char* op) { return core::import_arrow_device(op, schema, array); });
}

tensor_status_t tensor_from_arrow_variable_shape(tensor_t*** out, int64_t* count, struct ArrowSchema* schema,
                                                 struct ArrowArray* array) {
  if (count) *count = 0;
  return capi::produce(out, "from_arrow_variable_shape", [&](const char* op) -> tensor_t** {
    if (!count) core::fail(core::Status::Invalid, op, ": count is NULL");
    // The list is allocated first, so that nothing can fail once the array is moved.
    const int64_t rows_hint = array && array->length > 0 ? array->length : 0;
    if (static_cast<uint64_t>(rows_hint) > SIZE_MAX / sizeof(tensor_t*)) throw std::bad_alloc();
    std::unique_ptr<tensor_t*, decltype(&std::free)> list(
        static_cast<tensor_t**>(std::malloc(static_cast<size_t>(rows_hint > 0 ? rows_hint : 1) * sizeof(tensor_t*))),
        &std::free);
    if (!list) throw std::bad_alloc();
    std::vector<core::Ref<core::Tensor>> rows = core::import_arrow_variable_shape(op, schema, array);
    if (rows.empty()) return static_cast<tensor_t**>(nullptr);
    for (size_t i = 0; i < rows.size(); i++) list.get()[i] = capi::to_handle(rows[i].leak());
    *count = static_cast<int64_t>(rows.size());
    return list.release();
  });
}

void tensor_arrow_list_release(tensor_t** list, int64_t count) {
  if (!list) return;
  for (int64_t i = 0; i < count; i++) tensor_release(list[i]);
  std::free(list);
}

}  // extern "C"
