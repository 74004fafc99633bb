#include "io/safetensors.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "error.hpp"
#include "io/atomic_file.hpp"
#include "io/chunked_read.hpp"
#include "io/json.hpp"
#include "io/load_options.hpp"
#include "memory/mapped.hpp"

namespace ctensor::core {

namespace {

constexpr const char* kGet = "safetensors_get";
constexpr const char* kSave = "safetensors_save";
// The reference implementation's MAX_HEADER_SIZE.
constexpr uint64_t kMaxHeader = 100'000'000;
constexpr const char* kMetadataKey = "__metadata__";

// The format's dtypes in the reference implementation's order (its Dtype enum,
// whose descending order is the order tensors are written in), with their
// element sizes and ctensor's dtype (-1: ctensor has none).
struct STDtype {
  std::string_view name;  // a view: compares without strlen
  size_t size;
  DType dtype;
};
constexpr STDtype kDtypes[] = {
    {"BOOL", 1, dtype::Bool},    {"U8", 1, dtype::UInt8},     {"I8", 1, dtype::Int8},
    {"F8_E5M2", 1, -1},          {"F8_E4M3", 1, -1},          {"F8_E8M0", 1, -1},
    {"I16", 2, dtype::Int16},    {"U16", 2, dtype::UInt16},   {"F16", 2, dtype::Float16},
    {"BF16", 2, dtype::BFloat16}, {"I32", 4, dtype::Int32},   {"U32", 4, dtype::UInt32},
    {"F32", 4, dtype::Float32},  {"C64", 8, dtype::Complex64}, {"F64", 8, dtype::Float64},
    {"I64", 8, dtype::Int64},    {"U64", 8, dtype::UInt64},
};
constexpr int kDtypeCount = static_cast<int>(sizeof kDtypes / sizeof kDtypes[0]);

// A dtype name of up to 7 bytes as one integer, its length in the top byte
// (so "F32" and "F32\0" differ). Every dtype name fits.
constexpr uint64_t pack(std::string_view name) {
  uint64_t v = 0;
  for (size_t i = name.size(); i-- > 0;) v = v << 8 | static_cast<unsigned char>(name[i]);
  return v | uint64_t{name.size()} << 56;
}

int dtype_code(std::string_view name) {
  static constexpr auto packed = [] {
    std::array<uint64_t, kDtypeCount> p{};
    for (int i = 0; i < kDtypeCount; ++i) p[static_cast<size_t>(i)] = pack(kDtypes[i].name);  // each <= 7 bytes
    return p;
  }();
  if (name.size() > 7) return -1;
  const uint64_t v = pack(name);
  for (int i = 0; i < kDtypeCount; ++i)
    if (packed[static_cast<size_t>(i)] == v) return i;
  return -1;
}

// A text up to its first NUL (how a message shows a name that holds one).
std::string_view until_nul(std::string_view text) { return text.substr(0, text.find('\0')); }

[[noreturn]] void bad(const char* op, const std::string& what) {
  fail(Status::Format, op, ": invalid safetensors header: ", what);
}

// The first failure the header's meaning gives, kept until its syntax has been
// read to the end: a JSON error anywhere wins, as when the tree came first.
class FirstError {
 public:
  template <typename... Parts>
  void set(Status status, const Parts&... parts) {
    if (error_) return;
    try {
      fail(status, parts...);
    } catch (Error& e) {
      error_.emplace(std::move(e));
    }
  }
  template <typename... Parts>
  void bad(const char* op, const Parts&... parts) {
    set(Status::Format, op, ": invalid safetensors header: ", parts...);
  }
  void raise() {
    if (error_) throw std::move(*error_);
  }

 private:
  std::optional<Error> error_;
};

// What a tensor's object holds, read in any order and judged at its end.
struct TensorFields {
  std::optional<Json::Kind> dtype, shape, offsets;  // the kinds of those present
  std::string_view dtype_text;
  size_t n_offsets = 0;
  bool offsets_ok = true;  // both [begin, end] non-negative integers
  uint64_t offset[2] = {0, 0};
  bool shape_ok = true;  // every entry a non-negative integer...
  uint64_t too_big = 0;  // ...and none past INT64_MAX (the first such, if nonzero)
};

// Reads a tensor's object (value() has read its '{'), its dims onto `shapes`.
// The three fields read are told apart once, as their keys are checked for
// duplicates: a bit each; any other key goes into `others`.
TensorFields read_tensor(JsonReader& r, KeySet& others, std::vector<int64_t>& shapes) {
  TensorFields f;
  enum Field { kOther, kDtype, kShape, kOffsets } which = kOther;
  unsigned seen = 0;
  others.clear();
  const auto unique = [&](std::string_view key) {
    which = key == "dtype" ? kDtype : key == "shape" ? kShape : key == "data_offsets" ? kOffsets : kOther;
    if (which == kOther) return others.insert(key);
    const unsigned bit = 1u << which;
    if (seen & bit) return false;
    seen |= bit;
    return true;
  };
  // Depths: the header's object is 0, a tensor's 1, its fields' values 2.
  bool first_field = true;
  std::string_view field;
  while (r.next_key(first_field, field, unique)) {
    const Json::Kind v = r.value(2);
    if (which == kDtype) {
      f.dtype = v;
      if (v == Json::Kind::String) f.dtype_text = r.text();
      r.skip(v, 2);
    } else if (which == kShape && v == Json::Kind::Array) {
      f.shape = v;
      for (bool first_dim = true; r.next_item(first_dim);) {
        const Json::Kind d = r.value(3);
        uint64_t n = 0;
        if (d != Json::Kind::Number || !json_uint64(r.text(), &n)) {
          f.shape_ok = f.shape_ok && f.too_big != 0;  // an earlier overflow comes first
          r.skip(d, 3);
        } else if (n > static_cast<uint64_t>(INT64_MAX)) {
          if (f.shape_ok && f.too_big == 0) f.too_big = n;
        } else {
          shapes.push_back(static_cast<int64_t>(n));
        }
      }
    } else if (which == kOffsets && v == Json::Kind::Array) {
      f.offsets = v;
      for (bool first_offset = true; r.next_item(first_offset);) {
        const Json::Kind o = r.value(3);
        if (f.n_offsets < 2)
          f.offsets_ok = f.offsets_ok && o == Json::Kind::Number && json_uint64(r.text(), &f.offset[f.n_offsets]);
        ++f.n_offsets;
        r.skip(o, 3);
      }
    } else {
      if (which == kShape) f.shape = v;
      if (which == kOffsets) f.offsets = v;
      r.skip(v, 2);
    }
  }
  return f;
}

// The tree reader's checks of one tensor, in its order; the first failure is kept.
void judge(const char* op, std::string_view name, const TensorFields& f, int code, FirstError& error) {
  if (!f.dtype || !f.shape || !f.offsets)
    error.bad(op, "tensor '", name, "' lacks dtype, shape or data_offsets");
  else if (*f.dtype != Json::Kind::String)
    error.bad(op, "tensor '", name, "': dtype is not a string");
  else if (code < 0)
    error.bad(op, "tensor '", name, "': unknown dtype '", f.dtype_text, "'");
  else if (*f.shape != Json::Kind::Array)
    error.bad(op, "tensor '", name, "': shape is not an array");
  else if (*f.offsets != Json::Kind::Array || f.n_offsets != 2)
    error.bad(op, "tensor '", name, "': data_offsets is not [begin, end]");
  else if (!f.offsets_ok)
    error.bad(op, "tensor '", name, "': data_offsets must be non-negative integers");
  else if (!f.shape_ok)
    error.bad(op, "tensor '", name, "': shape entries must be non-negative integers");
  else if (f.too_big != 0)
    error.set(Status::Overflow, op, ": tensor '", name, "': dimension ", f.too_big, " overflows");
}

}  // namespace

// One pass over the header builds the entries; the checks are the tree-based
// reader's, in its order (per tensor: object, fields, dtype, shape, offsets).
void SafeTensors::parse_header(const char* op, size_t size) {
  JsonReader r({header_.get(), size}, op, "invalid safetensors header");
  FirstError first_error;
  r.value(0);  // an object: the text starts with '{'
  bool first = true;
  std::string_view name;
  KeySet others;  // a tensor's other fields, reused
  while (r.next_key(first, index_, name)) {
    const Json::Kind kind = r.value(1);
    if (name == kMetadataKey) {
      metadata_at_ = index_.find(name);
      if (kind == Json::Kind::Null) continue;
      if (kind != Json::Kind::Object) {
        first_error.bad(op, "__metadata__ is not an object");
        r.skip(kind, 1);
        continue;
      }
      bool first_pair = true;
      KeySet keys;
      std::string_view key;
      while (r.next_key(first_pair, keys, key)) {
        const Json::Kind value = r.value(2);
        if (value != Json::Kind::String) {
          first_error.bad(op, "__metadata__ value of '", key, "' is not a string");
          r.skip(value, 2);
        } else if (key.find('\0') != key.npos || r.text().find('\0') != std::string_view::npos) {
          // The C API hands keys and values out as C strings: a NUL would cut them short.
          first_error.bad(op, "__metadata__ entry '", until_nul(key), "' holds a NUL character (\\u0000), "
                          "which a C string cannot carry");
        } else if (metadata_.emplace(key, r.text()).second) {
          metadata_keys_.emplace_back(key);
        }
      }
      continue;
    }
    if (name.find('\0') != name.npos)  // two names would read alike as C strings ("a\u0000b" and "a")
      first_error.bad(op, "tensor name '", until_nul(name), "' holds a NUL character (\\u0000), which a C "
                      "string cannot carry");
    if (kind != Json::Kind::Object) {
      first_error.bad(op, "tensor '", name, "' is not an object");
      r.skip(kind, 1);
      continue;
    }
    const size_t dims = shapes_.size();
    const TensorFields f = read_tensor(r, others, shapes_);
    const int code = dtype_code(f.dtype_text);
    judge(op, name, f, code, first_error);
    // Filled in place: a braced temporary was copied with a slow `rep movs`.
    Entry& e = entries_.emplace_back();
    e.name = name.data();
    e.begin = f.offset[0];
    e.end = f.offset[1];
    e.dims = static_cast<uint32_t>(dims);
    e.ndim = static_cast<uint32_t>(shapes_.size() - dims);
    e.code = code;
    // A name without escapes views the header: its closing quote, read and
    // passed, becomes its terminating NUL (a decoded one is a std::string).
    const std::less<const char*> before;  // a total order, also between unrelated buffers
    if (!before(name.data(), header_.get()) && before(name.data(), header_.get() + size))
      header_[static_cast<size_t>(name.data() - header_.get()) + name.size()] = '\0';
  }
  r.finish();
  first_error.raise();
  decoded_ = r.release_decoded();
}

// As the reference's Metadata::validate: sorted by offsets, the tensors tile
// the data section from 0 to its end, each exactly numel * itemsize bytes.
// Returns the data size they cover.
uint64_t SafeTensors::check_offsets(const char* op) const {
  struct Span {
    uint64_t begin, end;
    size_t entry;
  };
  std::vector<Span> order(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) order[i] = {entries_[i].begin, entries_[i].end, i};
  const auto before = [](const Span& x, const Span& y) {
    return std::make_pair(x.begin, x.end) < std::make_pair(y.begin, y.end);
  };
  // Writers list tensors in offset order; sorting only what is not strictly
  // increasing also keeps the order of equal spans that std::sort leaves.
  const auto strictly_sorted = std::adjacent_find(order.begin(), order.end(), [&](const Span& x, const Span& y) {
    return !before(x, y);
  }) == order.end();
  if (!strictly_sorted) std::sort(order.begin(), order.end(), before);
  uint64_t cursor = 0;
  for (const Span& s : order) {
    const Entry& e = entries_[s.entry];
    const char* name = e.name;
    if (e.begin != cursor || e.end < e.begin)
      bad(op, "tensor '" + std::string(name) + "': data_offsets [" + std::to_string(e.begin) + ", " +
          std::to_string(e.end) + "] do not start where the previous tensor ends (" +
          std::to_string(cursor) + "): a gap or an overlap");
    uint64_t bytes = kDtypes[e.code].size;
    for (size_t d = e.dims; d < e.dims + e.ndim; ++d)
      if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(shapes_[d]), &bytes))
        fail(Status::Overflow, op, ": tensor '", name, "': its byte size overflows");
    if (e.end - e.begin != bytes)
      bad(op, "tensor '" + std::string(name) + "': data_offsets span " + std::to_string(e.end - e.begin) +
          " bytes but its shape and dtype need " + std::to_string(bytes));
    cursor = e.end;
  }
  return cursor;
}

std::unique_ptr<SafeTensors> SafeTensors::open(const char* op, const char* path, const LoadOptions& options) {
  const File file = File::open(op, path, false);
  const uint64_t size = file.size(op);
  if (size < 8) fail(Status::Format, op, ": '", path, "' is too small for a safetensors file (", size, " bytes)");
  unsigned char len_bytes[8];
  file.read_at(op, len_bytes, 8, 0, "the header length");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | len_bytes[i];
  if (n > kMaxHeader)
    fail(Status::Format, op, ": header length ", n, " exceeds the limit of ", kMaxHeader, " bytes");
  if (n > size - 8)
    fail(Status::Format, op, ": header length ", n, " passes the end of the file (", size, " bytes)");
  std::unique_ptr<SafeTensors> st(new SafeTensors());
  // Read in place: index_ views the names in it.
  st->header_.reset(new char[n]);  // not zeroed: the read fills it
  file.read_at(op, st->header_.get(), static_cast<size_t>(n), 8, "the header");
  if (n == 0 || st->header_[0] != '{') bad(op, "it does not start with '{'");
  st->parse_header(op, static_cast<size_t>(n));

  const uint64_t cursor = st->check_offsets(op);
  const uint64_t data_start = 8 + n;
  if (cursor != size - data_start)
    bad(op, "the tensors cover " + std::to_string(cursor) + " bytes of data but the file has " +
        std::to_string(size - data_start) + " after the header");

  if (cursor == 0)
    st->data_ = Storage::allocate(0, false);
  else if (options.copy)
    st->data_ = read_chunked(op, file, data_start, static_cast<size_t>(cursor), "the data", options);
  else
    st->data_ = map_descriptor(op, file, data_start, static_cast<size_t>(cursor),
                               options.map_mode(), nullptr);
  return st;
}

const char* SafeTensors::name(int64_t index) const noexcept {
  if (index < 0 || index >= count()) return nullptr;
  return entries_[static_cast<size_t>(index)].name;
}

const char* SafeTensors::metadata(const char* key) const noexcept {
  if (!key) return nullptr;
  const auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : it->second.c_str();
}

const char* SafeTensors::metadata_key(int64_t index) const noexcept {
  if (index < 0 || index >= metadata_count()) return nullptr;
  return metadata_keys_[static_cast<size_t>(index)].c_str();
}

Ref<Tensor> SafeTensors::get(const char* name) const {
  if (!name) fail(Status::Invalid, kGet, ": name is NULL");
  // index_ holds __metadata__ too, among the entries in header order.
  const int64_t key = index_.find(name);
  if (key < 0 || key == metadata_at_) fail(Status::Invalid, kGet, ": no tensor named '", name, "'");
  const Entry& e = entries_[static_cast<size_t>(key - (metadata_at_ >= 0 && key > metadata_at_))];
  const STDtype& info = kDtypes[e.code];
  if (info.dtype < 0)
    fail(Status::DType, kGet, ": tensor '", name, "' has dtype ", info.name, ", which ctensor does not have");
  const auto ndim = static_cast<int64_t>(e.ndim);
  if (ndim > 64) fail(Status::Unsupported, kGet, ": tensor '", name, "' has ", ndim, " dims, more than 64");
  const int64_t* shape = shapes_.data() + e.dims;
  const char* bytes = static_cast<const char*>(data_->data()) + e.begin;
  if (e.begin % info.size == 0 && reinterpret_cast<uintptr_t>(bytes) % info.size == 0)
    return Tensor::make_checked(kGet, data_, info.dtype, ndim, shape, nullptr,
                                static_cast<int64_t>(e.begin / info.size));
  // Unaligned in the file: an aligned copy (typed access to it would be undefined).
  auto copy = Tensor::allocate(kGet, info.dtype, ndim, shape, false);
  std::memcpy(copy->data(), bytes, static_cast<size_t>(e.end - e.begin));
  return copy;
}

void save_safetensors(const char* path, int64_t n, const char* const* names,
                      const Tensor* const* tensors, int64_t n_meta, const char* const* keys,
                      const char* const* values) {
  if (n < 0 || n_meta < 0) fail(Status::Invalid, kSave, ": negative count");
  if (n > 0 && (!names || !tensors)) fail(Status::Invalid, kSave, ": names or tensors is NULL");
  if (n_meta > 0 && (!keys || !values)) fail(Status::Invalid, kSave, ": meta_keys or meta_values is NULL");
  struct Item {
    std::string_view name;
    const Tensor* t;
    int code;
  };
  std::vector<Item> items;
  std::unordered_set<std::string_view> seen;
  for (int64_t i = 0; i < n; ++i) {
    if (!names[i] || !tensors[i]) fail(Status::Invalid, kSave, ": names[", i, "] or tensors[", i, "] is NULL");
    if (std::strcmp(names[i], kMetadataKey) == 0)
      fail(Status::Invalid, kSave, ": '__metadata__' is reserved and cannot name a tensor");
    if (!seen.insert(names[i]).second) fail(Status::Invalid, kSave, ": duplicate tensor name '", names[i], "'");
    int code = -1;
    for (int c = 0; c < kDtypeCount; ++c)
      if (kDtypes[c].dtype == tensors[i]->dtype()) code = c;
    if (code < 0)
      fail(Status::DType, kSave, ": tensor '", names[i], "' is ", dtype_info(tensors[i]->dtype())->name,
           ", which safetensors has no dtype for");
    tensors[i]->require_readable(kSave);
    items.push_back({names[i], tensors[i], code});
  }
  // Wider dtypes first, then by name, as the reference writes them: every
  // tensor then starts at a multiple of its element size.
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.code != b.code ? a.code > b.code : a.name < b.name;
  });

  std::string header = "{";
  if (n_meta > 0) {
    std::unordered_set<std::string_view> meta_seen;
    append_json_string(header, kMetadataKey);
    header += ":{";
    for (int64_t i = 0; i < n_meta; ++i) {
      if (!keys[i] || !values[i]) fail(Status::Invalid, kSave, ": meta_keys[", i, "] or meta_values[", i, "] is NULL");
      if (!meta_seen.insert(keys[i]).second) fail(Status::Invalid, kSave, ": duplicate metadata key '", keys[i], "'");
      if (i) header += ',';
      append_json_string(header, keys[i]);
      header += ':';
      append_json_string(header, values[i]);
    }
    header += '}';
  }
  uint64_t offset = 0;
  for (const Item& it : items) {
    if (header.size() > 1) header += ',';
    append_json_string(header, it.name);
    header += ":{\"dtype\":\"";
    header += kDtypes[it.code].name;
    header += "\",\"shape\":[";
    for (int64_t d = 0; d < it.t->ndim(); ++d) {
      if (d) header += ',';
      header += std::to_string(it.t->size(d));
    }
    const uint64_t bytes = static_cast<uint64_t>(it.t->numel()) * it.t->itemsize();
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
    offset += bytes;
  }
  header += '}';
  header.append((8 - header.size() % 8) % 8, ' ');
  try {  // names and metadata must be valid UTF-8: read it all, building nothing
    JsonReader r(header, kSave, "header");
    r.skip(r.value(0), 0);
    r.finish();
  } catch (const Error&) {
    fail(Status::Invalid, kSave, ": a name or metadata string is not valid UTF-8");
  }

  unsigned char len_bytes[8];
  for (int i = 0; i < 8; ++i) len_bytes[i] = static_cast<unsigned char>(header.size() >> (8 * i));
  AtomicFile out(kSave, path);
  out.write(len_bytes, 8);
  out.write(header.data(), header.size());
  for (const Item& it : items) out.write_elements(*it.t);
  out.commit();
}

}  // namespace ctensor::core
