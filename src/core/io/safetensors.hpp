// The safetensors format: an 8-byte little-endian header length N, N bytes of
// JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {str: str}}, then the data, offsets counted from its start.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/json.hpp"
#include "io/load_options.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

class SafeTensors {
 public:
  // Opens and validates a file as the reference implementation does; see
  // tensor_safetensors_open_with in include/ctensor.h; messages start with `op`.
  static std::unique_ptr<SafeTensors> open(const char* op, const char* path, const LoadOptions& options);

  int64_t count() const noexcept { return static_cast<int64_t>(entries_.size()); }
  // Name of entry `index` in header order; nullptr out of range.
  const char* name(int64_t index) const noexcept;
  // A view of one tensor on the shared data storage (a copy if unaligned).
  Ref<Tensor> get(const char* name) const;
  // A metadata value, nullptr if absent.
  const char* metadata(const char* key) const noexcept;
  int64_t metadata_count() const noexcept { return static_cast<int64_t>(metadata_keys_.size()); }
  // Key of metadata pair `index` in header order; nullptr out of range.
  const char* metadata_key(int64_t index) const noexcept;

 private:
  struct Entry {
    const char* name;  // NUL-terminated, in header_ or decoded_
    uint64_t begin, end;
    uint32_t dims, ndim;  // shape: shapes_[dims, dims + ndim)
    int code;             // index into the dtype table
  };

  SafeTensors() = default;
  void parse_header(const char* op, size_t size);
  uint64_t check_offsets(const char* op) const;

  Ref<Storage> data_;  // the data section (mapped or read)
  std::unique_ptr<char[]> header_;  // the header's text: index_ and entries_ view the names in it
  std::deque<std::string> decoded_;  // names that had escapes, decoded
  KeySet index_;  // the header's top-level keys, in order: entries_ and __metadata__
  int64_t metadata_at_ = -1;  // __metadata__'s place among those keys, if present
  std::vector<Entry> entries_;
  std::vector<int64_t> shapes_;
  std::unordered_map<std::string, std::string> metadata_;
  std::vector<std::string> metadata_keys_;  // header order, each once
};

// tensor_safetensors_save: n tensors and n_meta metadata pairs, atomically.
void save_safetensors(const char* path, int64_t n, const char* const* names,
                      const Tensor* const* tensors, int64_t n_meta, const char* const* keys,
                      const char* const* values);

}  // namespace ctensor::core
