// The library's version, spelled from the header's version macros.
#include "ctensor.h"

namespace {

#define CTENSOR_STRINGIFY_(x) #x
#define CTENSOR_STRINGIFY(x) CTENSOR_STRINGIFY_(x)
constexpr char kVersion[] = CTENSOR_STRINGIFY(CTENSOR_VERSION_MAJOR) "." CTENSOR_STRINGIFY(
    CTENSOR_VERSION_MINOR) "." CTENSOR_STRINGIFY(CTENSOR_VERSION_PATCH);

constexpr bool same(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}
// src/meson.build passes the project version, so the two cannot drift apart.
static_assert(same(kVersion, CTENSOR_PROJECT_VERSION), "ctensor.h's CTENSOR_VERSION_* differ from meson.build's version");

}  // namespace

extern "C" {

const char* tensor_version_string(void) { return kVersion; }

int32_t tensor_version_number(void) { return CTENSOR_VERSION_NUMBER; }

}  // extern "C"
