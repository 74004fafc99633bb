/* What the generated boundary test (gen_boundary.py) calls with: valid
   arguments, the results it releases, and how failures are reported. */
#ifndef CTENSOR_TESTS_BOUNDARY_FIXTURE_H
#define CTENSOR_TESTS_BOUNDARY_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctensor.h"

/* A value no call writes: outputs still holding it were not touched. */
#define UNTOUCHED ((void *)(uintptr_t)0x10)

static struct {
  tensor_t *t;          /* a writable [2, 3] float32 tensor */
  tensor_storage_t *s;  /* a 24-byte storage */
  int64_t sizes[2], strides[2], dims[2];
  _Alignas(64) unsigned char buffer[64];
  const tensor_t *tensors[1];  /* {t} */
  const char *names[1];        /* {"a"} */
} fx = {NULL, NULL, {2, 3}, {3, 1}, {1, 0}, {0}, {NULL}, {"a"}};

static tensor_t *out_tensor;
static tensor_storage_t *out_storage;
static DLManagedTensorVersioned *out_managed;
static DLManagedTensor *out_legacy;
static int32_t out_i32;
static int failures, cases, valid_calls;

static void reset_outputs(void) {
  out_tensor = UNTOUCHED;
  out_storage = UNTOUCHED;
  out_managed = UNTOUCHED;
  out_legacy = UNTOUCHED;
  ++cases;
}

static void release_outputs(void) {
  if (out_tensor != UNTOUCHED) tensor_release(out_tensor);
  if (out_storage != UNTOUCHED) tensor_storage_release(out_storage);
  if (out_managed != UNTOUCHED && out_managed) out_managed->deleter(out_managed);
  if (out_legacy != UNTOUCHED && out_legacy) out_legacy->deleter(out_legacy);
}

static void fail_case(const char *what, const char *why) {
  fprintf(stderr, "FAIL %s: %s (last error: \"%s\")\n", what, why, tensor_last_error());
  ++failures;
}

static void expect_invalid(tensor_status_t st, const char *what, const char *op) {
  if (st != TENSOR_E_INVALID) {
    char why[96];
    snprintf(why, sizeof why, "gave %s, not TENSOR_E_INVALID", tensor_status_name(st));
    fail_case(what, why);
  } else if (!strstr(tensor_last_error(), op)) {
    fail_case(what, "message does not name the function");
  }
}

/* Managed tensors to import: exported from the fixture each time. */
static DLManagedTensorVersioned *fresh_managed(void) {
  DLManagedTensorVersioned *m = NULL;
  if (tensor_to_dlpack(&m, fx.t, 0) != TENSOR_OK) abort();
  return m;
}
static DLManagedTensor *fresh_legacy(void) {
  DLManagedTensor *m = NULL;
  if (tensor_to_dlpack_legacy(&m, fx.t) != TENSOR_OK) abort();
  return m;
}
static void delete_managed(void *p) {
  DLManagedTensorVersioned *m = p;
  if (m) m->deleter(m);
}
static void delete_legacy(void *p) {
  DLManagedTensor *m = p;
  if (m) m->deleter(m);
}

#endif
