/* The interpreter target: input bytes become a sequence of API calls on small
   tensors sharing one storage (view chains, as_strided with extreme numbers,
   copies between overlapping views, casts across all dtypes, fill, DLPack round
   trips). After every step: each tensor's elements lie inside its storage; a
   contiguous copy equals a gather by hand; same-dtype copies between views of
   one storage give what a copy through a snapshot gives; filled elements are
   all equal. At the end every reference is back where it started.
   New operations (the math ops, when they exist) are added as cases of `step`. */
#include "fuzz_common.h"

#define SLOTS 8
#define MAX_COPY_ELEMENTS 4096
#define MAX_DIMS_ARG 80

typedef struct {
  tensor_storage_t *storage;
  tensor_t *slot[SLOTS];
  int deleted; /* DLPack deleter calls */
} state;

static void put(state *s, int i, tensor_t *t) {
  tensor_release(s->slot[i]);
  s->slot[i] = t;
  if (t) check_in_bounds(t);
}

static tensor_t *pick(state *s, reader *r) {
  for (int tries = 0; tries < SLOTS; ++tries) {
    tensor_t *t = s->slot[(take_u8(r) + tries) % SLOTS];
    if (t) return t;
  }
  return s->slot[0];
}

static int small(const tensor_t *t) { return tensor_numel(t) <= MAX_COPY_ELEMENTS; }

static void take_dims(reader *r, int64_t *ndim, int64_t *sizes, int64_t *strides, int extreme) {
  *ndim = take_u8(r) % 5;
  if (take_u8(r) == 0xAB) *ndim = (int64_t)take_u64(r) % 80 - 8; /* out of range too */
  for (int64_t d = 0; d < 5; ++d) {
    sizes[d] = extreme ? take_i64(r) : take_u8(r) % 5;
    strides[d] = extreme ? take_i64(r) : (int64_t)(int8_t)take_u8(r) % 9;
  }
  for (int64_t d = 5; d < MAX_DIMS_ARG; ++d) sizes[d] = 1, strides[d] = 0; /* what a long ndim reads */
}

/* contiguous(t) is t itself when t is contiguous, else a copy equal to a gather. */
static void check_contiguous(state *s, tensor_t *t) {
  if (!small(t)) return;
  tensor_t *c = NULL;
  const tensor_status_t st = tensor_contiguous(&c, t);
  FUZZ_CHECK(st == TENSOR_OK, "contiguous: %s", tensor_status_name(st));
  FUZZ_CHECK(tensor_is_contiguous(c), "contiguous result not contiguous");
  if (c != t) {
    uint8_t *want = gather(t);
    const size_t bytes = (size_t)tensor_numel(t) * tensor_dtype_size(tensor_dtype(t));
    FUZZ_CHECK(memcmp(tensor_data(c), want, bytes) == 0, "contiguous differs from the gather");
    free(want);
  }
  (void)s;
  tensor_release(c);
}

/* Same-dtype copy: dst gets src's values as they were before the copy. */
static void copy_and_check(tensor_t *dst, tensor_t *src) {
  if (!small(dst) || !small(src)) return;
  const int same = tensor_dtype(dst) == tensor_dtype(src);
  uint8_t *before = same ? gather(src) : NULL;
  const tensor_status_t st = tensor_copy(dst, src);
  if (st == TENSOR_OK && same) {
    const int64_t nd = tensor_ndim(dst), snd = tensor_ndim(src);
    const size_t item = tensor_dtype_size(tensor_dtype(dst));
    uint8_t *after = gather(dst);
    for (int64_t i = 0; i < tensor_numel(dst); ++i) {
      /* the src element that broadcasts to dst's element i */
      int64_t rest = i, j = 0, scale = 1;
      for (int64_t d = nd - 1; d >= 0; --d) {
        const int64_t k = rest % tensor_sizes(dst)[d];
        rest /= tensor_sizes(dst)[d];
        const int64_t sd = d - (nd - snd);
        if (sd >= 0) {
          const int64_t ssize = tensor_sizes(src)[sd];
          j += (ssize == 1 ? 0 : k) * scale;
          scale *= ssize;
        }
      }
      FUZZ_CHECK(memcmp(after + (size_t)i * item, before + (size_t)j * item, item) == 0,
                 "copy: element %lld differs from source element %lld", (long long)i, (long long)j);
    }
    free(after);
  }
  free(before);
}

static void check_filled(tensor_t *t) {
  if (!small(t) || tensor_numel(t) == 0) return;
  uint8_t *v = gather(t);
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  for (int64_t i = 1; i < tensor_numel(t); ++i)
    FUZZ_CHECK(memcmp(v, v + (size_t)i * item, item) == 0, "fill: element %lld differs", (long long)i);
  free(v);
}

static void count_delete(DLManagedTensorVersioned *self) {
  ++*(int *)self->manager_ctx;
  free(self);
}

static void dlpack_round_trip(state *s, tensor_t *t) {
  DLManagedTensorVersioned *m = NULL;
  if (tensor_to_dlpack(&m, t, 0) != TENSOR_OK) return;
  const int64_t before = tensor_refcount(t);
  tensor_t *back = NULL;
  FUZZ_CHECK(tensor_from_dlpack(&back, m) == TENSOR_OK, "import of an export failed");
  FUZZ_CHECK(tensor_ndim(back) == tensor_ndim(t) && tensor_dtype(back) == tensor_dtype(t), "round trip metadata");
  for (int64_t d = 0; d < tensor_ndim(t); ++d)
    FUZZ_CHECK(tensor_sizes(back)[d] == tensor_sizes(t)[d] &&
                   (tensor_sizes(t)[d] < 2 || tensor_strides(back)[d] == tensor_strides(t)[d]),
               "round trip dim %lld", (long long)d);
  if (tensor_numel(t) > 0) FUZZ_CHECK(tensor_data(back) == tensor_data(t), "round trip moved the data");
  tensor_release(back); /* runs the export's deleter */
  FUZZ_CHECK(tensor_refcount(t) == before - 1, "export's reference not returned");

  /* a hand-made managed tensor over t's memory: its deleter runs exactly once */
  if (tensor_numel(t) == 0 || !small(t)) return;
  DLManagedTensorVersioned *own = calloc(1, sizeof *own);
  own->version.major = 1;
  own->dl_tensor.data = tensor_storage_data(tensor_storage(t));
  own->dl_tensor.device.device_type = kDLCPU;
  own->dl_tensor.ndim = (int32_t)tensor_ndim(t);
  own->dl_tensor.shape = (int64_t *)tensor_sizes(t);
  own->dl_tensor.strides = (int64_t *)tensor_strides(t);
  own->dl_tensor.byte_offset = (uint64_t)tensor_storage_offset(t) * tensor_dtype_size(tensor_dtype(t));
  own->dl_tensor.dtype.code = kDLUInt;
  own->dl_tensor.dtype.bits = (uint8_t)(8 * tensor_dtype_size(tensor_dtype(t)));
  own->dl_tensor.dtype.lanes = 1;
  own->manager_ctx = &s->deleted;
  own->deleter = count_delete;
  const int deleted = s->deleted;
  tensor_t *imported = NULL;
  if (tensor_from_dlpack(&imported, own) == TENSOR_OK) {
    check_in_bounds(imported);
    /* the import's storage is exactly within the memory described */
    const uint8_t *lo = tensor_storage_data(tensor_storage(t)), *hi = lo + tensor_storage_nbytes(tensor_storage(t));
    const uint8_t *ilo = tensor_storage_data(tensor_storage(imported));
    FUZZ_CHECK(ilo >= lo && ilo + tensor_storage_nbytes(tensor_storage(imported)) <= hi, "import window");
    check_contiguous(s, imported);
    tensor_release(imported);
    FUZZ_CHECK(s->deleted == deleted + 1, "deleter ran %d times", s->deleted - deleted);
  } else {
    FUZZ_CHECK(s->deleted == deleted, "deleter ran on a failed import");
    free(own);
  }
}

static void step(state *s, reader *r) {
  tensor_t *t = pick(s, r), *out = NULL;
  const int dst = take_u8(r) % SLOTS;
  int64_t ndim, sizes[MAX_DIMS_ARG], strides[MAX_DIMS_ARG];
  switch (take_u8(r) % 20) {
    case 0:
      take_dims(r, &ndim, sizes, strides, 1);
      if (tensor_as_strided(&out, t, ndim, sizes, take_u8(r) & 1 ? strides : NULL, take_i64(r)) == TENSOR_OK)
        put(s, dst, out);
      break;
    case 1:
      take_dims(r, &ndim, sizes, strides, 0);
      if (tensor_as_strided(&out, t, ndim, sizes, strides, take_u8(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 2:
      take_dims(r, &ndim, sizes, strides, take_u8(r) & 1);
      if (take_u8(r) & 1) sizes[take_u8(r) % 5] = -1;
      if (tensor_view(&out, t, ndim, sizes) == TENSOR_OK) put(s, dst, out);
      break;
    case 3:
      take_dims(r, &ndim, sizes, strides, 0);
      if (take_u8(r) & 1) sizes[take_u8(r) % 5] = -1;
      if (small(t) && tensor_reshape(&out, t, ndim, sizes) == TENSOR_OK) put(s, dst, out);
      break;
    case 4:
      if (tensor_transpose(&out, t, take_i64(r), take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 5: {
      int64_t dims[TENSOR_MAX_DIMS];
      for (int d = 0; d < TENSOR_MAX_DIMS; ++d) dims[d] = d < 5 ? (int64_t)(int8_t)take_u8(r) % 6 : d;
      if (tensor_permute(&out, t, tensor_ndim(t), dims) == TENSOR_OK) put(s, dst, out);
      break;
    }
    case 6:
      if (tensor_slice(&out, t, take_i64(r), take_i64(r), take_i64(r), take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 7:
      if (tensor_select(&out, t, take_i64(r), take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 8:
      if (tensor_narrow(&out, t, take_i64(r), take_i64(r), take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 9:
      take_dims(r, &ndim, sizes, strides, take_u8(r) & 1);
      if (take_u8(r) & 1) sizes[0] = -1;
      if (tensor_expand(&out, t, ndim, sizes) == TENSOR_OK) put(s, dst, out);
      break;
    case 10:
      if (tensor_squeeze(&out, t, take_u8(r) & 1 ? TENSOR_ALL_DIMS : take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 11:
      if (tensor_unsqueeze(&out, t, take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 12:
      if (small(t) && tensor_flatten(&out, t, take_i64(r), take_i64(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 13:
      if (tensor_view_dtype(&out, t, take_dtype(r)) == TENSOR_OK) put(s, dst, out);
      break;
    case 14:
      check_contiguous(s, t);
      break;
    case 15:
      copy_and_check(t, pick(s, r));
      break;
    case 16:
      if (small(t)) {
        const int32_t mode = take_u8(r) % 4;
        if (tensor_to(&out, t, take_dtype(r), mode) == TENSOR_OK) {
          FUZZ_CHECK(out == t || tensor_is_contiguous(out), "to: copy not contiguous");
          put(s, dst, out);
        }
      }
      break;
    case 17: {
      double v;
      const uint64_t bits = take_u64(r);
      memcpy(&v, &bits, sizeof v);
      if (small(t) && tensor_fill(t, v) == TENSOR_OK) check_filled(t);
      break;
    }
    case 18:
      dlpack_round_trip(s, t);
      break;
    default:
      if (small(t) && tensor_clone(&out, t) == TENSOR_OK) {
        check_contiguous(s, out);
        put(s, dst, out);
      }
      break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  state s = {0};
  const size_t nbytes = take_u8(&r) % 129;
  if (tensor_storage_new(&s.storage, nbytes) != TENSOR_OK) return 0;
  uint8_t *bytes = tensor_storage_data(s.storage);
  for (size_t i = 0; i < nbytes; ++i) bytes[i] = (uint8_t)(i * 37 + 11);
  const int64_t n = (int64_t)nbytes;
  FUZZ_CHECK(tensor_from_storage(&s.slot[0], s.storage, TENSOR_UINT8, 1, &n, NULL, 0) == TENSOR_OK, "base");
  tensor_set_num_threads(1 + (take_u8(&r) & 1));
  for (int steps = 0; steps < 64 && r.n > 0; ++steps) step(&s, &r);
  for (int i = 0; i < SLOTS; ++i) {
    if (s.slot[i]) FUZZ_CHECK(tensor_refcount(s.slot[i]) >= 1, "slot %d refcount", i);
  }
  /* every tensor holds one storage reference; the loop's own is the last */
  int64_t holders = 0;
  for (int i = 0; i < SLOTS; ++i)
    if (s.slot[i] && tensor_storage(s.slot[i]) == s.storage) ++holders;
  for (int i = 0; i < SLOTS; ++i) put(&s, i, NULL);
  FUZZ_CHECK(tensor_storage_refcount(s.storage) == 1, "storage refcount %lld after releasing %lld holders",
             (long long)tensor_storage_refcount(s.storage), (long long)holders);
  tensor_storage_release(s.storage);
  return 0;
}
