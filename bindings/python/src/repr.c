/* repr(t) exactly as PyTorch 1.13's torch/_tensor_str.py prints it, "ctensor."
   standing for "torch.", including torch.set_printoptions. The structure follows
   that file: a Formatter sized over the (summarised) values, then nested rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* torch's PRINT_OPTS; sci_mode -1 means "decide per tensor" (None). */
static struct {
  int precision;
  double threshold;
  int64_t edgeitems, linewidth;
  int sci_mode;
} opts = {4, 1000, 3, 80, -1};

#define PRECISION opts.precision
#define EDGEITEMS opts.edgeitems
#define LINEWIDTH opts.linewidth

/* ---- a growable string -------------------------------------------------- */

typedef struct {
  char *data;
  size_t len, cap;
  int failed;
} Str;

static void put(Str *s, const char *text, size_t n) {
  if (s->failed) return;
  if (s->len + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->len + n + 1) cap *= 2;
    char *data = PyMem_Realloc(s->data, cap);
    if (!data) {
      s->failed = 1;
      return;
    }
    s->data = data;
    s->cap = cap;
  }
  memcpy(s->data + s->len, text, n);
  s->len += n;
  s->data[s->len] = '\0';
}

static void puts_(Str *s, const char *text) { put(s, text, strlen(text)); }

static void spaces(Str *s, int64_t n) {
  for (int64_t i = 0; i < n; i++) put(s, " ", 1);
}

/* ---- the values --------------------------------------------------------- */

/* A strided block of elements; `part` picks the real (0) or imaginary (1)
   component, as torch formats t.real and t.imag separately. */
typedef struct {
  tensor_dtype_t dtype;
  const char *data;
  int64_t ndim;
  const int64_t *sizes;
  const int64_t *byte_strides;
} Block;

static Block sub(const Block *b, int64_t i) {
  Block r = {b->dtype, b->data + i * b->byte_strides[0], b->ndim - 1, b->sizes + 1, b->byte_strides + 1};
  return r;
}

static double value(const Block *b, int part) {
  return part ? ct_scalar_imag(b->dtype, b->data) : ct_scalar_as_double(b->dtype, b->data);
}

/* Calls fn on every element torch's get_summarized_data keeps: the first and last
   EDGEITEMS along each dim longer than 2*EDGEITEMS when summarising. */
typedef void (*visit_fn)(void *ctx, const Block *element);

static void visit(const Block *b, int summarize, visit_fn fn, void *ctx) {
  if (b->ndim == 0) {
    fn(ctx, b);
    return;
  }
  const int64_t n = b->sizes[0];
  for (int64_t i = 0; i < n; i++) {
    if (summarize && n > 2 * EDGEITEMS && i == EDGEITEMS) i = n - EDGEITEMS;
    const Block s = sub(b, i);
    visit(&s, summarize, fn, ctx);
  }
}

/* ---- the formatter (torch's _Formatter) --------------------------------- */

typedef struct {
  int floating, int_mode, sci_mode, part;
  int64_t max_width;
  /* scan state */
  int64_t count;
  double min_abs, max_abs;
} Formatter;

static int format_double(char *buf, size_t size, double v, char conv, int precision) {
  if (isnan(v)) return snprintf(buf, size, "nan"); /* Python prints no sign for NaN */
  if (isinf(v)) return snprintf(buf, size, v < 0 ? "-inf" : "inf");
  return conv == 'e' ? snprintf(buf, size, "%.*e", precision, v) : snprintf(buf, size, "%.*f", precision, v);
}

static void format_int(char *buf, size_t size, const Block *b) {
  uint64_t u; /* the element's bits, through memcpy: it may be unaligned */
  int64_t i;
  switch (b->dtype) {
    case TENSOR_BOOL: snprintf(buf, size, "%s", *(const uint8_t *)b->data ? "True" : "False"); break;
    case TENSOR_UINT64:
      memcpy(&u, b->data, sizeof u);
      snprintf(buf, size, "%llu", (unsigned long long)u);
      break;
    case TENSOR_INT64:
      memcpy(&i, b->data, sizeof i);
      snprintf(buf, size, "%lld", (long long)i);
      break;
    default: snprintf(buf, size, "%.0f", ct_scalar_as_double(b->dtype, b->data)); /* exact below 2^53 */
  }
}

static void scan_int_width(void *ctx, const Block *e) {
  Formatter *f = ctx;
  char buf[64];
  format_int(buf, sizeof buf, e);
  if ((int64_t)strlen(buf) > f->max_width) f->max_width = (int64_t)strlen(buf);
}

static void scan_range(void *ctx, const Block *e) {
  Formatter *f = ctx;
  const double v = value(e, f->part);
  if (!isfinite(v) || v == 0.0) return;
  const double a = fabs(v);
  if (f->count == 0 || a < f->min_abs) f->min_abs = a;
  if (f->count == 0 || a > f->max_abs) f->max_abs = a;
  if (v != ceil(v)) f->int_mode = 0;
  f->count++;
}

static void scan_float_width(void *ctx, const Block *e) {
  Formatter *f = ctx;
  const double v = value(e, f->part);
  if (!isfinite(v) || v == 0.0) return;
  char buf[64];
  int64_t len;
  if (f->sci_mode) len = format_double(buf, sizeof buf, v, 'e', PRECISION);
  else if (f->int_mode) len = format_double(buf, sizeof buf, v, 'f', 0) + 1; /* the '.' */
  else len = format_double(buf, sizeof buf, v, 'f', PRECISION);
  if (len > f->max_width) f->max_width = len;
}

static void formatter_init(Formatter *f, const Block *b, int summarize, int part) {
  memset(f, 0, sizeof *f);
  f->floating = ct_dtype_is_floating(b->dtype) || ct_dtype_is_complex(b->dtype);
  f->int_mode = 1;
  f->max_width = 1;
  f->part = part;
  if (!f->floating) {
    visit(b, summarize, scan_int_width, f);
    return;
  }
  visit(b, summarize, scan_range, f);
  if (f->count == 0) {
    if (opts.sci_mode >= 0) f->sci_mode = opts.sci_mode;
    return;
  }
  if (f->int_mode) f->sci_mode = f->max_abs / f->min_abs > 1000.0 || f->max_abs > 1.0e8;
  else f->sci_mode = f->max_abs / f->min_abs > 1000.0 || f->max_abs > 1.0e8 || f->min_abs < 1.0e-4;
  visit(b, summarize, scan_float_width, f);
  if (opts.sci_mode >= 0) f->sci_mode = opts.sci_mode;
}

/* One element, right-aligned to the formatter's width, into buf. */
static void format_element(const Formatter *f, const Block *e, char *buf, size_t size) {
  char raw[400]; /* "%.30f" of the largest double fits */
  if (!f->floating) {
    format_int(raw, sizeof raw, e);
  } else {
    const double v = value(e, f->part);
    if (f->sci_mode) {
      format_double(raw, sizeof raw, v, 'e', PRECISION);
    } else if (f->int_mode) {
      format_double(raw, sizeof raw, v, 'f', 0);
      if (isfinite(v)) strcat(raw, ".");
    } else {
      format_double(raw, sizeof raw, v, 'f', PRECISION);
    }
  }
  const int64_t pad = f->max_width - (int64_t)strlen(raw);
  snprintf(buf, size, "%*s%s", pad > 0 ? (int)pad : 0, "", raw);
}

/* A scalar's text: real, or torch's "real+imagj" for complex. */
static void format_value(const Formatter *f1, const Formatter *f2, const Block *e, char *buf, size_t size) {
  format_element(f1, e, buf, size);
  if (!f2) return;
  char imag[512];
  format_element(f2, e, imag, sizeof imag);
  const char *im = imag;
  while (*im == ' ') im++; /* (... + "j").lstrip() */
  const size_t len = strlen(buf);
  snprintf(buf + len, size - len, "%s%sj", (*im == '+' || *im == '-') ? "" : "+", im);
}

/* ---- layout (torch's _vector_str / _tensor_str_with_formatter) ----------- */

static void vector_str(Str *s, const Block *b, int64_t indent, int summarize, const Formatter *f1,
                       const Formatter *f2) {
  int64_t element_length = f1->max_width + 2;
  if (f2) element_length += f2->max_width + 1;
  int64_t per_line = (int64_t)floor((double)(LINEWIDTH - indent) / (double)element_length);
  if (per_line < 1) per_line = 1;
  const int64_t n = b->sizes[0];
  const int skip = summarize && n > 2 * EDGEITEMS;
  put(s, "[", 1);
  int64_t k = 0; /* position in torch's `data` list, " ..." included */
  for (int64_t i = 0; i < n; i++, k++) {
    if (k > 0) {
      if (k % per_line == 0) {
        put(s, ",\n", 2);
        spaces(s, indent + 1);
      } else {
        put(s, ", ", 2);
      }
    }
    if (skip && i == EDGEITEMS) {
      put(s, " ...", 4);
      i = n - EDGEITEMS - 1;
      continue;
    }
    char buf[1024];
    const Block e = sub(b, i);
    format_value(f1, f2, &e, buf, sizeof buf);
    puts_(s, buf);
  }
  put(s, "]", 1);
}

static void tensor_str(Str *s, const Block *b, int64_t indent, int summarize, const Formatter *f1,
                       const Formatter *f2) {
  if (b->ndim == 0) {
    char buf[1024];
    format_value(f1, f2, b, buf, sizeof buf);
    puts_(s, buf);
    return;
  }
  if (b->ndim == 1) {
    vector_str(s, b, indent, summarize, f1, f2);
    return;
  }
  const int64_t n = b->sizes[0];
  const int skip = summarize && n > 2 * EDGEITEMS;
  put(s, "[", 1);
  for (int64_t i = 0; i < n; i++) {
    if (i > 0) { /* slices joined by "," + "\n" * (dim - 1) + " " * (indent + 1) */
      put(s, ",", 1);
      for (int64_t k = 0; k < b->ndim - 1; k++) put(s, "\n", 1);
      spaces(s, indent + 1);
    }
    if (skip && i == EDGEITEMS) {
      put(s, "...", 3);
      i = n - EDGEITEMS - 1;
      continue;
    }
    const Block e = sub(b, i);
    tensor_str(s, &e, indent + 1, summarize, f1, f2);
  }
  put(s, "]", 1);
}

/* ---- the whole repr (torch's _str_intern and _add_suffixes) -------------- */

static void size_tuple(Str *s, const tensor_t *t) {
  const int64_t ndim = tensor_ndim(t);
  put(s, "(", 1);
  for (int64_t i = 0; i < ndim; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, i ? ", %lld" : "%lld", (long long)tensor_sizes(t)[i]);
    puts_(s, buf);
  }
  if (ndim == 1) put(s, ",", 1);
  put(s, ")", 1);
}

static const char *device_name(int32_t type) {
  switch (type) {
    case kDLCUDA: return "cuda";
    case kDLROCM: return "hip";
    case kDLMetal: return "mps";
    case kDLOneAPI: return "xpu";
    case kDLVulkan: return "vulkan";
    default: return "dlpack";
  }
}

PyObject *ct_tensor_repr(PyObject *self) {
  const tensor_t *t = SELF(self);
  const tensor_dtype_t dtype = tensor_dtype(t);
  const int64_t indent = 7; /* len("tensor(") */
  Str body = {0}, sfx[3] = {{0}, {0}, {0}};
  int nsfx = 0;
  int32_t dev_type, dev_id;
  tensor_device(t, &dev_type, &dev_id);
  const int on_cpu = dev_type == kDLCPU || dev_type == kDLCUDAHost || dev_type == kDLCUDAManaged;
  const int default_dtype = dtype == TENSOR_FLOAT32 || dtype == TENSOR_COMPLEX64 || dtype == TENSOR_INT64 ||
                            dtype == TENSOR_BOOL;
  puts_(&body, "tensor(");
  if (!on_cpu) { /* memory we may not read: printed as torch prints meta tensors */
    char buf[64];
    snprintf(buf, sizeof buf, "device='%s:%d'", device_name(dev_type), (int)dev_id);
    puts_(&sfx[nsfx++], buf);
    puts_(&body, "...");
    puts_(&sfx[nsfx], "size=");
    size_tuple(&sfx[nsfx++], t);
    if (dtype != TENSOR_FLOAT32) {
      puts_(&sfx[nsfx], "dtype=ctensor.");
      puts_(&sfx[nsfx++], tensor_dtype_name(dtype));
    }
  } else if (tensor_numel(t) == 0) {
    puts_(&body, "[]");
    if (tensor_ndim(t) != 1) { /* the shape is shown unless it is (0,) */
      puts_(&sfx[nsfx], "size=");
      size_tuple(&sfx[nsfx++], t);
    }
    if (dtype != TENSOR_FLOAT32) {
      puts_(&sfx[nsfx], "dtype=ctensor.");
      puts_(&sfx[nsfx++], tensor_dtype_name(dtype));
    }
  } else {
    if (!default_dtype) {
      puts_(&sfx[nsfx], "dtype=ctensor.");
      puts_(&sfx[nsfx++], tensor_dtype_name(dtype));
    }
    int64_t byte_strides[TENSOR_MAX_DIMS];
    const int64_t itemsize = (int64_t)tensor_dtype_size(dtype);
    for (int64_t i = 0; i < tensor_ndim(t); i++) byte_strides[i] = tensor_strides(t)[i] * itemsize;
    const Block b = {dtype, tensor_data(t), tensor_ndim(t), tensor_sizes(t), byte_strides};
    const int summarize = (double)tensor_numel(t) > opts.threshold;
    Formatter f1, f2;
    formatter_init(&f1, &b, summarize, 0);
    if (ct_dtype_is_complex(dtype)) formatter_init(&f2, &b, summarize, 1);
    tensor_str(&body, &b, indent, summarize, &f1, ct_dtype_is_complex(dtype) ? &f2 : NULL);
  }
  /* _add_suffixes: a suffix goes on a new line if it would pass the line width.
     Lines break where torch's do: "ctensor." counts as long as "torch.", so the
     output is torch's with one name replaced by the other. */
  const char *nl = body.data ? strrchr(body.data, '\n') : NULL;
  int64_t last_line_len = (int64_t)body.len - (nl ? (int64_t)(nl - body.data) : -1) + 1;
  for (int i = 0; i < nsfx; i++) {
    const int64_t len = (int64_t)sfx[i].len - (sfx[i].data && strstr(sfx[i].data, "ctensor.") ? 2 : 0);
    if (last_line_len + len + 2 > LINEWIDTH) {
      put(&body, ",\n", 2);
      spaces(&body, indent);
      last_line_len = indent + len;
    } else {
      put(&body, ", ", 2);
      last_line_len += len + 2;
    }
    put(&body, sfx[i].data ? sfx[i].data : "", sfx[i].len);
  }
  put(&body, ")", 1);
  int failed = body.failed;
  for (int i = 0; i < 3; i++) {
    failed |= sfx[i].failed;
    PyMem_Free(sfx[i].data);
  }
  PyObject *r = failed ? PyErr_NoMemory() : PyUnicode_FromStringAndSize(body.data, (Py_ssize_t)body.len);
  PyMem_Free(body.data);
  return r;
}

/* torch.set_printoptions(precision, threshold, edgeitems, linewidth, profile, sci_mode). */
PyObject *ct_set_printoptions(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"precision", "threshold", "edgeitems", "linewidth", "profile", "sci_mode", NULL};
  PyObject *precision = Py_None, *threshold = Py_None, *edgeitems = Py_None, *linewidth = Py_None,
           *sci_mode = Py_None;
  const char *profile = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOOOzO:set_printoptions", kwlist, &precision, &threshold,
                                   &edgeitems, &linewidth, &profile, &sci_mode))
    return NULL;
  if (profile) {
    if (strcmp(profile, "default") == 0) opts.precision = 4, opts.threshold = 1000, opts.edgeitems = 3;
    else if (strcmp(profile, "short") == 0) opts.precision = 2, opts.threshold = 1000, opts.edgeitems = 2;
    else if (strcmp(profile, "full") == 0) opts.precision = 4, opts.threshold = INFINITY, opts.edgeitems = 3;
    opts.linewidth = 80;
  }
  long p = opts.precision;
  long long e = opts.edgeitems, w = opts.linewidth;
  double th = opts.threshold;
  if ((precision != Py_None && (p = PyLong_AsLong(precision)) == -1 && PyErr_Occurred()) ||
      (edgeitems != Py_None && (e = PyLong_AsLongLong(edgeitems)) == -1 && PyErr_Occurred()) ||
      (linewidth != Py_None && (w = PyLong_AsLongLong(linewidth)) == -1 && PyErr_Occurred()) ||
      (threshold != Py_None && (th = PyFloat_AsDouble(threshold)) == -1.0 && PyErr_Occurred()))
    return NULL;
  if (p < 0 || p > 30 || e < 0) {
    PyErr_SetString(PyExc_ValueError, "set_printoptions(): precision must be in [0, 30] and edgeitems >= 0");
    return NULL;
  }
  const int sci = sci_mode == Py_None ? -1 : PyObject_IsTrue(sci_mode);
  if (sci == -1 && PyErr_Occurred()) return NULL;
  opts.precision = (int)p;
  opts.edgeitems = e;
  opts.linewidth = w;
  opts.threshold = th;
  opts.sci_mode = sci; /* always set, as torch does */
  Py_RETURN_NONE;
}
