#include "io/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
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
  const char* name;
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

int dtype_code(const std::string& name) {
  for (int i = 0; i < kDtypeCount; ++i)
    if (name == kDtypes[i].name) return i;
  return -1;
}

[[noreturn]] void bad(const char* op, const std::string& what) {
  fail(Status::Format, op, ": invalid safetensors header: ", what);
}

uint64_t offset_value(const char* op, const Json& v, const std::string& name) {
  uint64_t out;
  if (!v.as_uint64(&out)) bad(op, "tensor '" + name + "': data_offsets must be non-negative integers");
  return out;
}

}  // namespace

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
  std::string text(static_cast<size_t>(n), '\0');
  file.read_at(op, text.data(), text.size(), 8, "the header");
  if (text.empty() || text[0] != '{') bad(op, "it does not start with '{'");
  const Json header = parse_json(text, op, "invalid safetensors header");
  if (header.kind != Json::Kind::Object) bad(op, "not a JSON object");

  std::unique_ptr<SafeTensors> st(new SafeTensors());
  for (const auto& [name, info] : header.members) {
    if (name == kMetadataKey) {
      if (info.kind == Json::Kind::Null) continue;
      if (info.kind != Json::Kind::Object) bad(op, "__metadata__ is not an object");
      for (const auto& [key, value] : info.members) {
        if (value.kind != Json::Kind::String) bad(op, "__metadata__ value of '" + key + "' is not a string");
        if (st->metadata_.emplace(key, value.text).second) st->metadata_keys_.push_back(key);
      }
      continue;
    }
    if (info.kind != Json::Kind::Object) bad(op, "tensor '" + name + "' is not an object");
    const Json *dt = nullptr, *shape = nullptr, *offsets = nullptr;
    for (const auto& [field, value] : info.members) {
      if (field == "dtype") dt = &value;
      else if (field == "shape") shape = &value;
      else if (field == "data_offsets") offsets = &value;
    }
    if (!dt || !shape || !offsets) bad(op, "tensor '" + name + "' lacks dtype, shape or data_offsets");
    if (dt->kind != Json::Kind::String) bad(op, "tensor '" + name + "': dtype is not a string");
    const int code = dtype_code(dt->text);
    if (code < 0) bad(op, "tensor '" + name + "': unknown dtype '" + dt->text + "'");
    if (shape->kind != Json::Kind::Array) bad(op, "tensor '" + name + "': shape is not an array");
    if (offsets->kind != Json::Kind::Array || offsets->items.size() != 2)
      bad(op, "tensor '" + name + "': data_offsets is not [begin, end]");
    Entry e{name, code, {}, offset_value(op, offsets->items[0], name), offset_value(op, offsets->items[1], name)};
    for (const Json& d : shape->items) {
      uint64_t v;
      if (!d.as_uint64(&v)) bad(op, "tensor '" + name + "': shape entries must be non-negative integers");
      if (v > static_cast<uint64_t>(INT64_MAX))
        fail(Status::Overflow, op, ": tensor '", name, "': dimension ", v, " overflows");
      e.shape.push_back(static_cast<int64_t>(v));
    }
    st->index_.emplace(name, st->entries_.size());
    st->entries_.push_back(std::move(e));
  }

  // As the reference's Metadata::validate: sorted by offsets, the tensors tile
  // the data section from 0 to its end, each exactly numel * itemsize bytes.
  std::vector<size_t> order(st->entries_.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Entry &x = st->entries_[a], &y = st->entries_[b];
    return std::make_pair(x.begin, x.end) < std::make_pair(y.begin, y.end);
  });
  uint64_t cursor = 0;
  for (const size_t i : order) {
    const Entry& e = st->entries_[i];
    if (e.begin != cursor || e.end < e.begin)
      bad(op, "tensor '" + e.name + "': data_offsets [" + std::to_string(e.begin) + ", " +
          std::to_string(e.end) + "] do not start where the previous tensor ends (" +
          std::to_string(cursor) + "): a gap or an overlap");
    uint64_t bytes = kDtypes[e.code].size;
    for (const int64_t d : e.shape)
      if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
        fail(Status::Overflow, op, ": tensor '", e.name, "': its byte size overflows");
    if (e.end - e.begin != bytes)
      bad(op, "tensor '" + e.name + "': data_offsets span " + std::to_string(e.end - e.begin) +
          " bytes but its shape and dtype need " + std::to_string(bytes));
    cursor = e.end;
  }
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
  return entries_[static_cast<size_t>(index)].name.c_str();
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
  const auto it = index_.find(name);
  if (it == index_.end()) fail(Status::Invalid, kGet, ": no tensor named '", name, "'");
  const Entry& e = entries_[it->second];
  const STDtype& info = kDtypes[e.code];
  if (info.dtype < 0)
    fail(Status::DType, kGet, ": tensor '", name, "' has dtype ", info.name, ", which ctensor does not have");
  const auto ndim = static_cast<int64_t>(e.shape.size());
  if (ndim > 64) fail(Status::Unsupported, kGet, ": tensor '", name, "' has ", ndim, " dims, more than 64");
  const char* bytes = static_cast<const char*>(data_->data()) + e.begin;
  if (e.begin % info.size == 0 && reinterpret_cast<uintptr_t>(bytes) % info.size == 0)
    return Tensor::make_checked(kGet, data_, info.dtype, ndim, e.shape.data(), nullptr,
                                static_cast<int64_t>(e.begin / info.size));
  // Unaligned in the file: an aligned copy (typed access to it would be undefined).
  auto copy = Tensor::allocate(kGet, info.dtype, ndim, e.shape.data(), false);
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
  try {
    (void)parse_json(header, kSave, "header");  // names and metadata must be valid UTF-8
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
