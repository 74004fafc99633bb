/* tensor_storage_move_to_shared: a storage moves into shared memory in place, so
   every tensor viewing it (views made before the move included) sees the shared
   memory, as PyTorch's share_memory_; exported (pinned) storages, read-write file
   mappings and device memory are refused. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "common.h"
#include "ctensor_arrow.h"

static int releases;
static void count_release(void *ctx) {
  (void)ctx;
  releases++;
}

static tensor_t *int32_tensor(int64_t n) {
  tensor_t *t = NULL;
  ck_ok(tensor_zeros(&t, 1, &n, TENSOR_INT32));
  return t;
}

/* Writes `value` at byte offset `at` of s's shared memory through a second
   mapping of its descriptor, as another process that received it would. */
static void write_through_descriptor(const tensor_storage_t *s, size_t at, int32_t value) {
  tensor_storage_t *other = NULL;
  ck_ok(tensor_storage_from_fd(&other, tensor_storage_fd(s), 0, TENSOR_MAP_WRITE));
  ck_assert_ptr_ne(tensor_storage_data(other), tensor_storage_data(s));
  memcpy((char *)tensor_storage_data(other) + at, &value, sizeof value);
  tensor_storage_release(other);
}

START_TEST(views_made_before_the_move_see_the_shared_memory) {
  tensor_t *buf = int32_tensor(4), *head = NULL;
  ck_ok(tensor_narrow(&head, buf, 0, 0, 2));
  int32_t *p = tensor_data(buf);
  for (int i = 0; i < 4; ++i) p[i] = i + 1;
  tensor_storage_t *s = tensor_storage(buf);
  ck_assert_int_eq(tensor_storage_fd(s), -1);
  const int64_t refs = tensor_storage_refcount(s);
  ck_ok(tensor_storage_move_to_shared(s));
  /* the same storage object, now fd-backed, holding the same bytes */
  ck_assert_ptr_eq(tensor_storage(head), s);
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  ck_assert_int_eq(tensor_storage_refcount(s), refs);
  ck_assert_uint_eq(tensor_storage_nbytes(s), 16);
  ck_assert_int_eq(tensor_is_readonly(buf), 0);
  const int32_t *h = tensor_data(head);
  ck_assert_ptr_eq(h, tensor_storage_data(s));
  ck_assert_int_eq(h[0], 1);
  ck_assert_int_eq(h[1], 2);
  ck_assert_int_eq(((const int32_t *)tensor_data(buf))[3], 4);
  /* another process writing into the shared memory: the earlier view sees it */
  write_through_descriptor(s, 0, 42);
  ck_assert_int_eq(h[0], 42);
  /* moving again does nothing */
  ck_ok(tensor_storage_move_to_shared(s));
  ck_assert_ptr_eq(tensor_data(head), h);
  tensor_release(head);
  tensor_release(buf);
}
END_TEST

START_TEST(wrapped_memory_is_copied_and_released_during_the_move) {
  int32_t mine[3] = {7, 8, 9};
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  releases = 0;
  ck_ok(tensor_storage_wrap(&s, mine, sizeof mine, TENSOR_READONLY, count_release, NULL));
  const int64_t n = 3;
  ck_ok(tensor_from_storage(&t, s, TENSOR_INT32, 1, &n, NULL, 0));
  ck_ok(tensor_storage_move_to_shared(s));
  ck_assert_int_eq(releases, 1); /* the caller's memory is given back at once */
  ck_assert_ptr_ne(tensor_storage_data(s), mine);
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  ck_assert_int_eq(tensor_is_readonly(t), 1); /* read-only stays read-only */
  ck_status(tensor_fill(t, 1), TENSOR_E_READONLY);
  const int32_t *p = tensor_data(t);
  ck_assert(p[0] == 7 && p[1] == 8 && p[2] == 9);
  mine[0] = 0; /* no longer shared with the tensor */
  ck_assert_int_eq(p[0], 7);
  tensor_storage_release(s);
  tensor_release(t);
  ck_assert_int_eq(releases, 1);
}
END_TEST

START_TEST(empty_and_shared_storages) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 0));
  ck_ok(tensor_storage_move_to_shared(s));
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(s), 0);
  tensor_storage_release(s);
  ck_ok(tensor_storage_new_shared(&s, 64));
  void *p = tensor_storage_data(s);
  const int fd = tensor_storage_fd(s);
  ck_ok(tensor_storage_move_to_shared(s));
  ck_assert_ptr_eq(tensor_storage_data(s), p);
  ck_assert_int_eq(tensor_storage_fd(s), fd);
  tensor_storage_release(s);
  ck_status(tensor_storage_move_to_shared(NULL), TENSOR_E_INVALID);
}
END_TEST

static void assert_refused_while_exported(tensor_storage_t *s) {
  void *before = tensor_storage_data(s);
  ck_status(tensor_storage_move_to_shared(s), TENSOR_E_INVALID);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "exported"));
  ck_assert_ptr_eq(tensor_storage_data(s), before);
  ck_assert_int_eq(tensor_storage_fd(s), -1);
}

START_TEST(pinned_storages_are_refused) {
  tensor_t *t = int32_tensor(4);
  tensor_storage_t *s = tensor_storage(t);
  tensor_storage_pin(s);
  tensor_storage_pin(s);
  assert_refused_while_exported(s);
  tensor_storage_unpin(s);
  assert_refused_while_exported(s); /* pins count */
  tensor_storage_unpin(s);
  tensor_storage_pin(NULL);
  tensor_storage_unpin(NULL);

  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_to_dlpack(&m, t, 0));
  assert_refused_while_exported(s);
  m->deleter(m);
  DLManagedTensor *legacy = NULL;
  ck_ok(tensor_to_dlpack_legacy(&legacy, t));
  assert_refused_while_exported(s);
  legacy->deleter(legacy);

  struct ArrowSchema schema;
  struct ArrowArray array;
  ck_ok(tensor_to_arrow(&schema, &array, t, TENSOR_ARROW_NO_COPY));
  assert_refused_while_exported(s);
  array.release(&array);
  schema.release(&schema);

  ck_ok(tensor_storage_move_to_shared(s)); /* every export is gone */
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  tensor_release(t);
}
END_TEST

START_TEST(file_mappings) {
  char dir[] = "/tmp/ctensor-shared-XXXXXX", path[64];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/f.bin", dir);
  FILE *f = fopen(path, "wb");
  const unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ck_assert_uint_eq(fwrite(bytes, 1, sizeof bytes, f), sizeof bytes);
  fclose(f);
  tensor_storage_t *s = NULL;
  /* read-write: writes must keep reaching the file, which shared memory would not do */
  ck_ok(tensor_storage_map_file(&s, path, 0, 0, TENSOR_MAP_WRITE));
  ck_status(tensor_storage_move_to_shared(s), TENSOR_E_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "file"));
  ck_assert_int_eq(tensor_storage_fd(s), -1);
  tensor_storage_release(s);
  /* copy-on-write and read-only mappings move (read-only stays read-only) */
  ck_ok(tensor_storage_map_file(&s, path, 0, 0, TENSOR_MAP_PRIVATE));
  ck_ok(tensor_storage_move_to_shared(s));
  unsigned char *p = tensor_storage_data(s);
  ck_assert_uint_eq(p[7], 8);
  p[0] = 9;
  tensor_storage_release(s);
  ck_ok(tensor_storage_map_file(&s, path, 0, 0, TENSOR_MAP_READ));
  ck_ok(tensor_storage_move_to_shared(s));
  ck_assert_int_eq(tensor_storage_is_readonly(s), 1);
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  ck_assert_uint_eq(((unsigned char *)tensor_storage_data(s))[0], 1); /* the file never changed */
  tensor_storage_release(s);
  unlink(path);
  rmdir(dir);
}
END_TEST

static void no_deleter(DLManagedTensor *m) { (void)m; }

START_TEST(device_memory_is_refused) {
  DLManagedTensor m;
  int64_t shape[1] = {4};
  fake_device_tensor(&m, shape, no_deleter);
  tensor_t *t = NULL;
  ck_ok(tensor_from_dlpack_legacy(&t, &m));
  ck_status(tensor_storage_move_to_shared(tensor_storage(t)), TENSOR_E_DEVICE);
  tensor_release(t);
}
END_TEST

static Suite *shared_memory_suite(void) {
  Suite *s = suite_create("shared_memory");
  TCase *tc = tcase_create("move_to_shared");
  tcase_add_test(tc, views_made_before_the_move_see_the_shared_memory);
  tcase_add_test(tc, wrapped_memory_is_copied_and_released_during_the_move);
  tcase_add_test(tc, empty_and_shared_storages);
  tcase_add_test(tc, pinned_storages_are_refused);
  tcase_add_test(tc, file_mappings);
  tcase_add_test(tc, device_memory_is_refused);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(shared_memory_suite()); }
