#include "interop/arrow.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "dtype/dispatch.hpp"
#include "engine/copies.hpp"
#include "error.hpp"
#include "io/json.hpp"
#include "layout/shape.hpp"
#include "layout/views.hpp"

namespace ctensor::core {

namespace {

constexpr std::string_view kExtensionName = "ARROW:extension:name";
constexpr std::string_view kExtensionMetadata = "ARROW:extension:metadata";
constexpr std::string_view kFixedShape = "arrow.fixed_shape_tensor";
constexpr std::string_view kVariableShape = "arrow.variable_shape_tensor";
constexpr std::string_view kBFloat16 = "ctensor.bfloat16";
constexpr std::string_view kComplex64 = "ctensor.complex64";
constexpr std::string_view kComplex128 = "ctensor.complex128";

// The primitive format of an element type that has one: Arrow's letter for its
// kind and width, lower case for signed integers ("" for bfloat16 and complex,
// which use the field-level conventions of ctensor_arrow.h).
template <class T>
constexpr const char* primitive_format_of() noexcept {
  constexpr int width = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
  if constexpr (std::is_same_v<T, Bool8>) {
    return "b";
  } else if constexpr (std::is_integral_v<T>) {
    constexpr const char* kLetters[2][4] = {{"C", "S", "I", "L"}, {"c", "s", "i", "l"}};
    return kLetters[std::is_signed_v<T>][width];
  } else if constexpr (std::is_same_v<T, Half> || std::is_floating_point_v<T>) {
    constexpr const char* kLetters[4] = {"", "e", "f", "g"};
    return kLetters[width];
  } else {
    return "";
  }
}

const char* primitive_format(DType d) {
  return dispatch(d, [](auto tag) { return primitive_format_of<typename decltype(tag)::type>(); });
}

std::optional<DType> dtype_of_format(std::string_view f) noexcept {
  for (DType d : kAllDTypes)
    if (!f.empty() && f == primitive_format(d)) return d;
  return std::nullopt;
}

// "+w:N" -> N (0 <= N <= INT32_MAX); -1 if f is not a fixed-size list format.
int64_t fixed_size_list_size(std::string_view f) noexcept {
  if (f.size() < 4 || f.substr(0, 3) != "+w:" || f.size() > 13) return -1;
  int64_t n = 0;
  for (char c : f.substr(3)) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n <= INT32_MAX ? n : -1;
}

int64_t checked_mul(const char* op, int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail(Status::Overflow, op, ": ", what, " overflows (", a, " * ", b, ")");
  return r;
}

int64_t checked_add(const char* op, int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail(Status::Overflow, op, ": ", what, " overflows (", a, " + ", b, ")");
  return r;
}

std::string list_text(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// ---------------------------------------------------------------------------
// Schema metadata: int32 count, then per pair int32 length + key bytes and
// int32 length + value bytes, native-endian (the C Data Interface's encoding).

using Metadata = std::vector<std::pair<std::string, std::string>>;

void append_int32(std::string& out, int32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

std::string encode_metadata(const Metadata& m) {
  std::string out;
  append_int32(out, static_cast<int32_t>(m.size()));
  for (const auto& [key, value] : m) {
    append_int32(out, static_cast<int32_t>(key.size()));
    out += key;
    append_int32(out, static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

Metadata decode_metadata(const char* op, const char* p, const std::string& path) {
  Metadata m;
  if (!p) return m;
  auto read_int = [&](const char* what) {
    int32_t v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    if (v < 0) fail(Status::Format, op, ": ", path, " metadata has a negative ", what, " (", v, ")");
    return v;
  };
  const int32_t n = read_int("pair count");
  for (int32_t i = 0; i < n; i++) {
    const int32_t klen = read_int("key length");
    std::string key(p, static_cast<size_t>(klen));
    p += klen;
    const int32_t vlen = read_int("value length");
    std::string value(p, static_cast<size_t>(vlen));
    p += vlen;
    m.emplace_back(std::move(key), std::move(value));
  }
  return m;
}

const std::string* metadata_value(const Metadata& m, std::string_view key) {
  for (const auto& kv : m)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

// ---------------------------------------------------------------------------
// Export: each struct (parent or child) owns its own node, so a consumer may
// move a child out and release it independently (as the specification allows).

struct SchemaNode {
  std::string format, name, metadata;
  std::unique_ptr<SchemaNode> child_node;  // until attached
  ArrowSchema child{};
  ArrowSchema* children[1] = {&child};
};

void release_schema(ArrowSchema* s) {
  auto* node = static_cast<SchemaNode*>(s->private_data);
  if (node->child.release) node->child.release(&node->child);
  delete node;
  s->release = nullptr;
}

// Moves `node` into `s`.
void fill_schema(ArrowSchema* s, std::unique_ptr<SchemaNode> node) {
  SchemaNode* n = node.release();
  std::unique_ptr<SchemaNode> child = std::move(n->child_node);
  *s = ArrowSchema{};
  s->format = n->format.c_str();
  s->name = n->name.c_str();
  s->metadata = n->metadata.empty() ? nullptr : n->metadata.data();
  s->flags = ARROW_FLAG_NULLABLE;
  s->n_children = child ? 1 : 0;
  s->children = child ? n->children : nullptr;
  s->release = &release_schema;
  s->private_data = n;
  if (child) fill_schema(&n->child, std::move(child));
}

std::unique_ptr<SchemaNode> schema_node(std::string format, std::string name, const Metadata& m = {}) {
  auto node = std::make_unique<SchemaNode>();
  node->format = std::move(format);
  node->name = std::move(name);
  if (!m.empty()) node->metadata = encode_metadata(m);
  return node;
}

std::unique_ptr<SchemaNode> value_schema(DType d, std::string name) {
  if (d == dtype::BFloat16) return schema_node("S", std::move(name), {{std::string(kExtensionName), std::string(kBFloat16)}, {std::string(kExtensionMetadata), ""}});
  if (d == dtype::Complex64 || d == dtype::Complex128) {
    const bool c64 = d == dtype::Complex64;
    auto node = schema_node("+w:2", std::move(name),
                            {{std::string(kExtensionName), std::string(c64 ? kComplex64 : kComplex128)},
                             {std::string(kExtensionMetadata), ""}});
    node->child_node = schema_node(c64 ? "f" : "g", "item");
    return node;
  }
  return schema_node(primitive_format(d), std::move(name));
}

struct ArrayNode {
  Ref<Tensor> keep;  // the memory the buffers point into
  MemoryPin pin;     // ...pinned while the consumer holds the buffers

  void hold(const Ref<Tensor>& t) {
    keep = t;
    pin = MemoryPin(t->storage());
  }
  const void* buffers[2] = {nullptr, nullptr};
  std::unique_ptr<ArrayNode> child_node;
  ArrowArray child{};
  ArrowArray* children[1] = {&child};
};

void release_array(ArrowArray* a) {
  auto* node = static_cast<ArrayNode*>(a->private_data);
  if (node->child.release) node->child.release(&node->child);
  delete node;
  a->release = nullptr;
}

// Moves `node` into `a` (children are attached by the caller).
void fill_array(ArrowArray* a, std::unique_ptr<ArrayNode> node, int64_t length, int64_t n_buffers) {
  ArrayNode* n = node.release();
  *a = ArrowArray{};
  a->length = length;
  a->n_buffers = n_buffers;
  a->buffers = n->buffers;
  a->release = &release_array;
  a->private_data = n;
}

// A size-0 buffer is never read; Arrow consumers still prefer it non-NULL.
alignas(64) const unsigned char kEmpty[64] = {};

// The node of an array of dtype d values at `data` (kept alive by `keep`); fill_value_array sets its length.
std::unique_ptr<ArrayNode> value_array(DType d, const void* data, const Ref<Tensor>& keep) {
  auto node = std::make_unique<ArrayNode>();
  node->hold(keep);
  if (d == dtype::Complex64 || d == dtype::Complex128) {
    auto floats = std::make_unique<ArrayNode>();
    floats->hold(keep);
    floats->buffers[1] = data ? data : kEmpty;
    node->child_node = std::move(floats);
    return node;
  }
  node->buffers[1] = data ? data : kEmpty;
  return node;
}

// Fills a value array made by value_array (the complex child gets 2 * count floats).
void fill_value_array(ArrowArray* a, DType d, std::unique_ptr<ArrayNode> node, int64_t count) {
  const bool complex = d == dtype::Complex64 || d == dtype::Complex128;
  std::unique_ptr<ArrayNode> floats = complex ? std::move(node->child_node) : nullptr;
  ArrayNode* raw = node.get();
  fill_array(a, std::move(node), count, complex ? 1 : 2);
  if (complex) {
    fill_array(&raw->child, std::move(floats), 2 * count, 2);
    a->n_children = 1;
    a->children = raw->children;
  }
}

// Array levels `level`..ndim-1 of t's nested FixedSizeLists (`length` slots at
// this level), the leaf holding the values at `data`.
void fill_list_levels(ArrowArray* a, const Tensor& t, int64_t level, int64_t length, const void* data,
                      const Ref<Tensor>& keep) {
  if (level == t.ndim()) {
    fill_value_array(a, t.dtype(), value_array(t.dtype(), data, keep), length);
    return;
  }
  auto node = std::make_unique<ArrayNode>();
  node->hold(keep);
  ArrayNode* raw = node.get();
  fill_array(a, std::move(node), length, 1);
  fill_list_levels(&raw->child, t, level + 1, length * t.size(level), data, keep);
  a->n_children = 1;
  a->children = raw->children;
}

// How t's element dims (1..ndim-1) lie in memory: the physical (row-major)
// shape and the spec's permutation (logical dim i is physical dim perm[i]);
// false when no permutation of a dense row-major block with rows list_size
// apart describes them.
bool permuted_layout(const Tensor& t, std::vector<int64_t>& shape, std::vector<int64_t>& perm) {
  const int64_t n = t.ndim() - 1;
  std::vector<int64_t> order;  // physical order of logical element dims, outermost first
  for (int64_t i = 0; i < n; i++)
    if (t.size(1 + i) == 1) order.push_back(i);  // a size-1 dim's stride addresses nothing
  const size_t ones = order.size();
  for (int64_t i = 0; i < n; i++)
    if (t.size(1 + i) != 1) order.push_back(i);
  std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(ones), order.end(),
                   [&](int64_t a, int64_t b) { return t.stride(1 + a) > t.stride(1 + b); });
  int64_t expected = 1;
  for (size_t j = order.size(); j-- > ones;) {
    const int64_t d = 1 + order[j];
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  if (t.size(0) > 1 && t.stride(0) != expected) return false;
  // Keep the logical order where it already is row-major (size-1 dims included).
  bool identity = true;
  for (int64_t i = 0, e = 1; i < n; i++) {
    const int64_t d = t.ndim() - 1 - i;
    if (t.size(d) != 1 && t.stride(d) != e) identity = false;
    e *= t.size(d);
  }
  if (identity) std::iota(order.begin(), order.end(), 0);
  shape.resize(static_cast<size_t>(n));
  perm.resize(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; j++) {
    shape[static_cast<size_t>(j)] = t.size(1 + order[static_cast<size_t>(j)]);
    perm[static_cast<size_t>(order[static_cast<size_t>(j)])] = j;
  }
  return true;
}

// A uint8 tensor holding t's bool elements packed as Arrow bits (LSB first).
Ref<Tensor> pack_bits(const char* op, Tensor& t) {
  Ref<Tensor> c = contiguous(op, t);
  const int64_t n = c->numel();
  const int64_t nbytes = (n + 7) / 8;
  Ref<Tensor> bits = Tensor::allocate(op, dtype::UInt8, 1, &nbytes, true);
  const auto* src = reinterpret_cast<const uint8_t*>(c->data());
  auto* dst = reinterpret_cast<uint8_t*>(bits->data());
  for (int64_t i = 0; i < n; i++)
    if (src[i]) dst[i >> 3] = static_cast<uint8_t>(dst[i >> 3] | (1u << (i & 7)));
  return bits;
}

// ---------------------------------------------------------------------------
// Import.

// What a value type (a leaf of the storage type) is.
struct ValueType {
  DType dtype;
  bool complex = false;  // FixedSizeList<float>[2] with the ctensor.complex* marker
};

struct Context {
  const char* op;
  Device device;
  bool cpu;  // the CPU may read the buffers
};

void check_schema_node(const Context& c, const ArrowSchema* s, const std::string& path) {
  if (!s) fail(Status::Format, c.op, ": ", path, " schema is NULL");
  if (!s->release) fail(Status::Format, c.op, ": ", path, " schema is released (release is NULL)");
  if (!s->format) fail(Status::Format, c.op, ": ", path, " schema format is NULL");
  if (s->dictionary)
    fail(Status::Unsupported, c.op, ": ", path, " is dictionary-encoded; tensors cannot be dictionary-encoded");
  if (s->n_children < 0) fail(Status::Format, c.op, ": ", path, " schema n_children is negative (", s->n_children, ")");
  if (s->n_children > 0 && !s->children) fail(Status::Format, c.op, ": ", path, " schema children is NULL");
  for (int64_t i = 0; i < s->n_children; i++)
    if (!s->children[i]) fail(Status::Format, c.op, ": ", path, " schema children[", i, "] is NULL");
}

[[noreturn]] void refuse_format(const Context& c, std::string_view f, const std::string& path) {
  const bool known_scalar = f.size() == 1 && std::string_view("nzZuU").find(f[0]) != std::string_view::npos;
  const bool known_param = f.rfind("d:", 0) == 0 || f.rfind("w:", 0) == 0 || (!f.empty() && f[0] == 't') ||
                           f == "vz" || f == "vu";
  if (known_scalar || known_param)
    fail(Status::DType, c.op, ": ", path, " format '", f, "' has no ctensor dtype");
  if (!f.empty() && f[0] == '+')
    fail(Status::Unsupported, c.op, ": ", path, " format '", f, "' is a nested type that is not a tensor");
  fail(Status::Format, c.op, ": ", path, " format '", f, "' is not an Arrow format");
}

ValueType value_type(const Context& c, const ArrowSchema* s, const std::string& path) {
  check_schema_node(c, s, path);
  const std::string_view f = s->format;
  const Metadata m = decode_metadata(c.op, s->metadata, path);
  const std::string* ext = metadata_value(m, kExtensionName);
  if (ext && (*ext == kComplex64 || *ext == kComplex128)) {
    const bool c64 = *ext == kComplex64;
    if (f != "+w:2" || s->n_children != 1)
      fail(Status::Format, c.op, ": ", path, " extension ", *ext, " needs format '+w:2' with one child, got '", f, "'");
    check_schema_node(c, s->children[0], path + ".child");
    const std::string_view cf = s->children[0]->format;
    if (cf != (c64 ? "f" : "g"))
      fail(Status::Format, c.op, ": ", path, " extension ", *ext, " needs child format '", c64 ? "f" : "g", "', got '",
           cf, "'");
    return {c64 ? dtype::Complex64 : dtype::Complex128, true};
  }
  if (ext && *ext == kBFloat16) {
    if (f != "S") fail(Status::Format, c.op, ": ", path, " extension ctensor.bfloat16 needs format 'S', got '", f, "'");
    return {dtype::BFloat16};
  }
  if (s->n_children != 0 && f.size() == 1)
    fail(Status::Format, c.op, ": ", path, " format '", f, "' has ", s->n_children, " children, expected 0");
  if (const std::optional<DType> d = dtype_of_format(f)) return {*d};
  refuse_format(c, f, path);
}

void check_array_node(const Context& c, const ArrowArray* a, const std::string& path, int64_t n_buffers,
                      int64_t n_children) {
  if (!a) fail(Status::Format, c.op, ": ", path, " array is NULL");
  if (a->length < 0) fail(Status::Format, c.op, ": ", path, " length is negative (", a->length, ")");
  if (a->offset < 0) fail(Status::Format, c.op, ": ", path, " offset is negative (", a->offset, ")");
  int64_t end;
  if (__builtin_add_overflow(a->offset, a->length, &end))
    fail(Status::Format, c.op, ": ", path, " offset + length overflows (", a->offset, " + ", a->length, ")");
  if (a->null_count < -1) fail(Status::Format, c.op, ": ", path, " null_count is ", a->null_count, " (must be >= -1)");
  if (a->n_buffers != n_buffers)
    fail(Status::Format, c.op, ": ", path, " has n_buffers ", a->n_buffers, ", expected ", n_buffers);
  if (a->n_children != n_children)
    fail(Status::Format, c.op, ": ", path, " has n_children ", a->n_children, ", expected ", n_children);
  if (n_buffers > 0 && !a->buffers) fail(Status::Format, c.op, ": ", path, " buffers is NULL");
  if (n_children > 0 && !a->children) fail(Status::Format, c.op, ": ", path, " children is NULL");
  for (int64_t i = 0; i < n_children; i++)
    if (!a->children[i]) fail(Status::Format, c.op, ": ", path, " children[", i, "] is NULL");
  if (a->dictionary) fail(Status::Format, c.op, ": ", path, " has a dictionary but its type is not dictionary-encoded");
}

// Refuses nulls among the physical slots [start, start + count) of a.
void check_no_nulls(const Context& c, const ArrowArray* a, const std::string& path, int64_t start, int64_t count) {
  if (a->null_count > 0)
    fail(Status::Format, c.op, ": ", path, " has ", a->null_count, " nulls; tensors cannot hold nulls");
  if (a->null_count == 0 || !a->buffers[0] || count == 0) return;
  if (!c.cpu)
    fail(Status::Unsupported, c.op, ": ", path,
         " has an unknown null count (-1) and a validity bitmap in device memory the CPU cannot read");
  const auto* bits = static_cast<const uint8_t*>(a->buffers[0]);
  for (int64_t i = start; i < start + count; i++)
    if (!(bits[i >> 3] & (1u << (i & 7))))
      fail(Status::Format, c.op, ": ", path, " has a null at slot ", i - a->offset, "; tensors cannot hold nulls");
}

// The child's physical slots for the parent's slots [start, start + count) of a
// list with `size` values per slot; checks them against the child's length.
std::pair<int64_t, int64_t> child_range(const Context& c, const ArrowArray* child, const std::string& path,
                                        int64_t start, int64_t count, int64_t size) {
  const int64_t end = checked_mul(c.op, checked_add(c.op, start, count, "slot range"), size, "child range");
  if (end > child->length)
    fail(Status::Format, c.op, ": ", path, " has length ", child->length, " but its parent needs ", end, " values");
  return {checked_add(c.op, child->offset, start * size, "child offset"), count * size};
}

// The address of the values [start, start + count) of a leaf array of type v
// (no nulls checked here), after checking the leaf's structure.
const char* leaf_data(const Context& c, const ArrowArray* a, const ValueType& v, const std::string& path,
                      int64_t start, int64_t count) {
  if (v.complex) {
    check_array_node(c, a, path, 1, 1);
    check_no_nulls(c, a, path, start, count);
    const std::string cpath = path + ".child";
    check_array_node(c, a->children[0], cpath, 2, 0);
    auto [s, n] = child_range(c, a->children[0], cpath, start, count, 2);
    check_no_nulls(c, a->children[0], cpath, s, n);
    const ValueType part{v.dtype == dtype::Complex64 ? dtype::Float32 : dtype::Float64};
    return leaf_data(c, a->children[0], part, cpath, s, n);
  }
  if (count > 0 && !a->buffers[1]) fail(Status::Format, c.op, ": ", path, " data buffer is NULL for ", count, " values");
  if (count == 0) return a->buffers[1] ? static_cast<const char*>(a->buffers[1]) : reinterpret_cast<const char*>(kEmpty);
  const char* base = static_cast<const char*>(a->buffers[1]);
  if (v.dtype == dtype::Bool) return base;  // bits: the caller unpacks
  return base + checked_mul(c.op, start, static_cast<int64_t>(dtype_size(v.dtype)), "data offset");
}

// What a top-level (or variable-shape "data" child) storage type describes.
struct Parsed {
  ValueType value;
  std::vector<int64_t> list_sizes;  // one per FixedSizeList level, outermost first
  std::vector<int64_t> shape;       // element shape (logical)
  std::vector<int64_t> strides;     // element strides (elements)
};

std::string describe(const Json& v) {
  switch (v.kind) {
    case Json::Kind::Null: return "null";
    case Json::Kind::Bool: return v.boolean ? "true" : "false";
    case Json::Kind::Number: return v.text;
    case Json::Kind::String: return "a string";
    case Json::Kind::Array: return "a list";
    case Json::Kind::Object: return "an object";
  }
  return "?";
}

const Json* member(const Json& obj, std::string_view key) {
  for (const auto& kv : obj.members)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

// A metadata list of non-negative integers (each < 2^31 for shapes, as Arrow's int32 dims).
std::vector<int64_t> int_list(const Context& c, const Json& v, std::string_view ext, const char* key) {
  auto bad = [&](const std::string& got) {
    fail(Status::Format, c.op, ": ", ext.substr(6), " metadata \"", key,
         "\" must be a list of non-negative integers, got ", got);
  };
  if (v.kind != Json::Kind::Array) bad(describe(v));
  if (v.items.size() > static_cast<size_t>(kMaxDims - 1)) bad("a list of " + std::to_string(v.items.size()) + " entries (at most 63 dims)");
  std::vector<int64_t> out;
  for (const Json& item : v.items) {
    uint64_t n;
    if (item.kind != Json::Kind::Number || !item.as_uint64(&n) || n > static_cast<uint64_t>(INT64_MAX))
      bad("an entry " + describe(item));
    out.push_back(static_cast<int64_t>(n));
  }
  return out;
}

// The permutation and dim_names members (shared by both tensor extensions).
std::vector<int64_t> permutation(const Context& c, const Json& meta, std::string_view ext, size_t ndim) {
  std::vector<int64_t> perm(ndim);
  std::iota(perm.begin(), perm.end(), 0);
  if (const Json* p = member(meta, "permutation")) {
    perm = int_list(c, *p, ext, "permutation");
    std::vector<bool> seen(ndim, false);
    bool ok = perm.size() == ndim;
    for (int64_t d : perm) {
      if (!ok || d >= static_cast<int64_t>(ndim) || seen[static_cast<size_t>(d)]) {
        ok = false;
        break;
      }
      seen[static_cast<size_t>(d)] = true;
    }
    if (!ok)
      fail(Status::Format, c.op, ": ", ext.substr(6), " metadata \"permutation\" ", list_text(perm),
           " is not a permutation of 0..", static_cast<int64_t>(ndim) - 1);
  }
  if (const Json* names = member(meta, "dim_names")) {
    bool ok = names->kind == Json::Kind::Array && names->items.size() == ndim;
    if (ok)
      for (const Json& n : names->items) ok = ok && n.kind == Json::Kind::String;
    if (!ok)
      fail(Status::Format, c.op, ": ", ext.substr(6), " metadata \"dim_names\" must be a list of ", ndim,
           " strings, got ", describe(*names));
  }
  return perm;
}

Json extension_json(const Context& c, const Metadata& m, std::string_view ext) {
  const std::string* text = metadata_value(m, kExtensionMetadata);
  if (!text) fail(Status::Format, c.op, ": ", ext.substr(6), " has no ARROW:extension:metadata");
  const std::string what = std::string(ext.substr(6)) + " metadata";
  Json meta = parse_json(*text, c.op, what.c_str());
  if (meta.kind != Json::Kind::Object)
    fail(Status::Format, c.op, ": ", what, " must be a JSON object, got ", describe(meta));
  return meta;
}

// Logical sizes and strides of a row-major physical `shape` read through `perm`.
void apply_permutation(const char* op, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm,
                       std::vector<int64_t>& sizes, std::vector<int64_t>& strides) {
  std::vector<int64_t> phys(shape.size());
  int64_t s = 1;
  for (size_t j = shape.size(); j-- > 0;) {
    phys[j] = s;
    s = checked_mul(op, s, std::max<int64_t>(shape[j], 1), "element strides");
  }
  sizes.clear();
  strides.clear();
  for (int64_t p : perm) {
    sizes.push_back(shape[static_cast<size_t>(p)]);
    strides.push_back(phys[static_cast<size_t>(p)]);
  }
}

Parsed parse_storage(const Context& c, const ArrowSchema* s) {
  check_schema_node(c, s, "schema");
  const Metadata m = decode_metadata(c.op, s->metadata, "schema");
  const std::string* ext = metadata_value(m, kExtensionName);
  const std::string_view f = s->format;
  Parsed p;
  if (ext && *ext == kVariableShape)
    fail(Status::Unsupported, c.op, ": arrow.variable_shape_tensor holds one tensor per row; use "
                                    "tensor_from_arrow_variable_shape");
  if (ext && *ext == kFixedShape) {
    const int64_t n = fixed_size_list_size(f);
    if (n < 0 || s->n_children != 1)
      fail(Status::Format, c.op, ": fixed_shape_tensor storage must be a FixedSizeList ('+w:N', one child), got format '",
           f, "' with ", s->n_children, " children");
    p.value = value_type(c, s->children[0], "schema.child");
    const Json meta = extension_json(c, m, kFixedShape);
    const Json* shape = member(meta, "shape");
    if (!shape) fail(Status::Format, c.op, ": fixed_shape_tensor metadata has no \"shape\"");
    const std::vector<int64_t> phys = int_list(c, *shape, kFixedShape, "shape");
    const std::vector<int64_t> perm = permutation(c, meta, kFixedShape, phys.size());
    int64_t product = 1;
    for (int64_t d : phys)
      if (__builtin_mul_overflow(product, d, &product))
        fail(Status::Format, c.op, ": fixed_shape_tensor metadata \"shape\" ", list_text(phys), " overflows");
    if (product != n)
      fail(Status::Format, c.op, ": fixed_shape_tensor metadata \"shape\" ", list_text(phys), " has ", product,
           " elements but the list size is ", n);
    p.list_sizes.push_back(n);
    apply_permutation(c.op, phys, perm, p.shape, p.strides);
    return p;
  }
  // A FixedSizeList without extension (nested: one dim per level), or a value.
  const ArrowSchema* node = s;
  std::string path = "schema";
  while (true) {
    const Metadata nm = node == s ? m : decode_metadata(c.op, node->metadata, path);
    const std::string* e = metadata_value(nm, kExtensionName);
    const bool marker = e && (*e == kComplex64 || *e == kComplex128);
    const int64_t n = fixed_size_list_size(node->format);
    if (n < 0 || marker) break;
    if (node->n_children != 1)
      fail(Status::Format, c.op, ": ", path, " FixedSizeList has ", node->n_children, " children, expected 1");
    if (p.list_sizes.size() == static_cast<size_t>(kMaxDims - 1))
      fail(Status::Unsupported, c.op, ": ", path, " nests more FixedSizeLists than a tensor has dims (64)");
    p.list_sizes.push_back(n);
    p.shape.push_back(n);
    node = node->children[0];
    path += ".child";
    check_schema_node(c, node, path);
  }
  p.value = value_type(c, node, path);
  p.strides.resize(p.shape.size());
  int64_t stride = 1;
  for (size_t j = p.shape.size(); j-- > 0;) {
    p.strides[j] = stride;
    stride = checked_mul(c.op, stride, std::max<int64_t>(p.shape[j], 1), "element strides");
  }
  return p;
}

// The top array's leaf: checks every level for [offset, offset + length) and
// returns the data address and the number of values.
std::pair<const char*, int64_t> walk_array(const Context& c, const ArrowArray* a, const Parsed& p, int64_t& bit_start) {
  int64_t start = a->offset, count = a->length;
  std::string path = "array";
  for (int64_t size : p.list_sizes) {
    check_array_node(c, a, path, 1, 1);
    check_no_nulls(c, a, path, start, count);
    const ArrowArray* child = a->children[0];
    path += ".child";
    check_array_node(c, child, path, child->n_buffers, child->n_children);  // lengths and offsets; layout below
    std::tie(start, count) = child_range(c, child, path, start, count, size);
    a = child;
  }
  if (!p.value.complex) {
    check_array_node(c, a, path, 2, 0);
    check_no_nulls(c, a, path, start, count);
  }
  bit_start = start;
  return {leaf_data(c, a, p.value, path, start, count), count};
}

// Storage release of an imported array: the moved struct.
void release_moved(void* ctx) {
  auto* a = static_cast<ArrowArray*>(ctx);
  if (a->release) a->release(a);
  delete a;
}

Context context(const char* op, Device device) {
  const Ref<Storage> probe = Storage::wrap(nullptr, 0, true, nullptr, nullptr, device);
  return {op, device, probe->cpu_accessible()};
}

void check_top(const char* op, const ArrowSchema* schema, const ArrowArray* array) {
  if (!schema) fail(Status::Invalid, op, ": schema is NULL");
  if (!array) fail(Status::Invalid, op, ": array is NULL");
  if (!schema->release) fail(Status::Invalid, op, ": schema is released (release is NULL)");
  if (!array->release) fail(Status::Invalid, op, ": array is released (release is NULL)");
}

}  // namespace

void clear_arrow_outputs(const char* op, ArrowSchema* schema, ArrowArray* array) {
  if (!schema) fail(Status::Invalid, op, ": schema_out is NULL");
  if (!array) fail(Status::Invalid, op, ": array_out is NULL");
  schema->release = nullptr;
  array->release = nullptr;
}

void export_arrow(const char* op, ArrowSchema* schema, ArrowArray* array, Tensor& t, bool no_copy,
                  bool any_device) {
  clear_arrow_outputs(op, schema, array);
  if (t.ndim() == 0) fail(Status::Shape, op, ": a 0-dim tensor has no Arrow array; unsqueeze it to [1]");
  const bool cpu = t.storage()->cpu_accessible();
  if (!cpu && !any_device)
    fail(Status::Device, op, ": the tensor's memory (device type ", t.storage()->device().type,
         ") is not CPU memory; use tensor_to_arrow_device");
  auto need_copy = [&](const char* why) {
    if (no_copy) fail(Status::Copy, op, ": ", why, " needs a copy and TENSOR_ARROW_NO_COPY forbids it");
    if (!cpu) fail(Status::Device, op, ": ", why, " needs a copy, and the tensor's memory is not CPU-accessible");
  };

  const DType d = t.dtype();
  Ref<Tensor> src = Ref<Tensor>::share(&t);
  std::vector<int64_t> shape, perm;
  const bool one_dim = t.ndim() == 1;
  // bfloat16 and complex (ndim >= 2) are nested FixedSizeLists with the marker on
  // the leaf field: consumers rebuild the canonical extension's storage type and
  // would drop the marker with the field.
  const bool lists = !one_dim && (d == dtype::BFloat16 || d == dtype::Complex64 || d == dtype::Complex128);
  bool dense = t.numel() == 0;
  if (one_dim)
    dense = dense || t.size(0) <= 1 || t.stride(0) == 1;
  else if (lists)
    dense = dense || t.is_contiguous();
  else if (!dense)
    dense = permuted_layout(t, shape, perm);
  if (t.numel() == 0 && !one_dim) {
    shape.assign(t.sizes() + 1, t.sizes() + t.ndim());
    perm.resize(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (!dense) {
    need_copy("this layout (no permutation of row-major elements with dense rows)");
    src = contiguous(op, t);
    shape.assign(t.sizes() + 1, t.sizes() + t.ndim());
    perm.resize(shape.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  const void* data = src->numel() > 0 ? src->data() : nullptr;
  if (d == dtype::Bool) {
    need_copy("bool (bit-packed in Arrow)");
    // The bits follow the physical order described by shape/perm: pack the
    // elements in that order.
    if (!one_dim && src->numel() > 0) {
      std::vector<int64_t> order(perm.size() + 1);
      order[0] = 0;
      for (size_t i = 0; i < perm.size(); i++) order[1 + static_cast<size_t>(perm[i])] = static_cast<int64_t>(1 + i);
      src = permute(op, *src, static_cast<int64_t>(order.size()), order.data());
    }
    src = pack_bits(op, *src);
    data = src->data();
  }

  const int64_t length = t.size(0);
  const int64_t values = t.numel();
  ArrowSchema s{};
  ArrowArray a{};
  struct Unwind {  // releases what was built if building the rest throws
    ArrowSchema& s;
    ArrowArray& a;
    ~Unwind() {
      if (s.release) s.release(&s);
      if (a.release) a.release(&a);
    }
  } unwind{s, a};
  if (one_dim) {
    fill_schema(&s, value_schema(d, ""));
    fill_value_array(&a, d, value_array(d, data, src), length);
  } else if (lists) {
    std::unique_ptr<SchemaNode> node = value_schema(d, "item");
    for (int64_t k = t.ndim() - 1; k >= 1; k--) {
      if (t.size(k) > INT32_MAX)
        fail(Status::Unsupported, op, ": size ", t.size(k), " of dim ", k, " exceeds Arrow's FixedSizeList limit (2^31 - 1)");
      auto parent = schema_node("+w:" + std::to_string(t.size(k)), k == 1 ? "" : "item");
      parent->child_node = std::move(node);
      node = std::move(parent);
    }
    fill_schema(&s, std::move(node));
    fill_list_levels(&a, *src, 1, length, data, src);
  } else {
    int64_t list_size = 1;
    for (int64_t n : shape) list_size = checked_mul(op, list_size, n, "element size");
    if (list_size > INT32_MAX)
      fail(Status::Unsupported, op, ": elements of ", list_size, " values exceed Arrow's FixedSizeList limit (2^31 - 1)");
    bool identity = true;
    for (size_t i = 0; i < perm.size(); i++) identity = identity && perm[i] == static_cast<int64_t>(i);
    std::string json = "{\"shape\":" + list_text(shape);
    if (!identity) json += ",\"permutation\":" + list_text(perm);
    json += "}";
    json.erase(std::remove(json.begin(), json.end(), ' '), json.end());
    auto node = schema_node("+w:" + std::to_string(list_size), "",
                            {{std::string(kExtensionName), std::string(kFixedShape)},
                             {std::string(kExtensionMetadata), json}});
    node->child_node = value_schema(d, "item");
    auto anode = std::make_unique<ArrayNode>();
    anode->hold(src);
    auto child = value_array(d, data, src);
    ArrayNode* raw = anode.get();
    fill_schema(&s, std::move(node));
    fill_array(&a, std::move(anode), length, 1);
    fill_value_array(&raw->child, d, std::move(child), values);
    a.n_children = 1;
    a.children = raw->children;
  }
  *schema = s;
  *array = a;
  s.release = nullptr;  // handed over
  a.release = nullptr;
}

Ref<Tensor> import_arrow(const char* op, const ArrowSchema* schema, ArrowArray* array, Device device) {
  check_top(op, schema, array);
  const Context c = context(op, device);
  const Parsed p = parse_storage(c, schema);
  int64_t bit_start = 0;
  const auto [data, count] = walk_array(c, array, p, bit_start);

  std::vector<int64_t> sizes{array->length}, strides{1};
  int64_t row = 1;
  for (int64_t n : p.list_sizes) row = checked_mul(op, row, n, "row size");
  strides[0] = row;
  sizes.insert(sizes.end(), p.shape.begin(), p.shape.end());
  strides.insert(strides.end(), p.strides.begin(), p.strides.end());
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  const DType d = p.value.dtype;

  if (d == dtype::Bool) {
    if (!c.cpu) fail(Status::Unsupported, op, ": bool arrays are unpacked by the CPU; this one is in device memory");
    Ref<Tensor> flat = Tensor::allocate(op, dtype::Bool, 1, &count, false);
    auto* dst = reinterpret_cast<uint8_t*>(flat->data());
    const auto* bits = reinterpret_cast<const uint8_t*>(data);
    for (int64_t i = 0; i < count; i++) dst[i] = (bits[(bit_start + i) >> 3] >> ((bit_start + i) & 7)) & 1u;
    Ref<Tensor> t = Tensor::make_checked(op, flat->storage_ref(), dtype::Bool, ndim, sizes.data(), strides.data(), 0);
    array->release(array);  // the bits were copied; the producer's memory is not needed any more
    array->release = nullptr;
    return t;
  }
  const auto nbytes = static_cast<size_t>(checked_mul(op, count, static_cast<int64_t>(dtype_size(d)), "data size"));
  Ref<Storage> storage = Storage::wrap(const_cast<char*>(data), nbytes, true, nullptr, nullptr, device);
  Ref<Tensor> t = Tensor::make_checked(op, storage, d, ndim, sizes.data(), strides.data(), 0);
  auto moved = std::make_unique<ArrowArray>(*array);
  storage->attach_release(&release_moved, moved.release());
  array->release = nullptr;
  return t;
}

Ref<Tensor> import_arrow_device(const char* op, const ArrowSchema* schema, ArrowDeviceArray* array) {
  if (!array) fail(Status::Invalid, op, ": array is NULL");
  if (array->sync_event) fail(Status::Unsupported, op, ": sync_event is set and ctensor cannot wait on device events");
  if (array->device_id < INT32_MIN || array->device_id > INT32_MAX)
    fail(Status::Format, op, ": device_id ", array->device_id, " does not fit a DLPack device id");
  const Device device{array->device_type, static_cast<int32_t>(array->device_id)};
  return import_arrow(op, schema, &array->array, device);
}

std::vector<Ref<Tensor>> import_arrow_variable_shape(const char* op, const ArrowSchema* schema, ArrowArray* array) {
  check_top(op, schema, array);
  const Context c = context(op, Device{});
  check_schema_node(c, schema, "schema");
  const Metadata m = decode_metadata(op, schema->metadata, "schema");
  const std::string* ext = metadata_value(m, kExtensionName);
  if (!ext || *ext != kVariableShape)
    fail(Status::Format, op, ": schema is not an arrow.variable_shape_tensor (ARROW:extension:name is ",
         ext ? "\"" + *ext + "\"" : std::string("absent"), ")");
  const std::string_view f = schema->format;
  if (f != "+s" || schema->n_children != 2)
    fail(Status::Format, op, ": variable_shape_tensor storage must be a Struct ('+s') of 2 fields, got format '", f,
         "' with ", schema->n_children, " children");
  const ArrowSchema* ds = schema->children[0];
  const ArrowSchema* ss = schema->children[1];
  check_schema_node(c, ds, "schema.data");
  check_schema_node(c, ss, "schema.shape");
  if (!ds->name || std::string_view(ds->name) != "data" || !ss->name || std::string_view(ss->name) != "shape")
    fail(Status::Format, op, ": variable_shape_tensor storage fields must be \"data\" and \"shape\"");
  const std::string_view df = ds->format;
  if ((df != "+l" && df != "+L") || ds->n_children != 1)
    fail(Status::Format, op, ": variable_shape_tensor field \"data\" must be a List ('+l' or '+L'), got '", df, "'");
  const bool large = df == "+L";
  const ValueType value = value_type(c, ds->children[0], "schema.data.child");
  if (value.dtype == dtype::Bool)
    fail(Status::Unsupported, op, ": variable_shape_tensor of bool is not supported (bit-packed rows would be copies)");
  const int64_t ndim = fixed_size_list_size(ss->format);
  if (ndim < 0 || ndim >= kMaxDims || ss->n_children != 1)
    fail(Status::Format, op, ": variable_shape_tensor field \"shape\" must be a FixedSizeList<int32>[ndim < 64], got '",
         ss->format, "'");
  check_schema_node(c, ss->children[0], "schema.shape.child");
  if (std::string_view(ss->children[0]->format) != "i")
    fail(Status::Format, op, ": variable_shape_tensor field \"shape\" values must be int32 ('i'), got '",
         ss->children[0]->format, "'");
  const Json meta = extension_json(c, m, kVariableShape);
  const std::vector<int64_t> perm = permutation(c, meta, kVariableShape, static_cast<size_t>(ndim));
  std::vector<int64_t> uniform;  // -1: not uniform
  if (const Json* u = member(meta, "uniform_shape")) {
    bool ok = u->kind == Json::Kind::Array && u->items.size() == static_cast<size_t>(ndim);
    for (size_t i = 0; ok && i < u->items.size(); i++) {
      uint64_t n;
      if (u->items[i].kind == Json::Kind::Null) uniform.push_back(-1);
      else if (u->items[i].as_uint64(&n) && n <= INT32_MAX) uniform.push_back(static_cast<int64_t>(n));
      else ok = false;
    }
    if (!ok)
      fail(Status::Format, op, ": variable_shape_tensor metadata \"uniform_shape\" must be a list of ", ndim,
           " non-negative integers or nulls, got ", describe(*u));
  }

  // Arrays: struct -> data (list) -> values; struct -> shape (fixed-size list) -> int32.
  check_array_node(c, array, "array", 1, 2);
  check_no_nulls(c, array, "array", array->offset, array->length);
  const int64_t rows = array->length;
  const ArrowArray* da = array->children[0];
  const ArrowArray* sa = array->children[1];
  check_array_node(c, da, "array.data", 2, 1);
  check_array_node(c, sa, "array.shape", 1, 1);
  const auto [dstart, dcount] = child_range(c, da, "array.data", array->offset, rows, 1);
  const auto [sstart, scount] = child_range(c, sa, "array.shape", array->offset, rows, 1);
  check_no_nulls(c, da, "array.data", dstart, dcount);
  check_no_nulls(c, sa, "array.shape", sstart, scount);
  const ArrowArray* dims = sa->children[0];
  check_array_node(c, dims, "array.shape.child", 2, 0);
  const auto [dimstart, dimcount] = child_range(c, dims, "array.shape.child", sstart, scount, ndim);
  check_no_nulls(c, dims, "array.shape.child", dimstart, dimcount);
  if (dimcount > 0 && !dims->buffers[1]) fail(Status::Format, op, ": array.shape.child data buffer is NULL");
  if (rows > 0 && !da->buffers[1]) fail(Status::Format, op, ": array.data offsets buffer is NULL");
  auto offset_at = [&](int64_t i) -> int64_t {
    if (large) return static_cast<const int64_t*>(da->buffers[1])[i];
    return static_cast<const int32_t*>(da->buffers[1])[i];
  };
  const ArrowArray* va = da->children[0];
  check_array_node(c, va, "array.data.child", value.complex ? 1 : 2, value.complex ? 1 : 0);
  const int64_t first = rows > 0 ? offset_at(dstart) : 0;
  const int64_t last = rows > 0 ? offset_at(dstart + rows) : 0;
  if (first < 0 || last < first || last > va->length)
    fail(Status::Format, op, ": array.data offsets [", first, ", ", last, "] are out of order or beyond the values' length ",
         va->length);
  if (!value.complex) check_no_nulls(c, va, "array.data.child", va->offset + first, last - first);
  const char* base = leaf_data(c, va, value, "array.data.child", va->offset + first, last - first);

  const size_t itemsize = dtype_size(value.dtype);
  Ref<Storage> storage =
      Storage::wrap(const_cast<char*>(base), static_cast<size_t>(last - first) * itemsize, true, nullptr, nullptr);
  std::vector<Ref<Tensor>> out;
  out.reserve(static_cast<size_t>(rows));
  const auto* dimv = static_cast<const int32_t*>(dims->buffers[1]);
  for (int64_t r = 0; r < rows; r++) {
    const int64_t begin = offset_at(dstart + r), end = offset_at(dstart + r + 1);
    if (begin < first || end < begin || end > last)
      fail(Status::Format, op, ": array.data offsets of row ", r, " [", begin, ", ", end, ") are out of order");
    std::vector<int64_t> phys(static_cast<size_t>(ndim));
    int64_t product = 1;
    for (int64_t j = 0; j < ndim; j++) {
      const int64_t n = dimv[dimstart + r * ndim + j];
      if (n < 0) fail(Status::Format, op, ": row ", r, " has a negative size ", n, " in its shape");
      if (!uniform.empty() && uniform[static_cast<size_t>(j)] >= 0 && uniform[static_cast<size_t>(j)] != n)
        fail(Status::Format, op, ": row ", r, " has size ", n, " in dim ", j, " but \"uniform_shape\" says ",
             uniform[static_cast<size_t>(j)]);
      phys[static_cast<size_t>(j)] = n;
      product = checked_mul(op, product, n, "row shape");
    }
    if (product != end - begin)
      fail(Status::Format, op, ": row ", r, " has shape ", list_text(phys), " (", product, " elements) but ",
           end - begin, " values");
    std::vector<int64_t> sizes, strides;
    apply_permutation(op, phys, perm, sizes, strides);
    out.push_back(Tensor::make_checked(op, storage, value.dtype, ndim, sizes.data(), strides.data(), begin - first));
  }
  if (rows == 0) {
    array->release(array);
  } else {
    auto moved = std::make_unique<ArrowArray>(*array);
    storage->attach_release(&release_moved, moved.release());
  }
  array->release = nullptr;
  return out;
}

}  // namespace ctensor::core
