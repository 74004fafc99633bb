/* Files and shared memory: mapped storages, memfd sharing across processes
   (fork, SCM_RIGHTS), descriptor accounting, .npy and safetensors, and
   truncated or malicious files of every kind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "safetensors_header_cases.h"

/* A pointer no call returns, to see that failures write NULL into *out. */
#define SENTINEL_ANY ((void *)(uintptr_t)0x1)

/* ---- helpers ------------------------------------------------------------ */

static char dir[256];

static void make_dir(void) {
  strcpy(dir, "/tmp/ctensor-files-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[512];
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

static const char *in_dir(const char *name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(data, 1, n, f), n);
  ck_assert_int_eq(fclose(f), 0);
}

/* Reads a whole file into a malloc'd buffer; *n receives its size. */
static unsigned char *read_bytes(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(*n ? *n : 1);
  ck_assert_uint_eq(fread(buf, 1, *n, f), *n);
  fclose(f);
  return buf;
}

static int count_open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  ck_assert_ptr_nonnull(d);
  int n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

static int files_in_dir(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* A .npy file: prefix for `version`, header dict text padded to 64, then data. */
static size_t npy_image(unsigned char *out, int version, const char *dict, const void *data,
                        size_t nbytes) {
  const size_t prefix = version == 1 ? 10 : 12;
  size_t hlen = strlen(dict) + 1;
  hlen += (64 - (prefix + hlen) % 64) % 64;
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (unsigned char)version;
  out[7] = 0;
  for (size_t i = 0; i < prefix - 8; ++i) out[8 + i] = (unsigned char)(hlen >> (8 * i));
  memset(out + prefix, ' ', hlen);
  memcpy(out + prefix, dict, strlen(dict));
  out[prefix + hlen - 1] = '\n';
  memcpy(out + prefix + hlen, data, nbytes);
  return prefix + hlen + nbytes;
}

/* A safetensors file from a header text and data bytes. */
static size_t st_image(unsigned char *out, const char *header, const void *data, size_t nbytes) {
  const uint64_t n = strlen(header);
  for (int i = 0; i < 8; ++i) out[i] = (unsigned char)(n >> (8 * i));
  memcpy(out + 8, header, n);
  memcpy(out + 8 + n, data, nbytes);
  return 8 + n + nbytes;
}

static tensor_t *arange_f32(int64_t n) {
  tensor_t *t = NULL;
  ck_ok(tensor_empty(&t, 1, &n, TENSOR_FLOAT32));
  float *p = tensor_data(t);
  for (int64_t i = 0; i < n; ++i) p[i] = (float)i;
  return t;
}

/* ---- mapped files ------------------------------------------------------- */

START_TEST(map_file_read_only_at_unaligned_offset) {
  make_dir();
  unsigned char bytes[10000];
  for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = (unsigned char)(i * 7);
  write_bytes(in_dir("a.bin"), bytes, sizeof bytes);
  const int fds = count_open_fds();
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_map_file(&s, in_dir("a.bin"), 4099, 3000, TENSOR_MAP_READ));
  ck_assert_uint_eq(tensor_storage_nbytes(s), 3000);
  ck_assert_int_eq(memcmp(tensor_storage_data(s), bytes + 4099, 3000), 0);
  ck_assert_int_eq(tensor_storage_is_readonly(s), 1);
  ck_assert_int_eq(tensor_storage_fd(s), -1);
  ck_assert_int_eq(count_open_fds(), fds); /* no descriptor is held */
  tensor_t *t = NULL;
  int64_t n = 3000;
  ck_ok(tensor_from_storage(&t, s, TENSOR_UINT8, 1, &n, NULL, 0));
  ck_status(tensor_fill(t, 1), TENSOR_E_READONLY);
  tensor_release(t);
  tensor_storage_release(s);
  /* nbytes 0 maps to the end */
  ck_ok(tensor_storage_map_file(&s, in_dir("a.bin"), 9000, 0, TENSOR_MAP_READ));
  ck_assert_uint_eq(tensor_storage_nbytes(s), 1000);
  ck_assert_int_eq(memcmp(tensor_storage_data(s), bytes + 9000, 1000), 0);
  tensor_storage_release(s);
  remove_dir();
}
END_TEST

START_TEST(map_file_write_reaches_the_file) {
  make_dir();
  unsigned char bytes[5000] = {0};
  write_bytes(in_dir("w.bin"), bytes, sizeof bytes);
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_map_file(&s, in_dir("w.bin"), 100, 0, TENSOR_MAP_WRITE));
  ck_assert_int_eq(tensor_storage_is_readonly(s), 0);
  memset(tensor_storage_data(s), 0x5a, 4900);
  /* another mapping of the same file sees the write at once */
  tensor_storage_t *other = NULL;
  ck_ok(tensor_storage_map_file(&other, in_dir("w.bin"), 0, 0, TENSOR_MAP_READ));
  ck_assert_uint_eq(((unsigned char *)tensor_storage_data(other))[100], 0x5a);
  tensor_storage_release(other);
  tensor_storage_release(s);
  size_t n;
  unsigned char *back = read_bytes(in_dir("w.bin"), &n);
  ck_assert_uint_eq(n, 5000);
  ck_assert_uint_eq(back[99], 0);
  ck_assert_uint_eq(back[100], 0x5a);
  ck_assert_uint_eq(back[4999], 0x5a);
  free(back);
  remove_dir();
}
END_TEST

START_TEST(map_file_private_is_copy_on_write) {
  make_dir();
  unsigned char bytes[100];
  memset(bytes, 1, sizeof bytes);
  write_bytes(in_dir("p.bin"), bytes, sizeof bytes);
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_map_file(&s, in_dir("p.bin"), 0, 0, TENSOR_MAP_PRIVATE | TENSOR_MAP_READ));
  ck_assert_int_eq(tensor_storage_is_readonly(s), 0);
  memset(tensor_storage_data(s), 9, 100);
  ck_assert_uint_eq(((unsigned char *)tensor_storage_data(s))[50], 9);
  tensor_storage_release(s);
  size_t n;
  unsigned char *back = read_bytes(in_dir("p.bin"), &n);
  ck_assert_uint_eq(back[50], 1);
  free(back);
  remove_dir();
}
END_TEST

START_TEST(map_file_refuses_ranges_outside_the_file) {
  make_dir();
  unsigned char bytes[100] = {0};
  write_bytes(in_dir("b.bin"), bytes, sizeof bytes);
  write_bytes(in_dir("empty.bin"), bytes, 0);
  tensor_storage_t *s = SENTINEL_ANY;
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 101, 0, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(s);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 100, 0, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 50, 51, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 1, UINT64_MAX, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), UINT64_MAX, 2, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("empty.bin"), 0, 0, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("empty.bin"), 0, 1, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_status(tensor_storage_map_file(&s, in_dir("missing.bin"), 0, 0, TENSOR_MAP_READ), TENSOR_E_IO);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "No such file"));
  ck_status(tensor_storage_map_file(&s, dir, 0, 0, TENSOR_MAP_READ), TENSOR_E_IO);
  ck_status(tensor_storage_map_file(&s, NULL, 0, 0, TENSOR_MAP_READ), TENSOR_E_INVALID);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 0, 0, 0), TENSOR_E_INVALID);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 0, 0, TENSOR_MAP_WRITE | TENSOR_MAP_PRIVATE),
            TENSOR_E_INVALID);
  ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 0, 0, 8), TENSOR_E_INVALID);
  ck_status(tensor_storage_map_file(NULL, in_dir("b.bin"), 0, 0, TENSOR_MAP_READ), TENSOR_E_INVALID);
  chmod(in_dir("b.bin"), 0400);
  if (geteuid() != 0) /* root may write anything */
    ck_status(tensor_storage_map_file(&s, in_dir("b.bin"), 0, 0, TENSOR_MAP_WRITE), TENSOR_E_IO);
  remove_dir();
}
END_TEST

/* ---- shared memory ------------------------------------------------------ */

START_TEST(shared_storage_is_fd_backed_sealed_and_cloexec) {
  const int fds = count_open_fds();
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new_shared(&s, 10000));
  ck_assert_uint_eq(tensor_storage_nbytes(s), 10000);
  const unsigned char *p = tensor_storage_data(s);
  for (int i = 0; i < 10000; ++i) ck_assert_uint_eq(p[i], 0);
  const int fd = tensor_storage_fd(s);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  ck_assert_int_eq(count_open_fds(), fds + 1);
  /* nobody can shrink it under a mapping (which would SIGBUS) */
  ck_assert_int_ne(ftruncate(fd, 10), 0);
  ck_assert_int_eq(errno, EPERM);
  tensor_storage_release(s);
  ck_assert_int_eq(count_open_fds(), fds);
  ck_assert_int_eq(fcntl(fd, F_GETFD), -1); /* closed with the last reference */

  ck_ok(tensor_storage_new_shared(&s, 0));
  ck_assert_uint_eq(tensor_storage_nbytes(s), 0);
  ck_assert_int_ge(tensor_storage_fd(s), 0);
  tensor_storage_release(s);
  ck_assert_int_eq(count_open_fds(), fds);
  ck_status(tensor_storage_new_shared(NULL, 10), TENSOR_E_INVALID);
}
END_TEST

START_TEST(forked_workers_write_disjoint_slices) {
  enum { workers = 4, per = 4096 };
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new_shared(&s, workers * per * sizeof(int32_t)));
  tensor_t *t = NULL;
  const int64_t n = workers * per;
  ck_ok(tensor_from_storage(&t, s, TENSOR_INT32, 1, &n, NULL, 0));
  tensor_storage_release(s);
  pid_t pids[workers];
  for (int w = 0; w < workers; ++w) {
    pids[w] = fork();
    ck_assert_int_ge(pids[w], 0);
    if (pids[w] == 0) {
      tensor_t *slice = NULL;
      if (tensor_narrow(&slice, t, 0, w * per, per) != TENSOR_OK) _exit(2);
      int32_t *p = tensor_data(slice);
      for (int i = 0; i < per; ++i) p[i] = w * 1000000 + i;
      _exit(0);
    }
  }
  for (int w = 0; w < workers; ++w) {
    int status;
    ck_assert_int_eq(waitpid(pids[w], &status, 0), pids[w]);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const int32_t *p = tensor_data(t);
  for (int w = 0; w < workers; ++w)
    for (int i = 0; i < per; ++i) ck_assert_int_eq(p[w * per + i], w * 1000000 + i);
  tensor_release(t);
}
END_TEST

static void send_fd(int sock, int fd) {
  char dummy = 'x';
  struct iovec iov = {&dummy, 1};
  union {
    struct cmsghdr h;
    char buf[CMSG_SPACE(sizeof(int))];
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof fd);
  ck_assert_int_eq(sendmsg(sock, &msg, 0), 1);
}

static int recv_fd(int sock) {
  char dummy;
  struct iovec iov = {&dummy, 1};
  union {
    struct cmsghdr h;
    char buf[CMSG_SPACE(sizeof(int))];
  } control;
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1) return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

START_TEST(descriptor_passed_over_a_unix_socket) {
  int sv[2];
  ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new_shared(&s, 4096));
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    /* The child drops everything it inherited and gets the memory only through the socket. */
    close(sv[0]);
    tensor_storage_release(s);
    const int fd = recv_fd(sv[1]);
    tensor_storage_t *mine = NULL;
    if (fd < 0 || tensor_storage_from_fd(&mine, fd, 0, TENSOR_MAP_WRITE) != TENSOR_OK) _exit(2);
    close(fd);
    if (tensor_storage_nbytes(mine) != 4096) _exit(3);
    memset(tensor_storage_data(mine), 0x77, 4096);
    tensor_storage_release(mine);
    _exit(0);
  }
  close(sv[1]);
  send_fd(sv[0], tensor_storage_fd(s));
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const unsigned char *p = tensor_storage_data(s);
  ck_assert_uint_eq(p[0], 0x77);
  ck_assert_uint_eq(p[4095], 0x77);
  tensor_storage_release(s);
  close(sv[0]);
}
END_TEST

START_TEST(from_fd_duplicates_and_checks_sizes) {
  const int fds = count_open_fds();
  tensor_storage_t *s = NULL, *view = NULL;
  ck_ok(tensor_storage_new_shared(&s, 8192));
  const int fd = dup(tensor_storage_fd(s));
  ck_ok(tensor_storage_from_fd(&view, fd, 100, TENSOR_MAP_READ));
  ck_assert_int_ne(tensor_storage_fd(view), fd);
  ck_assert_int_ne(fcntl(tensor_storage_fd(view), F_GETFD) & FD_CLOEXEC, 0);
  close(fd); /* the caller keeps its own descriptor */
  ((unsigned char *)tensor_storage_data(s))[42] = 9;
  ck_assert_uint_eq(((unsigned char *)tensor_storage_data(view))[42], 9);
  ck_assert_int_eq(tensor_storage_is_readonly(view), 1);
  ck_assert_uint_eq(tensor_storage_nbytes(view), 100);
  tensor_storage_t *bad = SENTINEL_ANY;
  ck_status(tensor_storage_from_fd(&bad, tensor_storage_fd(s), 8193, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(bad);
  /* A negative count converted to size_t is named as such. */
  ck_status(tensor_storage_from_fd(&bad, tensor_storage_fd(s), (size_t)-1, TENSOR_MAP_READ), TENSOR_E_BOUNDS);
  char expected[160];
  snprintf(expected, sizeof expected,
           "storage_from_fd: nbytes 18446744073709551615 (-1 as size_t) is more than the %zu bytes of descriptor %d "
           "(nbytes 0 maps them all)",
           tensor_storage_nbytes(s), tensor_storage_fd(s));
  ck_assert_str_eq(tensor_last_error(), expected);
  ck_status(tensor_storage_from_fd(&bad, -1, 0, TENSOR_MAP_READ), TENSOR_E_INVALID);
  ck_status(tensor_storage_from_fd(&bad, 1000000, 0, TENSOR_MAP_READ), TENSOR_E_IO);
  ck_status(tensor_storage_from_fd(&bad, tensor_storage_fd(s), 0, 3 | 4), TENSOR_E_INVALID);
  int pipefd[2];
  ck_assert_int_eq(pipe(pipefd), 0);
  ck_status(tensor_storage_from_fd(&bad, pipefd[0], 0, TENSOR_MAP_READ), TENSOR_E_IO);
  close(pipefd[0]);
  close(pipefd[1]);
  tensor_storage_release(s);
  /* view still maps the memory after the original storage is gone */
  ck_assert_uint_eq(((unsigned char *)tensor_storage_data(view))[42], 9);
  tensor_storage_release(view);
  ck_assert_int_eq(count_open_fds(), fds);
}
END_TEST

/* ---- .npy --------------------------------------------------------------- */

START_TEST(npy_round_trip_every_dtype) {
  make_dir();
  static const tensor_dtype_t dtypes[] = {TENSOR_BOOL,    TENSOR_UINT8,   TENSOR_INT8,     TENSOR_INT16,
                                          TENSOR_UINT16,  TENSOR_INT32,   TENSOR_UINT32,   TENSOR_INT64,
                                          TENSOR_UINT64,  TENSOR_FLOAT16, TENSOR_FLOAT32,  TENSOR_FLOAT64,
                                          TENSOR_COMPLEX64, TENSOR_COMPLEX128};
  const int64_t sizes[] = {3, 5};
  for (size_t k = 0; k < sizeof dtypes / sizeof *dtypes; ++k) {
    tensor_t *t = NULL, *back = NULL;
    ck_ok(tensor_empty(&t, 2, sizes, dtypes[k]));
    unsigned char *p = tensor_data(t);
    const size_t nbytes = 15 * tensor_dtype_size(dtypes[k]);
    for (size_t i = 0; i < nbytes; ++i) p[i] = (unsigned char)(i * 31 + k);
    if (dtypes[k] == TENSOR_BOOL)
      for (size_t i = 0; i < nbytes; ++i) p[i] &= 1;
    ck_ok(tensor_save_npy(t, in_dir("x.npy")));
    for (uint32_t flags = 0; flags <= 3; ++flags) {
      ck_ok(tensor_load_npy(&back, in_dir("x.npy"), flags));
      ck_assert_int_eq(tensor_dtype(back), dtypes[k]);
      const int64_t strides[] = {5, 1};
      ck_layout(back, 2, sizes, strides);
      ck_assert_int_eq(memcmp(tensor_data(back), p, nbytes), 0);
      ck_assert_int_eq(tensor_is_readonly(back), flags == 0);
      tensor_release(back);
    }
    tensor_release(t);
  }
  ck_assert_int_eq(files_in_dir(), 1); /* no temporary left behind */
  remove_dir();
}
END_TEST

START_TEST(npy_header_is_numpys) {
  make_dir();
  tensor_t *t = arange_f32(3);
  ck_ok(tensor_save_npy(t, in_dir("h.npy")));
  size_t n;
  unsigned char *bytes = read_bytes(in_dir("h.npy"), &n);
  ck_assert_uint_eq(n, 128 + 12);
  ck_assert_int_eq(memcmp(bytes, "\x93NUMPY\x01\x00\x76\x00", 10), 0);
  const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  ck_assert_int_eq(memcmp(bytes + 10, dict, sizeof dict - 1), 0);
  ck_assert_uint_eq(bytes[127], '\n');
  free(bytes);
  tensor_release(t);
  remove_dir();
}
END_TEST

START_TEST(npy_save_strided_and_0d_and_empty) {
  make_dir();
  int64_t sizes[] = {4, 6};
  tensor_t *t = NULL, *tt = NULL, *back = NULL, *ref = NULL;
  ck_ok(tensor_empty(&t, 2, sizes, TENSOR_INT32));
  int32_t *p = tensor_data(t);
  for (int i = 0; i < 24; ++i) p[i] = i;
  ck_ok(tensor_transpose(&tt, t, 0, 1));
  ck_ok(tensor_save_npy(tt, in_dir("t.npy")));
  ck_ok(tensor_load_npy(&back, in_dir("t.npy"), 0));
  ck_ok(tensor_clone(&ref, tt));
  ck_assert_int_eq(tensor_is_contiguous(back), 1);
  ck_assert_int_eq(memcmp(tensor_data(back), tensor_data(ref), 24 * 4), 0);
  tensor_release(back);
  tensor_release(ref);
  tensor_release(tt);
  tensor_release(t);

  ck_ok(tensor_zeros(&t, 0, NULL, TENSOR_FLOAT64));
  *(double *)tensor_data(t) = 2.5;
  ck_ok(tensor_save_npy(t, in_dir("s.npy")));
  ck_ok(tensor_load_npy(&back, in_dir("s.npy"), 0));
  ck_assert_int_eq(tensor_ndim(back), 0);
  ck_assert(*(double *)tensor_data(back) == 2.5);
  tensor_release(back);
  tensor_release(t);

  int64_t empty[] = {0, 3};
  ck_ok(tensor_empty(&t, 2, empty, TENSOR_INT16));
  ck_ok(tensor_save_npy(t, in_dir("e.npy")));
  ck_ok(tensor_load_npy(&back, in_dir("e.npy"), 0));
  ck_assert_int_eq(tensor_numel(back), 0);
  ck_assert_int_eq(tensor_sizes(back)[1], 3);
  tensor_release(back);
  tensor_release(t);
  remove_dir();
}
END_TEST

START_TEST(npy_fortran_order_is_a_strided_view) {
  make_dir();
  unsigned char image[256];
  const int32_t data[6] = {0, 1, 2, 3, 4, 5}; /* column-major 2 x 3 */
  size_t n = npy_image(image, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", data,
                       sizeof data);
  write_bytes(in_dir("f.npy"), image, n);
  tensor_t *t = NULL;
  ck_ok(tensor_load_npy(&t, in_dir("f.npy"), 0));
  const int64_t sizes[] = {2, 3}, strides[] = {1, 2};
  ck_layout(t, 2, sizes, strides);
  ck_assert_int_eq(tensor_is_contiguous(t), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), sizeof data); /* mapped, not copied */
  ck_assert_int_eq(tensor_is_readonly(t), 1);
  tensor_release(t);
  remove_dir();
}
END_TEST

/* A fuzz finding: Fortran-order strides of an empty array with huge sizes
   overflowed int64 (UBSan); they wrap as contiguous strides do, and the array
   loads with no elements. */
START_TEST(npy_fortran_order_empty_huge_sizes) {
  make_dir();
  unsigned char image[256];
  const char no_data[1] = {0};
  size_t n = npy_image(image, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (0, 4611686018427387904, 8), }",
                       no_data, 0);
  write_bytes(in_dir("e.npy"), image, n);
  tensor_t *t = NULL;
  ck_ok(tensor_load_npy(&t, in_dir("e.npy"), 0));
  ck_assert_int_eq(tensor_numel(t), 0);
  ck_assert_int_eq(tensor_sizes(t)[1], 4611686018427387904LL);
  ck_assert_int_eq(tensor_strides(t)[2], 4611686018427387904LL);
  tensor_release(t);
  remove_dir();
}
END_TEST

START_TEST(npy_versions_2_and_3_and_big_endian) {
  make_dir();
  unsigned char image[256];
  const int16_t data[2] = {0x0102, 0x0304};
  for (int v = 2; v <= 3; ++v) {
    size_t n = npy_image(image, v, "{\"descr\":\"<i2\",\"fortran_order\":False,\"shape\":(2,)}", data,
                         sizeof data);
    write_bytes(in_dir("v.npy"), image, n);
    tensor_t *t = NULL;
    ck_ok(tensor_load_npy(&t, in_dir("v.npy"), 0));
    ck_assert_int_eq(((int16_t *)tensor_data(t))[1], 0x0304);
    tensor_release(t);
  }
  const unsigned char be[] = {0x01, 0x02, 0x03, 0x04, 0x3f, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00};
  size_t n = npy_image(image, 1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", be, 4);
  write_bytes(in_dir("be.npy"), image, n);
  tensor_t *t = NULL;
  ck_ok(tensor_load_npy(&t, in_dir("be.npy"), 0));
  ck_assert_int_eq(((int16_t *)tensor_data(t))[0], 0x0102);
  ck_assert_int_eq(((int16_t *)tensor_data(t))[1], 0x0304);
  ck_assert_int_eq(tensor_is_readonly(t), 0); /* byte-swapped into owned memory */
  tensor_release(t);
  n = npy_image(image, 1, "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", be + 4, 8);
  write_bytes(in_dir("bec.npy"), image, n);
  ck_ok(tensor_load_npy(&t, in_dir("bec.npy"), 0));
  ck_assert(((float *)tensor_data(t))[0] == 1.0f && ((float *)tensor_data(t))[1] == 2.0f);
  tensor_release(t);
  remove_dir();
}
END_TEST

START_TEST(npy_writable_load_never_reaches_the_file) {
  make_dir();
  tensor_t *t = arange_f32(1000), *back = NULL;
  ck_ok(tensor_save_npy(t, in_dir("c.npy")));
  ck_ok(tensor_load_npy(&back, in_dir("c.npy"), TENSOR_LOAD_WRITABLE));
  ck_ok(tensor_fill(back, 7));
  tensor_release(back);
  ck_ok(tensor_load_npy(&back, in_dir("c.npy"), 0));
  ck_assert(((float *)tensor_data(back))[999] == 999.0f);
  tensor_release(back);
  tensor_release(t);
  remove_dir();
}
END_TEST

START_TEST(npy_refuses_malformed_files) {
  make_dir();
  unsigned char image[20000];
  const float data[4] = {1, 2, 3, 4};
  static const char *bad_dicts[] = {
      "{'descr': '<f4', 'fortran_order': False}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1}",
      "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4.0,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': [4]}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'shape': (4,)}",
      "{'descr': '<f4' 'fortran_order': False, 'shape': (4,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} x",
      "{'descr': '<f4, 'fortran_order': False, 'shape': (4,)}",
      "['descr', '<f4']",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}", /* more than the file holds */
  };
  for (size_t i = 0; i < sizeof bad_dicts / sizeof *bad_dicts; ++i) {
    size_t n = npy_image(image, 1, bad_dicts[i], data, sizeof data);
    write_bytes(in_dir("m.npy"), image, n);
    tensor_t *t = SENTINEL_ANY;
    tensor_status_t st = tensor_load_npy(&t, in_dir("m.npy"), 0);
    ck_assert_msg(st == TENSOR_E_FORMAT, "%s: %s (%s)", bad_dicts[i], tensor_status_name(st),
                  tensor_last_error());
    ck_assert_ptr_null(t);
  }
  static const char *bad_dtypes[] = {
      "{'descr': '|O', 'fortran_order': False, 'shape': (4,)}",
      "{'descr': '<U1', 'fortran_order': False, 'shape': (4,)}",
      "{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}",
      "{'descr': '|f4', 'fortran_order': False, 'shape': (4,)}",
  };
  for (size_t i = 0; i < sizeof bad_dtypes / sizeof *bad_dtypes; ++i) {
    size_t n = npy_image(image, 1, bad_dtypes[i], data, sizeof data);
    write_bytes(in_dir("d.npy"), image, n);
    tensor_t *t = NULL;
    ck_status(tensor_load_npy(&t, in_dir("d.npy"), 0), TENSOR_E_DTYPE);
  }
  /* a header longer than NumPy's limit of 10000 bytes */
  char big[10100];
  memset(big, ' ', sizeof big);
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  memcpy(big, dict, strlen(dict));
  big[sizeof big - 1] = '\0';
  size_t n = npy_image(image, 2, big, data, sizeof data);
  write_bytes(in_dir("big.npy"), image, n);
  tensor_t *t = NULL;
  ck_status(tensor_load_npy(&t, in_dir("big.npy"), 0), TENSOR_E_FORMAT);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "10000"));
  /* bad magic, bad version */
  n = npy_image(image, 1, dict, data, sizeof data);
  image[1] = 'X';
  write_bytes(in_dir("magic.npy"), image, n);
  ck_status(tensor_load_npy(&t, in_dir("magic.npy"), 0), TENSOR_E_FORMAT);
  n = npy_image(image, 4, dict, data, sizeof data);
  write_bytes(in_dir("ver.npy"), image, n);
  ck_status(tensor_load_npy(&t, in_dir("ver.npy"), 0), TENSOR_E_FORMAT);
  ck_status(tensor_load_npy(&t, in_dir("nothing.npy"), 0), TENSOR_E_IO);
  ck_status(tensor_load_npy(&t, in_dir("ver.npy"), 4), TENSOR_E_INVALID);
  remove_dir();
}
END_TEST

START_TEST(npy_every_truncation_fails_cleanly) {
  make_dir();
  tensor_t *t = arange_f32(10);
  ck_ok(tensor_save_npy(t, in_dir("full.npy")));
  tensor_release(t);
  size_t n;
  unsigned char *bytes = read_bytes(in_dir("full.npy"), &n);
  const int fds = count_open_fds();
  for (size_t len = 0; len < n; ++len) {
    write_bytes(in_dir("cut.npy"), bytes, len);
    tensor_t *back = SENTINEL_ANY;
    ck_status(tensor_load_npy(&back, in_dir("cut.npy"), len % 3), TENSOR_E_FORMAT);
    ck_assert_ptr_null(back);
  }
  ck_assert_int_eq(count_open_fds(), fds);
  free(bytes);
  remove_dir();
}
END_TEST

START_TEST(npy_save_refusals) {
  make_dir();
  tensor_t *t = NULL;
  const int64_t n = 4;
  ck_ok(tensor_zeros(&t, 1, &n, TENSOR_BFLOAT16));
  ck_status(tensor_save_npy(t, in_dir("bf.npy")), TENSOR_E_DTYPE);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "safetensors"));
  tensor_release(t);
  t = arange_f32(4);
  ck_status(tensor_save_npy(t, "/nonexistent-dir/x.npy"), TENSOR_E_IO);
  ck_status(tensor_save_npy(NULL, in_dir("x.npy")), TENSOR_E_INVALID);
  ck_status(tensor_save_npy(t, NULL), TENSOR_E_INVALID);
  /* replacing a file is atomic: the old one stays whole until the rename */
  ck_ok(tensor_save_npy(t, in_dir("x.npy")));
  tensor_t *old = NULL;
  ck_ok(tensor_load_npy(&old, in_dir("x.npy"), 0));
  tensor_t *bigger = arange_f32(100000);
  ck_ok(tensor_save_npy(bigger, in_dir("x.npy")));
  ck_assert_int_eq(tensor_numel(old), 4);
  ck_assert(((float *)tensor_data(old))[3] == 3.0f); /* the old mapping is intact */
  ck_assert_int_eq(files_in_dir(), 1);
  tensor_release(old);
  tensor_release(bigger);
  tensor_release(t);
  remove_dir();
}
END_TEST

/* ---- safetensors -------------------------------------------------------- */

START_TEST(safetensors_round_trip) {
  make_dir();
  tensor_t *a = arange_f32(6), *b = NULL, *c = NULL, *a2 = NULL;
  const int64_t bs[] = {2, 3};
  ck_ok(tensor_view(&a2, a, 2, bs));
  ck_ok(tensor_zeros(&b, 1, bs, TENSOR_BFLOAT16));
  ((uint16_t *)tensor_data(b))[1] = 0x3f80;
  ck_ok(tensor_zeros(&c, 0, NULL, TENSOR_INT8));
  *(int8_t *)tensor_data(c) = -5;
  const char *names[] = {"weight", "bias", "scalar"};
  const tensor_t *tensors[] = {a2, b, c};
  const char *keys[] = {"format"}, *values[] = {"pt"};
  ck_ok(tensor_safetensors_save(in_dir("m.safetensors"), 3, names, tensors, 1, keys, values));
  const int fds = count_open_fds();
  for (uint32_t flags = 0; flags <= 2; ++flags) {
    tensor_safetensors_t *st = NULL;
    ck_ok(tensor_safetensors_open(&st, in_dir("m.safetensors"), flags));
    ck_assert_int_eq(count_open_fds(), fds);
    ck_assert_int_eq(tensor_safetensors_count(st), 3);
    /* file order: widest dtype first, then by name */
    ck_assert_str_eq(tensor_safetensors_name(st, 0), "weight");
    ck_assert_str_eq(tensor_safetensors_name(st, 1), "bias");
    ck_assert_str_eq(tensor_safetensors_name(st, 2), "scalar");
    ck_assert_ptr_null(tensor_safetensors_name(st, 3));
    ck_assert_ptr_null(tensor_safetensors_name(st, -1));
    ck_assert_str_eq(tensor_safetensors_metadata(st, "format"), "pt");
    ck_assert_ptr_null(tensor_safetensors_metadata(st, "missing"));
    ck_assert_int_eq(tensor_safetensors_metadata_count(st), 1);
    ck_assert_str_eq(tensor_safetensors_metadata_key(st, 0), "format");
    ck_assert_ptr_null(tensor_safetensors_metadata_key(st, 1));
    ck_assert_ptr_null(tensor_safetensors_metadata_key(st, -1));
    tensor_t *w = NULL, *bi = NULL, *sc = NULL;
    ck_ok(tensor_safetensors_get(&w, st, "weight"));
    ck_ok(tensor_safetensors_get(&bi, st, "bias"));
    ck_ok(tensor_safetensors_get(&sc, st, "scalar"));
    tensor_safetensors_release(st); /* the tensors stay valid */
    ck_assert_ptr_eq(tensor_storage(w), tensor_storage(bi));
    ck_assert_int_eq(tensor_dtype(w), TENSOR_FLOAT32);
    const int64_t ws[] = {2, 3}, wst[] = {3, 1};
    ck_layout(w, 2, ws, wst);
    ck_assert(((float *)tensor_data(w))[5] == 5.0f);
    ck_assert_int_eq(tensor_dtype(bi), TENSOR_BFLOAT16);
    ck_assert_uint_eq(((uint16_t *)tensor_data(bi))[1], 0x3f80);
    ck_assert_int_eq(tensor_ndim(sc), 0);
    ck_assert_int_eq(*(int8_t *)tensor_data(sc), -5);
    ck_assert_int_eq(tensor_is_readonly(w), flags == 0);
    tensor_release(w);
    tensor_release(bi);
    tensor_release(sc);
  }
  ck_assert_int_eq(count_open_fds(), fds);
  tensor_safetensors_t *st = NULL;
  ck_ok(tensor_safetensors_open(&st, in_dir("m.safetensors"), 0));
  tensor_t *t = SENTINEL_ANY;
  ck_status(tensor_safetensors_get(&t, st, "nope"), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  ck_status(tensor_safetensors_get(&t, NULL, "weight"), TENSOR_E_INVALID);
  tensor_safetensors_release(st);
  tensor_safetensors_release(NULL);
  tensor_release(a);
  tensor_release(a2);
  tensor_release(b);
  tensor_release(c);
  remove_dir();
}
END_TEST

/* Every metadata pair can be listed from the handle, which holds the header it
 * read at open: a file renamed over the path since changes nothing. */
START_TEST(safetensors_metadata_keys_from_the_handle) {
  make_dir();
  tensor_t *a = arange_f32(4);
  const char *names[] = {"a"};
  const tensor_t *tensors[] = {a};
  const char *keys[] = {"format", "author", "step"}, *values[] = {"pt", "me", "12"};
  ck_ok(tensor_safetensors_save(in_dir("meta.safetensors"), 1, names, tensors, 3, keys, values));
  tensor_safetensors_t *st = NULL;
  ck_ok(tensor_safetensors_open(&st, in_dir("meta.safetensors"), 0));
  const char *other_keys[] = {"format"}, *other_values[] = {"np"};
  ck_ok(tensor_safetensors_save(in_dir("other.safetensors"), 1, names, tensors, 1, other_keys, other_values));
  char target[4096];
  snprintf(target, sizeof target, "%s", in_dir("meta.safetensors"));
  ck_assert_int_eq(rename(in_dir("other.safetensors"), target), 0);
  ck_assert_int_eq(tensor_safetensors_metadata_count(st), 3);
  int seen[3] = {0, 0, 0};
  for (int64_t i = 0; i < 3; ++i) {
    const char *key = tensor_safetensors_metadata_key(st, i);
    ck_assert_ptr_nonnull(key);
    for (int k = 0; k < 3; ++k)
      if (strcmp(key, keys[k]) == 0) {
        ++seen[k];
        ck_assert_str_eq(tensor_safetensors_metadata(st, key), values[k]);
      }
  }
  ck_assert(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
  ck_assert_ptr_null(tensor_safetensors_metadata_key(st, 3));
  ck_assert_int_eq(tensor_safetensors_metadata_count(NULL), 0);
  ck_assert_ptr_null(tensor_safetensors_metadata_key(NULL, 0));
  tensor_safetensors_release(st);
  ck_ok(tensor_safetensors_open(&st, target, 0));
  ck_assert_int_eq(tensor_safetensors_metadata_count(st), 1);
  ck_assert_str_eq(tensor_safetensors_metadata(st, tensor_safetensors_metadata_key(st, 0)), "np");
  tensor_safetensors_release(st);
  ck_ok(tensor_safetensors_save(target, 1, names, tensors, 0, NULL, NULL));
  ck_ok(tensor_safetensors_open(&st, target, 0));
  ck_assert_int_eq(tensor_safetensors_metadata_count(st), 0);
  tensor_safetensors_release(st);
  tensor_release(a);
  remove_dir();
}
END_TEST

START_TEST(safetensors_header_layout) {
  make_dir();
  tensor_t *a = arange_f32(3);
  const char *names[] = {"a"};
  const tensor_t *tensors[] = {a};
  ck_ok(tensor_safetensors_save(in_dir("h.safetensors"), 1, names, tensors, 0, NULL, NULL));
  size_t n;
  unsigned char *bytes = read_bytes(in_dir("h.safetensors"), &n);
  const char header[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}";
  const size_t padded = (sizeof header - 1 + 7) / 8 * 8;
  ck_assert_uint_eq(bytes[0], padded);
  ck_assert_int_eq(memcmp(bytes + 8, header, sizeof header - 1), 0);
  for (size_t i = sizeof header - 1; i < padded; ++i) ck_assert_uint_eq(bytes[8 + i], ' ');
  ck_assert_uint_eq(n, 8 + padded + 12);
  free(bytes);
  tensor_release(a);
  remove_dir();
}
END_TEST

START_TEST(safetensors_unaligned_tensor_is_copied) {
  make_dir();
  unsigned char image[512];
  /* header of 61 bytes: data starts at 69, so the F32 tensor is unaligned */
  const char *header = "{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}       ";
  float data[2] = {1.5f, -2.0f};
  size_t n = st_image(image, header, data, sizeof data);
  ck_assert_uint_ne((8 + strlen(header)) % 4, 0);
  write_bytes(in_dir("u.safetensors"), image, n);
  tensor_safetensors_t *st = NULL;
  ck_ok(tensor_safetensors_open(&st, in_dir("u.safetensors"), 0));
  tensor_t *t = NULL;
  ck_ok(tensor_safetensors_get(&t, st, "x"));
  ck_assert_uint_eq((uintptr_t)tensor_data(t) % 4, 0);
  ck_assert(((float *)tensor_data(t))[0] == 1.5f && ((float *)tensor_data(t))[1] == -2.0f);
  tensor_release(t);
  tensor_safetensors_release(st);
  remove_dir();
}
END_TEST

START_TEST(safetensors_refuses_malicious_headers) {
  make_dir();
  unsigned char image[4096];
  unsigned char data[64] = {0};
  static const struct {
    const char *header;
    size_t data_len;
  } cases[] = {
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}", 8},            /* JSON error */
      {"[1, 2]", 0},                                                                        /* not an object */
      {" {\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8},           /* not '{' first */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
       "\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}", 16},             /* duplicate */
      {"{\"x\":{\"dtype\":\"F31\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8},            /* dtype */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", 12},          /* gap */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
       "\"y\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", 12},             /* overlap */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 9},            /* trailing */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 7},            /* short */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8},            /* size */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", 8},            /* reversed */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", 8},           /* negative */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2.0],\"data_offsets\":[0,8]}}", 8},          /* float */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0]}}", 8},              /* offsets */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2]}}", 8},                                   /* missing */
      {"{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,18446744073709551616]}}", 8},
      {"{\"__metadata__\":{\"a\":1},\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1},
      {"{\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}} x", 1},
      {"{\"\xff\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1},          /* not UTF-8 */
      {"{\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"\\ud800\":1}", 1},
      {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    size_t n = st_image(image, cases[i].header, data, cases[i].data_len);
    write_bytes(in_dir("bad.safetensors"), image, n);
    tensor_safetensors_t *st = (tensor_safetensors_t *)SENTINEL_ANY;
    tensor_status_t status = tensor_safetensors_open(&st, in_dir("bad.safetensors"), 0);
    ck_assert_msg(status == TENSOR_E_FORMAT, "case %zu: %s (%s)", i, tensor_status_name(status),
                  tensor_last_error());
    ck_assert_ptr_null(st);
  }
  /* element count overflow */
  size_t n = st_image(image, "{\"x\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}}",
                      data, 0);
  write_bytes(in_dir("ovf.safetensors"), image, n);
  tensor_safetensors_t *st = NULL;
  ck_status(tensor_safetensors_open(&st, in_dir("ovf.safetensors"), 0), TENSOR_E_OVERFLOW);
  /* header length larger than the limit, and past the end of the file */
  memset(image, 0, 16);
  image[3] = 0x10; /* 268435456 > 100,000,000 */
  write_bytes(in_dir("huge.safetensors"), image, 16);
  ck_status(tensor_safetensors_open(&st, in_dir("huge.safetensors"), 0), TENSOR_E_FORMAT);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "100000000"));
  memset(image, 0, 16);
  image[0] = 100;
  write_bytes(in_dir("past.safetensors"), image, 16);
  ck_status(tensor_safetensors_open(&st, in_dir("past.safetensors"), 0), TENSOR_E_FORMAT);
  memset(image, 0xff, 8);
  write_bytes(in_dir("max.safetensors"), image, 16);
  ck_status(tensor_safetensors_open(&st, in_dir("max.safetensors"), 0), TENSOR_E_FORMAT);
  ck_status(tensor_safetensors_open(&st, in_dir("absent.safetensors"), 0), TENSOR_E_IO);
  ck_status(tensor_safetensors_open(&st, in_dir("max.safetensors"), 8), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_open(NULL, in_dir("max.safetensors"), 0), TENSOR_E_INVALID);
  /* an F8 dtype opens (its size is known) but cannot be got */
  n = st_image(image, "{\"x\":{\"dtype\":\"F8_E4M3\",\"shape\":[2],\"data_offsets\":[0,2]}}", data, 2);
  write_bytes(in_dir("f8.safetensors"), image, n);
  ck_ok(tensor_safetensors_open(&st, in_dir("f8.safetensors"), 0));
  tensor_t *t = NULL;
  ck_status(tensor_safetensors_get(&t, st, "x"), TENSOR_E_DTYPE);
  tensor_safetensors_release(st);
  remove_dir();
}
END_TEST

/* Many tensors (the name index past its small-object scan, grown several
   times) with the metadata first, as saved, and in the middle of a header:
   every name finds its own tensor. */
START_TEST(safetensors_many_tensors_each_found_by_name) {
  make_dir();
  enum { N = 300 };
  tensor_t *ts[N];
  const tensor_t *cts[N];
  char bufs[N][32];
  const char *names[N];
  for (int i = 0; i < N; ++i) {
    ts[i] = arange_f32(i + 1);
    ((float *)tensor_data(ts[i]))[0] = (float)(1000 + i);
    cts[i] = ts[i];
    snprintf(bufs[i], sizeof bufs[i], "model.layers.%d.weight", i);
    names[i] = bufs[i];
  }
  const char *keys[] = {"format"}, *values[] = {"pt"};
  ck_ok(tensor_safetensors_save(in_dir("many.safetensors"), N, names, cts, 1, keys, values));
  tensor_safetensors_t *st = NULL;
  ck_ok(tensor_safetensors_open(&st, in_dir("many.safetensors"), 0));
  ck_assert_int_eq(tensor_safetensors_count(st), N);
  for (int i = N - 1; i >= 0; --i) {
    tensor_t *t = NULL;
    ck_ok(tensor_safetensors_get(&t, st, names[i]));
    ck_assert_int_eq(tensor_numel(t), i + 1);
    ck_assert(((const float *)tensor_data(t))[0] == (float)(1000 + i));
    tensor_release(t);
  }
  tensor_t *t = NULL;
  ck_status(tensor_safetensors_get(&t, st, "__metadata__"), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_get(&t, st, "model.layers.300.weight"), TENSOR_E_INVALID);
  tensor_safetensors_release(st);
  /* __metadata__ between tensors: names before and after it both map right */
  static unsigned char image[1 << 14];
  unsigned char data[40];
  for (int i = 0; i < 40; ++i) data[i] = (unsigned char)i;
  char header[8192] = "{";
  for (int i = 0; i < 40; ++i) {
    char item[160];
    snprintf(item, sizeof item, "%s\"t%d\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[%d,%d]}%s",
             i ? "," : "", i, i, i + 1, i == 19 ? ",\"__metadata__\":{\"k\":\"v\"}" : "");
    strcat(header, item);
  }
  strcat(header, "}");
  write_bytes(in_dir("mid.safetensors"), image, st_image(image, header, data, 40));
  ck_ok(tensor_safetensors_open(&st, in_dir("mid.safetensors"), 0));
  ck_assert_int_eq(tensor_safetensors_count(st), 40);
  ck_assert_str_eq(tensor_safetensors_metadata(st, "k"), "v");
  for (int i = 0; i < 40; ++i) {
    char name[16];
    snprintf(name, sizeof name, "t%d", i);
    ck_assert_str_eq(tensor_safetensors_name(st, i), name);
    ck_ok(tensor_safetensors_get(&t, st, name));
    ck_assert_int_eq(*(const uint8_t *)tensor_data(t), i);
    tensor_release(t);
  }
  tensor_safetensors_release(st);
  for (int i = 0; i < N; ++i) tensor_release(ts[i]);
  remove_dir();
}
END_TEST

START_TEST(safetensors_headers_judged_as_the_tree_reader_did) {
  make_dir();
  static unsigned char image[8 + 4096 + 64];
  static const unsigned char data[64] = {0};
  for (size_t i = 0; i < sizeof st_header_cases / sizeof *st_header_cases; ++i) {
    ck_assert_uint_le(strlen(st_header_cases[i].header), 4096);
    size_t n = st_image(image, st_header_cases[i].header, data, st_header_cases[i].data_len);
    write_bytes(in_dir("h.safetensors"), image, n);
    tensor_safetensors_t *st = NULL;
    tensor_status_t status = tensor_safetensors_open(&st, in_dir("h.safetensors"), 0);
    ck_assert_msg(status == st_header_cases[i].status, "case %zu: %s (%s)", i, tensor_status_name(status),
                  status ? tensor_last_error() : "");
    if (status) {
      ck_assert_msg(strcmp(tensor_last_error(), st_header_cases[i].expect) == 0, "case %zu: %s", i,
                    tensor_last_error());
      continue;
    }
    /* the names in order, each with what tensor_safetensors_get says of it */
    char names[4096] = "";
    for (int64_t k = 0; k < tensor_safetensors_count(st); ++k) {
      const char *name = tensor_safetensors_name(st, k);
      tensor_t *t = NULL;
      const tensor_status_t got = tensor_safetensors_get(&t, st, name);
      tensor_release(t);
      const size_t used = strlen(names);
      snprintf(names + used, sizeof names - used, "%s%s\037%d", k ? "\036" : "", name, (int)got);
    }
    ck_assert_msg(strcmp(names, st_header_cases[i].expect) == 0, "case %zu: names %s", i, names);
    tensor_t *t = NULL;
    ck_status(tensor_safetensors_get(&t, st, "__metadata__"), TENSOR_E_INVALID);
    tensor_safetensors_release(st);
  }
  remove_dir();
}
END_TEST

START_TEST(safetensors_every_truncation_fails_cleanly) {
  make_dir();
  tensor_t *a = arange_f32(5), *b = arange_f32(2);
  const char *names[] = {"a", "b"};
  const tensor_t *tensors[] = {a, b};
  ck_ok(tensor_safetensors_save(in_dir("full.safetensors"), 2, names, tensors, 0, NULL, NULL));
  size_t n;
  unsigned char *bytes = read_bytes(in_dir("full.safetensors"), &n);
  const int fds = count_open_fds();
  for (size_t len = 0; len < n; ++len) {
    write_bytes(in_dir("cut.safetensors"), bytes, len);
    tensor_safetensors_t *st = (tensor_safetensors_t *)SENTINEL_ANY;
    ck_status(tensor_safetensors_open(&st, in_dir("cut.safetensors"), len % 3), TENSOR_E_FORMAT);
    ck_assert_ptr_null(st);
  }
  ck_assert_int_eq(count_open_fds(), fds);
  free(bytes);
  tensor_release(a);
  tensor_release(b);
  remove_dir();
}
END_TEST

START_TEST(safetensors_save_refusals) {
  make_dir();
  tensor_t *a = arange_f32(2), *z = NULL;
  const int64_t one = 1;
  ck_ok(tensor_zeros(&z, 1, &one, TENSOR_COMPLEX128));
  const char *dup[] = {"a", "a"};
  const tensor_t *two[] = {a, a};
  const char *path = in_dir("s.safetensors");
  ck_status(tensor_safetensors_save(path, 2, dup, two, 0, NULL, NULL), TENSOR_E_INVALID);
  const char *reserved[] = {"__metadata__"};
  ck_status(tensor_safetensors_save(path, 1, reserved, two, 0, NULL, NULL), TENSOR_E_INVALID);
  const char *names[] = {"z"};
  const tensor_t *zs[] = {z};
  ck_status(tensor_safetensors_save(path, 1, names, zs, 0, NULL, NULL), TENSOR_E_DTYPE);
  const char *bad_utf8[] = {"\xc3("};
  ck_status(tensor_safetensors_save(path, 1, bad_utf8, two, 0, NULL, NULL), TENSOR_E_INVALID);
  const char *keys[] = {"k", "k"}, *values[] = {"1", "2"};
  ck_status(tensor_safetensors_save(path, 1, names, two, 2, keys, values), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_save(path, -1, names, two, 0, NULL, NULL), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_save(NULL, 1, names, two, 0, NULL, NULL), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_save("/nonexistent-dir/s.safetensors", 1, names, two, 0, NULL, NULL),
            TENSOR_E_IO);
  ck_assert_int_eq(files_in_dir(), 0);
  /* no tensors at all is a valid file */
  ck_ok(tensor_safetensors_save(path, 0, NULL, NULL, 0, NULL, NULL));
  tensor_safetensors_t *st = NULL;
  ck_ok(tensor_safetensors_open(&st, path, 0));
  ck_assert_int_eq(tensor_safetensors_count(st), 0);
  tensor_safetensors_release(st);
  tensor_release(a);
  tensor_release(z);
  remove_dir();
}
END_TEST

START_TEST(no_descriptor_leaks_across_everything) {
  make_dir();
  const int fds = count_open_fds();
  tensor_t *a = arange_f32(100);
  const char *names[] = {"a"};
  const tensor_t *tensors[] = {a};
  for (int round = 0; round < 20; ++round) {
    ck_ok(tensor_save_npy(a, in_dir("a.npy")));
    ck_ok(tensor_safetensors_save(in_dir("a.safetensors"), 1, names, tensors, 0, NULL, NULL));
    tensor_t *t = NULL;
    ck_ok(tensor_load_npy(&t, in_dir("a.npy"), (uint32_t)round % 3));
    tensor_release(t);
    tensor_safetensors_t *st = NULL;
    ck_ok(tensor_safetensors_open(&st, in_dir("a.safetensors"), (uint32_t)round % 3));
    ck_ok(tensor_safetensors_get(&t, st, "a"));
    tensor_safetensors_release(st);
    tensor_release(t);
    tensor_storage_t *s = NULL, *s2 = NULL;
    ck_ok(tensor_storage_new_shared(&s, 64));
    ck_ok(tensor_storage_from_fd(&s2, tensor_storage_fd(s), 0, TENSOR_MAP_PRIVATE));
    tensor_storage_release(s);
    tensor_storage_release(s2);
    ck_status(tensor_load_npy(&t, in_dir("a.safetensors"), 0), TENSOR_E_FORMAT);
    ck_status(tensor_safetensors_open(&st, in_dir("a.npy"), 0), TENSOR_E_FORMAT);
    ck_status(tensor_save_npy(a, "/nonexistent-dir/a.npy"), TENSOR_E_IO);
  }
  ck_assert_int_eq(count_open_fds(), fds);
  tensor_release(a);
  remove_dir();
}
END_TEST

/* ---- copy-mode loads with options: progress, cancel, threads ------------- */

/* A file of `n` uint32 words counting from `first` (after `header`, n_header
   bytes), so a chunk read into the wrong place shows. */
static void write_counting_file(const char *path, const void *header, size_t n_header, uint32_t first,
                                size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(header, 1, n_header, f), n_header);
  uint32_t block[4096];
  for (size_t done = 0; done < n;) {
    const size_t k = n - done < 4096 ? n - done : 4096;
    for (size_t i = 0; i < k; ++i) block[i] = first + (uint32_t)(done + i);
    ck_assert_uint_eq(fwrite(block, 4, k, f), k);
    done += k;
  }
  ck_assert_int_eq(fclose(f), 0);
}

/* A .npy file of n uint32 counting from 0. */
static void write_counting_npy(const char *path, size_t n) {
  char dict[128];
  snprintf(dict, sizeof dict, "{'descr': '<u4', 'fortran_order': False, 'shape': (%zu,), }", n);
  unsigned char header[256];
  const size_t n_header = npy_image(header, 1, dict, "", 0);
  write_counting_file(path, header, n_header, 0, n);
}

/* A safetensors file of two uint32 tensors, "a" (n_a words) then "b" (n_b). */
static void write_counting_safetensors(const char *path, size_t n_a, size_t n_b) {
  char json[256];
  snprintf(json, sizeof json,
           "{\"a\":{\"dtype\":\"U32\",\"shape\":[%zu],\"data_offsets\":[0,%zu]},"
           "\"b\":{\"dtype\":\"U32\",\"shape\":[%zu],\"data_offsets\":[%zu,%zu]}}",
           n_a, 4 * n_a, n_b, 4 * n_a, 4 * (n_a + n_b));
  unsigned char header[300];
  const size_t n_header = st_image(header, json, "", 0);
  write_counting_file(path, header, n_header, 0, n_a + n_b);
}

typedef struct {
  int calls;
  int cancel_at; /* the call (1-based) that returns non-zero; 0: never */
  uint64_t done[256], total[256];
  int sleep_ms;
} progress_log;

static int32_t log_progress(void *user, uint64_t done, uint64_t total) {
  progress_log *log = user;
  if (log->calls < 256) {
    log->done[log->calls] = done;
    log->total[log->calls] = total;
  }
  log->calls++;
  if (log->sleep_ms) usleep((useconds_t)log->sleep_ms * 1000);
  return log->calls == log->cancel_at;
}

/* tensor_load_npy_with with a log that starts empty: the allocation-failure loop
 * (fault/fault_loop.h) evaluates a checked call once per injected failure, and
 * only the last, successful run's reports must be counted. */
static tensor_status_t load_npy_logged(tensor_t **out, const char *path, uint32_t flags,
                                       const tensor_load_options_t *o, progress_log *log) {
  const int cancel_at = log->cancel_at, sleep_ms = log->sleep_ms;
  memset(log, 0, sizeof *log);
  log->cancel_at = cancel_at;
  log->sleep_ms = sleep_ms;
  return tensor_load_npy_with(out, path, flags, o);
}

static tensor_load_options_t options_for(progress_log *log, int32_t threads) {
  tensor_load_options_t o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.progress = log ? log_progress : NULL;
  o.progress_user = log;
  o.num_threads = threads;
  return o;
}

/* Progress comes first as (0, total), never decreases, steps by whole 8 MiB
 * chunks, and ends with (total, total); a callback slower than the 20 ms
 * between reports is called again as soon as each next chunk is in (on one
 * thread: after chunks 1 to 4 of 5), which makes the count exact. */
START_TEST(load_progress_is_monotonic_and_ends_at_total) {
  make_dir();
  const size_t n = (size_t)10 << 20; /* 40 MiB of uint32: five chunks */
  const uint64_t total = 4 * (uint64_t)n;
  write_counting_npy(in_dir("big.npy"), n);
  progress_log log;
  memset(&log, 0, sizeof log);
  log.sleep_ms = 25;
  const tensor_load_options_t o = options_for(&log, 1);
  tensor_t *t = NULL;
  ck_ok(load_npy_logged(&t, in_dir("big.npy"), TENSOR_LOAD_COPY, &o, &log));
  ck_assert_int_eq(log.calls, 6);
  ck_assert_uint_eq(log.done[0], 0);
  for (int i = 0; i < log.calls; ++i) {
    ck_assert_uint_eq(log.total[i], total);
    if (i > 0) ck_assert_uint_ge(log.done[i], log.done[i - 1]);
    if (i > 0 && i < log.calls - 1) {
      ck_assert_uint_lt(log.done[i], total);
      ck_assert_uint_eq(log.done[i] % ((uint64_t)8 << 20), 0);
    }
  }
  ck_assert_uint_eq(log.done[log.calls - 1], total);
  const uint32_t *p = tensor_data(t);
  ck_assert_uint_eq(p[0], 0);
  ck_assert_uint_eq(p[n - 1], (uint32_t)(n - 1));
  tensor_release(t);

  /* below progress_min_bytes, and for mapped loads, no call at all */
  memset(&log, 0, sizeof log);
  tensor_load_options_t quiet = options_for(&log, 0);
  quiet.progress_min_bytes = total + 1;
  ck_ok(tensor_load_npy_with(&t, in_dir("big.npy"), TENSOR_LOAD_COPY, &quiet));
  tensor_release(t);
  quiet.progress_min_bytes = 0;
  ck_ok(tensor_load_npy_with(&t, in_dir("big.npy"), 0, &quiet));
  tensor_release(t);
  ck_assert_int_eq(log.calls, 0);
  remove_dir();
}
END_TEST

/* A non-zero return cancels: TENSOR_E_CANCELLED, *out NULL, nothing kept (the
 * valgrind run checks the memory), no call after the one that cancelled. */
START_TEST(load_cancelled_by_the_callback_frees_everything) {
  make_dir();
  const size_t n = (size_t)6 << 20; /* 24 MiB: three chunks */
  write_counting_npy(in_dir("c.npy"), n);
  write_counting_safetensors(in_dir("c.safetensors"), n / 2, n / 2);
  const int fds = count_open_fds();
  for (int cancel_at = 1; cancel_at <= 3; ++cancel_at) {
    progress_log log;
    memset(&log, 0, sizeof log);
    log.cancel_at = cancel_at;
    log.sleep_ms = cancel_at == 2 ? 25 : 0; /* the 2nd call comes mid-read, or last */
    const tensor_load_options_t o = options_for(&log, 0);
    tensor_t *t = SENTINEL_ANY;
    const tensor_status_t st = tensor_load_npy_with(&t, in_dir("c.npy"), TENSOR_LOAD_COPY, &o);
    if (cancel_at > log.calls) { /* the read finished in fewer calls */
      ck_assert_int_eq(st, TENSOR_OK);
      tensor_release(t);
      continue;
    }
    ck_status(st, TENSOR_E_CANCELLED);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(log.calls, cancel_at);
    ck_assert_ptr_nonnull(strstr(tensor_last_error(), "load_npy_with: cancelled by the progress callback"));

    memset(&log, 0, sizeof log);
    log.cancel_at = cancel_at;
    log.sleep_ms = cancel_at == 2 ? 25 : 0;
    tensor_safetensors_t *sf = SENTINEL_ANY;
    const tensor_status_t st2 = tensor_safetensors_open_with(&sf, in_dir("c.safetensors"), TENSOR_LOAD_COPY, &o);
    if (cancel_at > log.calls) {
      ck_assert_int_eq(st2, TENSOR_OK);
      tensor_safetensors_release(sf);
      continue;
    }
    ck_status(st2, TENSOR_E_CANCELLED);
    ck_assert_ptr_null(sf);
    ck_assert_ptr_nonnull(strstr(tensor_last_error(), "safetensors_open_with: cancelled"));
  }
  ck_assert_int_eq(count_open_fds(), fds);
  ck_assert_str_eq(tensor_status_name(TENSOR_E_CANCELLED), "TENSOR_E_CANCELLED");
  remove_dir();
}
END_TEST

/* struct_size versions the options: too small is refused, a larger struct
 * from a later header is accepted only while its unknown tail is zero. */
START_TEST(load_options_struct_size_checks) {
  make_dir();
  tensor_t *a = arange_f32(16);
  ck_ok(tensor_save_npy(a, in_dir("a.npy")));
  tensor_release(a);
  struct {
    tensor_load_options_t known;
    uint64_t later_field;
  } bigger;
  memset(&bigger, 0, sizeof bigger);
  bigger.known.struct_size = sizeof bigger;
  tensor_t *t = SENTINEL_ANY;
  ck_ok(tensor_load_npy_with(&t, in_dir("a.npy"), TENSOR_LOAD_COPY, &bigger.known));
  tensor_release(t);
  bigger.later_field = 1;
  t = SENTINEL_ANY;
  ck_status(tensor_load_npy_with(&t, in_dir("a.npy"), TENSOR_LOAD_COPY, &bigger.known), TENSOR_E_UNSUPPORTED);
  ck_assert_ptr_null(t);
  tensor_load_options_t o = options_for(NULL, 0);
  const size_t sizes[] = {0, 8, offsetof(tensor_load_options_t, num_threads)};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    o.struct_size = sizes[i];
    t = SENTINEL_ANY;
    ck_status(tensor_load_npy_with(&t, in_dir("a.npy"), TENSOR_LOAD_COPY, &o), TENSOR_E_INVALID);
    ck_assert_ptr_null(t);
    tensor_safetensors_t *sf = SENTINEL_ANY;
    ck_status(tensor_safetensors_open_with(&sf, in_dir("a.npy"), 0, &o), TENSOR_E_INVALID);
    ck_assert_ptr_null(sf);
  }
  o = options_for(NULL, -1);
  ck_status(tensor_load_npy_with(&t, in_dir("a.npy"), TENSOR_LOAD_COPY, &o), TENSOR_E_INVALID);
  ck_status(tensor_load_npy_with(&t, in_dir("a.npy"), 8, NULL), TENSOR_E_INVALID);
  ck_status(tensor_load_npy_with(NULL, in_dir("a.npy"), 0, NULL), TENSOR_E_INVALID);
  ck_status(tensor_load_npy_with(&t, NULL, 0, NULL), TENSOR_E_INVALID);
  ck_status(tensor_safetensors_open_with(NULL, in_dir("a.npy"), 0, NULL), TENSOR_E_INVALID);
  ck_ok(tensor_load_npy_with(&t, in_dir("a.npy"), 0, NULL)); /* NULL options: the defaults */
  ck_assert(((const float *)tensor_data(t))[15] == 15.0f);
  tensor_release(t);
  remove_dir();
}
END_TEST

/* A copy-mode load on several threads gives the mapped load's bytes, for .npy
 * and safetensors, at every thread count. */
START_TEST(threaded_load_is_bit_identical_to_mapped) {
  make_dir();
  const int32_t saved = tensor_get_num_threads();
  ck_ok(tensor_set_num_threads(4));
  const size_t n = ((size_t)130 << 20) / 4 + 12345; /* 130 MiB and a partial chunk */
  write_counting_npy(in_dir("t.npy"), n);
  write_counting_safetensors(in_dir("t.safetensors"), n / 3, n - n / 3);
  tensor_t *mapped = NULL;
  ck_ok(tensor_load_npy(&mapped, in_dir("t.npy"), 0));
  tensor_safetensors_t *mapped_st = NULL;
  ck_ok(tensor_safetensors_open(&mapped_st, in_dir("t.safetensors"), 0));
  tensor_t *ma = NULL, *mb = NULL;
  ck_ok(tensor_safetensors_get(&ma, mapped_st, "a"));
  ck_ok(tensor_safetensors_get(&mb, mapped_st, "b"));
  for (int32_t threads = 1; threads <= 4; threads += 3) {
    progress_log log;
    memset(&log, 0, sizeof log);
    const tensor_load_options_t o = options_for(&log, threads);
    tensor_t *t = NULL;
    ck_ok(tensor_load_npy_with(&t, in_dir("t.npy"), TENSOR_LOAD_COPY, &o));
    ck_assert(!tensor_is_readonly(t));
    ck_assert_int_eq(memcmp(tensor_data(t), tensor_data(mapped), 4 * n), 0);
    ck_assert_uint_eq(log.done[log.calls - 1], 4 * (uint64_t)n);
    tensor_release(t);
    tensor_safetensors_t *sf = NULL;
    ck_ok(tensor_safetensors_open_with(&sf, in_dir("t.safetensors"), TENSOR_LOAD_COPY, &o));
    tensor_t *a = NULL, *b = NULL;
    ck_ok(tensor_safetensors_get(&a, sf, "a"));
    ck_ok(tensor_safetensors_get(&b, sf, "b"));
    tensor_safetensors_release(sf);
    ck_assert_int_eq(memcmp(tensor_data(a), tensor_data(ma), 4 * (n / 3)), 0);
    ck_assert_int_eq(memcmp(tensor_data(b), tensor_data(mb), 4 * (n - n / 3)), 0);
    ck_assert_uint_eq(((const uint32_t *)tensor_data(b))[0], (uint32_t)(n / 3));
    tensor_release(a);
    tensor_release(b);
  }
  tensor_release(ma);
  tensor_release(mb);
  tensor_safetensors_release(mapped_st);
  tensor_release(mapped);
  ck_ok(tensor_set_num_threads(saved));
  remove_dir();
}
END_TEST

static Suite *files_suite(void) {
  Suite *s = suite_create("files");
  TCase *tc = tcase_create("files");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, map_file_read_only_at_unaligned_offset);
  tcase_add_test(tc, map_file_write_reaches_the_file);
  tcase_add_test(tc, map_file_private_is_copy_on_write);
  tcase_add_test(tc, map_file_refuses_ranges_outside_the_file);
  tcase_add_test(tc, shared_storage_is_fd_backed_sealed_and_cloexec);
  tcase_add_test(tc, forked_workers_write_disjoint_slices);
  tcase_add_test(tc, descriptor_passed_over_a_unix_socket);
  tcase_add_test(tc, from_fd_duplicates_and_checks_sizes);
  tcase_add_test(tc, npy_round_trip_every_dtype);
  tcase_add_test(tc, npy_header_is_numpys);
  tcase_add_test(tc, npy_save_strided_and_0d_and_empty);
  tcase_add_test(tc, npy_fortran_order_is_a_strided_view);
  tcase_add_test(tc, npy_fortran_order_empty_huge_sizes);
  tcase_add_test(tc, npy_versions_2_and_3_and_big_endian);
  tcase_add_test(tc, npy_writable_load_never_reaches_the_file);
  tcase_add_test(tc, npy_refuses_malformed_files);
  tcase_add_test(tc, npy_every_truncation_fails_cleanly);
  tcase_add_test(tc, npy_save_refusals);
  tcase_add_test(tc, safetensors_round_trip);
  tcase_add_test(tc, safetensors_header_layout);
  tcase_add_test(tc, safetensors_metadata_keys_from_the_handle);
  tcase_add_test(tc, safetensors_unaligned_tensor_is_copied);
  tcase_add_test(tc, safetensors_refuses_malicious_headers);
  tcase_add_test(tc, safetensors_many_tensors_each_found_by_name);
  tcase_add_test(tc, safetensors_headers_judged_as_the_tree_reader_did);
  tcase_add_test(tc, safetensors_every_truncation_fails_cleanly);
  tcase_add_test(tc, safetensors_save_refusals);
  tcase_add_test(tc, no_descriptor_leaks_across_everything);
  tcase_add_test(tc, load_progress_is_monotonic_and_ends_at_total);
  tcase_add_test(tc, load_cancelled_by_the_callback_frees_everything);
  tcase_add_test(tc, load_options_struct_size_checks);
  tcase_add_test(tc, threaded_load_is_bit_identical_to_mapped);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(files_suite()); }
