#include "io/npy.hpp"

#include <cstring>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"
#include "io/atomic_file.hpp"
#include "io/chunked_read.hpp"
#include "io/load_options.hpp"
#include "memory/mapped.hpp"

namespace ctensor::core {

namespace {

constexpr const char* kSave = "save_npy";
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
// numpy.lib.format's default max_header_size: larger headers need allow_pickle.
constexpr uint64_t kMaxHeader = 10000;
constexpr size_t kAlign = 64;
// numpy.lib.format.GROWTH_AXIS_MAX_DIGITS: spare room NumPy leaves after the dict.
constexpr size_t kGrowthDigits = 21;
constexpr size_t kMaxDims = 64;  // TENSOR_MAX_DIMS

// ctensor dtype <-> the type part of a NumPy descr ("f4"); byte order aside.
struct Descr {
  DType dtype;
  const char* code;
};
constexpr Descr kDescrs[] = {
    {dtype::Bool, "b1"},    {dtype::UInt8, "u1"},    {dtype::Int8, "i1"},
    {dtype::Int16, "i2"},   {dtype::UInt16, "u2"},   {dtype::Int32, "i4"},
    {dtype::UInt32, "u4"},  {dtype::Int64, "i8"},    {dtype::UInt64, "u8"},
    {dtype::Float16, "f2"}, {dtype::Float32, "f4"},  {dtype::Float64, "f8"},
    {dtype::Complex64, "c8"}, {dtype::Complex128, "c16"},
};

// The header dict: a Python literal {'descr': str, 'fortran_order': bool,
// 'shape': tuple of ints}, as numpy.lib.format writes and safe_evals it.
struct Header {
  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
};

class HeaderParser {
 public:
  HeaderParser(const char* op, std::string_view s) : op_(op), s_(s) {}

  Header parse() {
    Header h;
    bool seen[3] = {false, false, false};
    expect('{');
    while (!peek('}')) {
      const std::string key = string_literal();
      expect(':');
      int which;
      if (key == "descr") {
        which = 0;
        if (!peek('\'') && !peek('"'))
          fail(Status::DType, op_, ": structured dtypes (descr ", rest(),
               ") are not supported; only plain numeric and bool arrays");
        h.descr = string_literal();
      } else if (key == "fortran_order") {
        which = 1;
        h.fortran = boolean();
      } else if (key == "shape") {
        which = 2;
        h.shape = int_tuple();
      } else {
        error("unexpected key '" + key + "'");
      }
      if (seen[which]) error("repeated key '" + key + "'");
      seen[which] = true;
      if (!peek('}')) expect(',');
    }
    expect('}');
    skip_space();
    if (pos_ != s_.size()) error("text after the dict");
    if (!seen[0] || !seen[1] || !seen[2])
      error("header does not contain the keys 'descr', 'fortran_order' and 'shape'");
    return h;
  }

 private:
  [[noreturn]] void error(const std::string& reason) const {
    fail(Status::Format, op_, ": bad .npy header: ", reason, " at byte ", pos_);
  }

  std::string rest() const { return std::string(s_.substr(pos_, 40)); }

  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  bool peek(char c) {
    skip_space();
    return pos_ < s_.size() && s_[pos_] == c;
  }

  void expect(char c) {
    if (!peek(c)) error(std::string("expected '") + c + "'");
    ++pos_;
  }

  std::string string_literal() {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) error("expected a string");
    const char quote = s_[pos_++];
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\' || s_[pos_] == '\n') error("unsupported character in a string");
      ++pos_;
    }
    if (pos_ >= s_.size()) error("unterminated string");
    return std::string(s_.substr(start, pos_++ - start));
  }

  bool boolean() {
    skip_space();
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    error("fortran_order is not True or False");
  }

  int64_t integer() {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '-') error("negative dimension in shape");
    if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') error("shape is not a tuple of ints");
    int64_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      const int d = s_[pos_++] - '0';
      if (v > (INT64_MAX - d) / 10) error("dimension overflows int64");
      v = v * 10 + d;
    }
    if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2's long literals
    return v;
  }

  std::vector<int64_t> int_tuple() {
    std::vector<int64_t> dims;
    expect('(');
    while (!peek(')')) {
      dims.push_back(integer());
      if (dims.size() > kMaxDims)
        fail(Status::Unsupported, op_, ": array has more than ", kMaxDims, " dimensions");
      if (peek(',')) {
        ++pos_;
      } else if (dims.size() == 1) {
        error("a one-element shape needs a trailing comma");  // (3) is an int, not a tuple
      } else if (!peek(')')) {
        error("expected ',' or ')'");
      }
    }
    expect(')');
    return dims;
  }

  const char* op_;
  std::string_view s_;
  size_t pos_ = 0;
};

// The dtype of a descr and whether its data is big-endian.
DType parse_descr(const char* op, const std::string& descr, bool* big_endian) {
  if (descr.size() >= 2) {
    const char order = descr[0];
    const std::string code = descr.substr(1);
    for (const Descr& d : kDescrs) {
      if (code != d.code) continue;
      const bool single = dtype_size(d.dtype) == 1;
      if (order == '<' || order == '=' || (order == '|' && single)) {
        *big_endian = false;
        return d.dtype;
      }
      if (order == '>') {
        *big_endian = !single;
        return d.dtype;
      }
    }
  }
  if (descr == "|O")
    fail(Status::DType, op, ": object arrays (descr '|O') hold pickled Python objects and are not supported");
  fail(Status::DType, op, ": dtype descr '", descr,
       "' is not supported (bool, [u]int8-64, float16/32/64 and complex64/128 are)");
}

// Big-endian data to native order; a complex number swaps its two parts separately.
void byte_swap(char* p, uint64_t count, DType dt) {
  const bool complex = dtype_info(dt)->kind == DTypeKind::Complex;
  const size_t width = complex ? dtype_size(dt) / 2 : dtype_size(dt);
  const uint64_t words = complex ? 2 * count : count;
  for (uint64_t i = 0; i < words; ++i, p += width)
    for (size_t a = 0, b = width - 1; a < b; ++a, --b) std::swap(p[a], p[b]);
}

}  // namespace

Ref<Tensor> load_npy(const char* op, const char* path, const LoadOptions& options) {
  const File file = File::open(op, path, false);
  const uint64_t size = file.size(op);
  unsigned char prefix[12];
  if (size < 10) fail(Status::Format, op, ": '", path, "' is not a .npy file (", size, " bytes)");
  file.read_at(op, prefix, 10, 0, "the .npy prefix");
  if (std::memcmp(prefix, kMagic, kMagicLen) != 0)
    fail(Status::Format, op, ": '", path, "' is not a .npy file (no \\x93NUMPY magic)");
  const unsigned major = prefix[6], minor = prefix[7];
  if (major < 1 || major > 3 || minor != 0)
    fail(Status::Format, op, ": unsupported .npy format version ", major, ".", minor,
         " (1.0, 2.0 and 3.0 are)");
  uint64_t header_len;
  uint64_t header_start;
  if (major == 1) {
    header_len = prefix[8] | (uint64_t{prefix[9]} << 8);
    header_start = 10;
  } else {
    if (size < 12) fail(Status::Format, op, ": file ends inside the .npy prefix");
    file.read_at(op, prefix + 10, 2, 10, "the .npy prefix");
    header_len = prefix[8] | (uint64_t{prefix[9]} << 8) | (uint64_t{prefix[10]} << 16) |
                 (uint64_t{prefix[11]} << 24);
    header_start = 12;
  }
  if (header_len > kMaxHeader)
    fail(Status::Format, op, ": header of ", header_len, " bytes exceeds NumPy's limit of ",
         kMaxHeader, " (max_header_size)");
  if (header_start + header_len > size)
    fail(Status::Format, op, ": file ends inside the .npy header (", size, " bytes, header needs ",
         header_start + header_len, ")");
  std::string text(static_cast<size_t>(header_len), '\0');
  file.read_at(op, text.data(), text.size(), header_start, "the .npy header");
  const Header h = HeaderParser(op, text).parse();

  bool big_endian = false;
  const DType dt = parse_descr(op, h.descr, &big_endian);
  const size_t itemsize = dtype_size(dt);
  const auto ndim = static_cast<int64_t>(h.shape.size());
  uint64_t numel = 1;
  for (const int64_t d : h.shape)
    if (__builtin_mul_overflow(numel, static_cast<uint64_t>(d), &numel))
      fail(Status::Format, op, ": shape ", DimList{h.shape.data(), ndim}, " overflows");
  uint64_t nbytes;
  if (__builtin_mul_overflow(numel, uint64_t{itemsize}, &nbytes) || nbytes > static_cast<uint64_t>(INT64_MAX))
    fail(Status::Format, op, ": shape ", DimList{h.shape.data(), ndim}, " overflows");
  const uint64_t data_offset = header_start + header_len;
  if (nbytes > size - data_offset)
    fail(Status::Format, op, ": '", path, "' is truncated: shape ", DimList{h.shape.data(), ndim},
         " needs ", nbytes, " bytes of data but the file has ", size - data_offset);

  Ref<Storage> storage;
  if (nbytes == 0) {
    storage = Storage::allocate(0, false);
  } else if (big_endian || options.copy || data_offset % itemsize != 0) {
    storage = read_chunked(op, file, data_offset, static_cast<size_t>(nbytes), "the array data", options);
    if (big_endian) byte_swap(static_cast<char*>(storage->data()), numel, dt);
  } else {
    storage = map_descriptor(op, file, data_offset, static_cast<size_t>(nbytes),
                             options.map_mode(), nullptr);
  }
  std::vector<int64_t> strides;
  if (h.fortran) {
    strides.resize(h.shape.size());
    int64_t step = 1;
    for (size_t i = 0; i < h.shape.size(); ++i) {
      strides[i] = step;
      // Wraps (as contiguous strides do) only for arrays with no elements, whose
      // strides address nothing: [0, 2**62, 4] in Fortran order is valid.
      step = static_cast<int64_t>(static_cast<uint64_t>(step) * static_cast<uint64_t>(h.shape[i] > 0 ? h.shape[i] : 1));
    }
  }
  return Tensor::make_checked(op, std::move(storage), dt, ndim, h.shape.data(),
                              h.fortran ? strides.data() : nullptr, 0);
}

void save_npy(const Tensor& t, const char* path) {
  if (t.dtype() == dtype::BFloat16)
    fail(Status::DType, kSave,
         ": bfloat16 has no .npy descr (NumPy has no bfloat16); save it with tensor_safetensors_save "
         "or convert it to float32 first");
  const char* code = nullptr;
  for (const Descr& d : kDescrs)
    if (d.dtype == t.dtype()) code = d.code;
  if (!code) fail(Status::DType, kSave, ": dtype ", t.dtype(), " has no .npy descr");
  t.require_readable(kSave);

  // As numpy.lib.format._write_array_header (NumPy 1.24) builds it.
  std::string dict = "{'descr': '";
  dict += dtype_size(t.dtype()) == 1 ? '|' : '<';
  dict += code;
  dict += "', 'fortran_order': False, 'shape': (";
  for (int64_t i = 0; i < t.ndim(); ++i) {
    if (i) dict += ", ";
    dict += std::to_string(t.size(i));
  }
  dict += t.ndim() == 1 ? ",), }" : "), }";
  if (t.ndim() > 0) {
    const size_t digits = std::to_string(t.size(0)).size();
    dict.append(digits < kGrowthDigits ? kGrowthDigits - digits : 0, ' ');
  }
  // Format 1.0 always suffices: 64 dims of 19 digits stay far below its 64 KiB.
  const size_t prefix = kMagicLen + 2 + 2;
  const size_t hlen = dict.size() + 1;  // the closing newline
  dict.append(kAlign - (prefix + hlen) % kAlign, ' ');
  dict += '\n';
  std::string header(kMagic, kMagicLen);
  header += '\x01';
  header += '\0';
  header += static_cast<char>(dict.size() & 0xFF);
  header += static_cast<char>(dict.size() >> 8);
  header += dict;

  AtomicFile out(kSave, path);
  out.write(header.data(), header.size());
  out.write_elements(t);
  out.commit();
}

}  // namespace ctensor::core
