/* Arrow import of arbitrary ArrowSchema/ArrowArray trees: formats, extension
   metadata JSON, buffer counts and pointers, offsets, lengths, null counts and
   children all come from the input. The C Data Interface carries no buffer
   sizes, so lengths and offsets stay small and every buffer points into a
   pool large enough for any slot they can name; the pool's bytes (validity
   bits, list offsets, shapes, values) come from the input too. Whatever the
   structs say, an import either fails without releasing the array, or gives a
   tensor whose every element can be read (ASan checks) and whose release
   runs the producer's release exactly once; a successful import exported
   again and re-imported gives equal values. */
#include "fuzz_common.h"
#include "ctensor_arrow.h"

enum { kNodes = 24, kPool = 4096 };

typedef struct {
  struct ArrowSchema s;
  struct ArrowArray a;
  struct ArrowSchema *schema_children[3];
  struct ArrowArray *array_children[3];
  const void *buffers[4];
  char format[16];
  char meta[400];
  char name[8];
} node;

static node nodes[kNodes];
static int used;
static _Alignas(64) uint8_t pool[kPool];
static int released;

static void release_top(struct ArrowArray *a) {
  ++released;
  a->release = NULL;
}
static void release_child(struct ArrowArray *a) { a->release = NULL; }
static void release_schema(struct ArrowSchema *s) { s->release = NULL; }

static int64_t small(reader *r) {
  const uint8_t v = take_u8(r);
  return v < 240 ? v % 13 : (int64_t)(int8_t)v / 8; /* mostly 0..12, sometimes negative */
}

static void put_i32(char **p, int32_t v) {
  memcpy(*p, &v, 4);
  *p += 4;
}

/* The C Data Interface's metadata encoding of one extension name and a JSON text from the input. */
static const char *make_metadata(reader *r, char *buf) {
  static const char *const names[] = {"arrow.fixed_shape_tensor", "arrow.variable_shape_tensor", "ctensor.complex64",
                                      "ctensor.complex128",       "ctensor.bfloat16",            "other.ext"};
  const uint8_t pick = take_u8(r);
  if (pick % 3 == 0) return NULL;
  const char *name = names[pick % 6];
  char json[200];
  size_t n = 0;
  if (take_u8(r) & 1) { /* a template with numbers from the input */
    n = (size_t)snprintf(json, sizeof json, "{\"shape\":[%d,%d],\"permutation\":[%d,%d],\"dim_names\":[\"a\",\"b\"]}",
                         (int)small(r), (int)small(r), take_u8(r) % 3, take_u8(r) % 3);
    if (take_u8(r) & 1) n = (size_t)snprintf(json, sizeof json, "{\"shape\":[%d]}", (int)small(r));
  } else { /* raw bytes */
    n = take_u8(r) % 64;
    for (size_t i = 0; i < n; i++) json[i] = (char)take_u8(r);
  }
  char *p = buf;
  put_i32(&p, 2);
  put_i32(&p, 20);
  memcpy(p, "ARROW:extension:name", 20);
  p += 20;
  put_i32(&p, (int32_t)strlen(name));
  memcpy(p, name, strlen(name));
  p += strlen(name);
  put_i32(&p, 24);
  memcpy(p, "ARROW:extension:metadata", 24);
  p += 24;
  put_i32(&p, (int32_t)n);
  memcpy(p, json, n);
  return buf;
}

static node *build(reader *r, int depth, int top) {
  static const char *const formats[] = {"c", "C", "s", "S", "i", "I", "l", "L", "e", "f",
                                        "g", "b", "u", "?", "tss:", "", "+l", "+L", "+s", "+w:"};
  node *n = &nodes[used++];
  memset(n, 0, sizeof *n);
  const uint8_t kind = take_u8(r) % 20;
  int children = 0;
  if (kind == 19) {
    snprintf(n->format, sizeof n->format, "+w:%d", (int)(take_u8(r) % 5));
    children = 1;
  } else {
    snprintf(n->format, sizeof n->format, "%s", formats[kind]);
    children = kind == 16 || kind == 17 ? 1 : kind == 18 ? 2 : 0;
  }
  if (take_u8(r) == 7) children = take_u8(r) % 3; /* now and then a wrong child count */
  if (depth >= 3 || used + children > kNodes) children = 0;
  snprintf(n->name, sizeof n->name, "%s", take_u8(r) & 1 ? "data" : "shape");
  n->s.format = n->format;
  n->s.name = n->name;
  n->s.metadata = make_metadata(r, n->meta);
  n->s.release = release_schema;
  n->s.n_children = children;
  n->s.children = children ? n->schema_children : NULL;

  n->a.length = small(r);
  n->a.offset = small(r);
  const uint8_t nulls = take_u8(r) % 8;
  n->a.null_count = nulls < 5 ? 0 : nulls == 5 ? -1 : nulls == 6 ? 1 : -2;
  const int64_t expected_buffers = n->format[0] == '+' ? (n->format[1] == 'l' || n->format[1] == 'L' ? 2 : 1) : 2;
  n->a.n_buffers = take_u8(r) == 5 ? take_u8(r) % 4 : expected_buffers;
  for (int64_t b = 0; b < n->a.n_buffers; b++) {
    const uint8_t where = take_u8(r);
    n->buffers[b] = where % 5 == 0 ? NULL : pool + (where % 64) * 16;
  }
  n->a.buffers = n->buffers;
  n->a.release = top ? release_top : release_child;
  n->a.n_children = children;
  n->a.children = children ? n->array_children : NULL;
  for (int c = 0; c < children; c++) {
    node *child = build(r, depth + 1, 0);
    n->schema_children[c] = &child->s;
    n->array_children[c] = &child->a;
  }
  return n;
}

/* Reads every element (ASan sees any read outside the pool) and checks an export round trip. */
static void check_tensor(tensor_t *t) {
  int32_t type = 0;
  tensor_device(t, &type, NULL);
  if (type != kDLCPU) return;
  tensor_t *copy = NULL;
  FUZZ_CHECK(tensor_clone(&copy, t) == TENSOR_OK, "clone of an imported tensor");
  if (tensor_ndim(t) >= 1) {
    struct ArrowSchema s;
    struct ArrowArray a;
    const tensor_status_t exported = tensor_to_arrow(&s, &a, t, 0);
    if (exported == TENSOR_E_UNSUPPORTED && tensor_numel(t) == 0) {
      /* An empty row of a variable-shape tensor may have dims whose product passes
         the int32 list size a FixedSizeList export needs ([0, 2^27, 2^27]): refused. */
      tensor_release(copy);
      return;
    }
    FUZZ_CHECK(exported == TENSOR_OK, "export of an imported tensor");
    tensor_t *back = NULL;
    FUZZ_CHECK(tensor_from_arrow(&back, &s, &a) == TENSOR_OK, "import of an export");
    int32_t eq = 0;
    FUZZ_CHECK(tensor_equal(&eq, back, copy) == TENSOR_OK, "compare");
    int32_t nan = tensor_dtype(t) == TENSOR_FLOAT16 || tensor_dtype(t) == TENSOR_FLOAT32 ||
                  tensor_dtype(t) == TENSOR_FLOAT64 || tensor_dtype(t) == TENSOR_BFLOAT16 ||
                  tensor_dtype(t) == TENSOR_COMPLEX64 || tensor_dtype(t) == TENSOR_COMPLEX128;
    FUZZ_CHECK(eq || nan, "round trip changed the values");
    s.release(&s);
    tensor_release(back);
  }
  tensor_release(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The pool: the input's last half (bits, offsets, shapes, values), zeros after;
     the structs come from the first half. */
  const size_t tail = size / 2 < kPool ? size / 2 : kPool;
  memset(pool, 0, sizeof pool);
  if (tail) memcpy(pool, data + size - tail, tail);
  reader r = {data, size - tail};
  used = 0;
  released = 0;
  const uint8_t mode = take_u8(&r) % 3;
  node *top = build(&r, 0, 1);

  if (mode == 2) {
    tensor_t **rows = NULL;
    int64_t count = -1;
    const tensor_status_t st = tensor_from_arrow_variable_shape(&rows, &count, &top->s, &top->a);
    if (st != TENSOR_OK) {
      FUZZ_CHECK(rows == NULL && count == 0 && released == 0 && top->a.release, "failed import took the array");
      top->a.release(&top->a);
      return 0;
    }
    FUZZ_CHECK(top->a.release == NULL, "imported array not marked moved");
    for (int64_t i = 0; i < count; i++) check_tensor(rows[i]);
    tensor_arrow_list_release(rows, count);
    FUZZ_CHECK(released == 1, "release ran %d times", released);
    return 0;
  }
  tensor_t *t = NULL;
  tensor_status_t st;
  if (mode == 1) {
    struct ArrowDeviceArray d;
    memset(&d, 0, sizeof d);
    d.array = top->a;
    d.device_type = take_u8(&r) & 1 ? ARROW_DEVICE_CPU : ARROW_DEVICE_CUDA;
    st = tensor_from_arrow_device(&t, &top->s, &d);
    top->a.release = d.array.release;
  } else {
    st = tensor_from_arrow(&t, &top->s, &top->a);
  }
  if (st != TENSOR_OK) {
    FUZZ_CHECK(t == NULL && released == 0 && top->a.release, "failed import took the array");
    top->a.release(&top->a);
    return 0;
  }
  FUZZ_CHECK(top->a.release == NULL, "imported array not marked moved");
  check_tensor(t);
  tensor_release(t);
  FUZZ_CHECK(released == 1, "release ran %d times", released);
  return 0;
}
