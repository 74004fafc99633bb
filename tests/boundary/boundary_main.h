/* The generated test's main: builds the fixture, runs every function's cases,
   checks the fixture survived them, and reports. */
int main(void) {
  if (tensor_zeros(&fx.t, 2, fx.sizes, TENSOR_FLOAT32) != TENSOR_OK) return 2;
  if (tensor_storage_new(&fx.s, 24) != TENSOR_OK) return 2;
  fx.tensors[0] = fx.t;
  for (int i = 0; i < n_functions; ++i) all_tests[i]();
  release_extras();
  if (tensor_refcount(fx.t) != 1 || tensor_storage_refcount(fx.s) != 1 ||
      tensor_storage_refcount(tensor_storage(fx.t)) != 1)
    fail_case("fixture", "references not back where they started");
  tensor_release(fx.t);
  tensor_storage_release(fx.s);
  printf("boundary: %d functions, %d cases (%d valid calls), %d failures\n", n_functions, cases, valid_calls,
         failures);
  return failures == 0 ? 0 : 1;
}
