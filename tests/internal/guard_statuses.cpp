// The facade's guards: every exception becomes a status and a message, and
// exceptions that are not ctensor's own become TENSOR_E_INTERNAL naming the op.
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "guard.hpp"

using namespace ctensor;

namespace {

int failures = 0;

void expect(tensor_status_t got, tensor_status_t want, const char* message) {
  if (got != want || std::strcmp(tensor_last_error(), message) != 0) {
    std::printf("FAIL: status %d (want %d), message \"%s\" (want \"%s\")\n", got, want, tensor_last_error(),
                message);
    ++failures;
  }
}

}  // namespace

int main() {
  expect(capi::guarded("op1", [](const char*) { throw std::logic_error("broken invariant"); }), TENSOR_E_INTERNAL,
         "op1: internal error: broken invariant");
  expect(capi::guarded("op2", [](const char*) { throw 42; }), TENSOR_E_INTERNAL, "unknown internal error");
  expect(capi::guarded("op3", [](const char*) { throw std::bad_alloc(); }), TENSOR_E_NOMEM, "out of memory");
  expect(capi::guarded("op4", [](const char* op) { core::fail(core::Status::Shape, op, ": mine"); }),
         TENSOR_E_SHAPE, "op4: mine");
  expect(capi::guarded("op5", [](const char*) {}), TENSOR_OK, "op4: mine");  // success keeps the message

  tensor_t* out = reinterpret_cast<tensor_t*>(&failures);  // any non-NULL value
  expect(capi::produce(static_cast<tensor_t**>(nullptr), "op6",
                       [](const char*) -> core::Ref<core::Tensor> { throw std::logic_error("not reached"); }),
         TENSOR_E_INVALID, "op6: out is NULL");
  expect(capi::produce(&out, "op7", [](const char*) -> core::Ref<core::Tensor> { throw std::runtime_error("x"); }),
         TENSOR_E_INTERNAL, "op7: internal error: x");
  if (out) {
    std::puts("FAIL: out not NULL after a failure");
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
