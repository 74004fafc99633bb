#include "io/json.hpp"

#include <chrono>
#include <cstring>

#include "error.hpp"

namespace ctensor::core {

namespace {

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;  // the first byte is the lowest

// Bytes a string literal holds as they are: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[static_cast<size_t>(c)] = c != '"' && c != '\\';
  return t;
}();

// The first byte at or after `p` that is not plain. A free function over
// locals: through members, every char read could alias pos_ and force a reload.
size_t plain_end(const char* s, size_t p, size_t n) {
  // Eight bytes at a time (the lowest flagged byte is a true one: the tricks'
  // false flags only follow a true one).
  constexpr uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080;
  while (kLittleEndian && p + 8 <= n) {
    uint64_t w;
    std::memcpy(&w, s + p, 8);
    const uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
    const uint64_t flags =
        (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) | ((w - kOnes * 0x20) & ~w) | w) & kHigh;
    if (flags != 0) return p + static_cast<size_t>(__builtin_ctzll(flags)) / 8;
    p += 8;
  }
  while (p < n && kPlain[static_cast<unsigned char>(s[p])]) ++p;
  return p;
}

size_t digits_end(const char* s, size_t p, size_t n) {
  while (p < n && s[p] >= '0' && s[p] <= '9') ++p;
  return p;
}

void put_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

Json build(JsonReader& r, int depth) {
  Json v;
  v.kind = r.value(depth);
  switch (v.kind) {
    case Json::Kind::String:
    case Json::Kind::Number: v.text = r.text(); break;
    case Json::Kind::Bool: v.boolean = r.boolean(); break;
    case Json::Kind::Null: break;
    case Json::Kind::Object: {
      v.members.reserve(4);  // a tensor's three fields without reallocation
      bool first = true;
      KeySet keys;
      std::string_view key;
      while (r.next_key(first, keys, key)) {
        std::string name(key);
        v.members.emplace_back(std::move(name), build(r, depth + 1));
      }
      break;
    }
    case Json::Kind::Array: {
      v.items.reserve(4);
      bool first = true;
      while (r.next_item(first)) v.items.push_back(build(r, depth + 1));
      break;
    }
  }
  return v;
}

}  // namespace

bool Json::as_uint64(uint64_t* out) const { return kind == Kind::Number && json_uint64(text, out); }

// ---- KeySet ------------------------------------------------------------------

// The address (randomised by ASLR) and the start time: a seed that never throws.
const uint64_t KeySet::seed_ = reinterpret_cast<uintptr_t>(&KeySet::seed_) ^
                               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());

size_t KeySet::slot_of(std::string_view key, uint32_t h) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const uint64_t s = slots_[i];
    if (s == 0 || ((s >> 32) == h && at(static_cast<uint32_t>(s) - 1) == key)) return i;
  }
}

void KeySet::rehash(size_t slots) {
  std::vector<uint64_t> old(slots, 0);
  old.swap(slots_);
  if (old.empty()) {  // leaving the scan: the small keys get their hashes
    for (size_t k = 0; k < size_; ++k) slots_[slot_of(at(k), hash(at(k)))] = uint64_t{hash(at(k))} << 32 | (k + 1);
    return;
  }
  const size_t mask = slots - 1;
  for (const uint64_t s : old) {
    if (s == 0) continue;
    size_t i = (s >> 32) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

bool KeySet::insert(std::string_view key) {
  if (slots_.empty()) {
    for (size_t k = 0; k < size_; ++k)
      if (small_[k] == key) return false;
    if (size_ < kScan) {
      small_[size_++] = key;
      return true;
    }
    rehash(4 * kScan);
  }
  const uint32_t h = hash(key);
  const size_t i = slot_of(key, h);
  if (slots_[i] != 0) return false;
  large_.push_back(key);
  slots_[i] = uint64_t{h} << 32 | ++size_;
  if (2 * size_ > slots_.size()) rehash(2 * slots_.size());  // at most half full: short probes
  return true;
}

int64_t KeySet::find(std::string_view key) const {
  if (slots_.empty()) {
    for (size_t k = 0; k < size_; ++k)
      if (small_[k] == key) return static_cast<int64_t>(k);
    return -1;
  }
  const uint64_t s = slots_[slot_of(key, hash(key))];
  return static_cast<int64_t>(static_cast<uint32_t>(s)) - 1;
}

// ---- JsonReader ----------------------------------------------------------------

void JsonReader::error(const char* reason) const {
  fail(Status::Format, op_, ": ", what_, ": ", reason, " at byte ", pos_);
}

void JsonReader::expect_word(std::string_view w) {
  if (s_.substr(pos_, w.size()) != w) error("invalid literal");
  pos_ += w.size();
}

void JsonReader::duplicate(std::string_view key) const {
  error(("duplicate key \"" + std::string(key) + "\"").c_str());
}

void JsonReader::skip_container(Json::Kind kind, int depth) {
  if (kind == Json::Kind::Object) {
    bool first = true;
    KeySet keys;
    std::string_view key;
    while (next_key(first, keys, key)) skip(value(depth + 1), depth + 1);
  } else {
    bool first = true;
    while (next_item(first)) skip(value(depth + 1), depth + 1);
  }
}

void JsonReader::finish() {
  skip_space();
  if (pos_ != s_.size()) error("unexpected text after the value");
}

std::string_view JsonReader::number() {
  const char* s = s_.data();
  const size_t n = s_.size(), start = pos_;
  size_t p = start;
  const auto digit = [&] { return p < n && s[p] >= '0' && s[p] <= '9'; };
  const auto fail_at = [&](const char* reason) {
    pos_ = p;
    error(reason);
  };
  if (p < n && s[p] == '-') ++p;
  if (!digit()) fail_at("invalid value");
  p = s[p] == '0' ? p + 1 : digits_end(s, p, n);
  if (p < n && s[p] == '.') {
    ++p;
    if (!digit()) fail_at("invalid number");
    p = digits_end(s, p, n);
  }
  if (p < n && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < n && (s[p] == '+' || s[p] == '-')) ++p;
    if (!digit()) fail_at("invalid number");
    p = digits_end(s, p, n);
  }
  pos_ = p;
  return s_.substr(start, p - start);
}

unsigned JsonReader::hex4() {
  if (pos_ + 4 > s_.size()) error("truncated \\u escape");
  unsigned v = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = s_[pos_++];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
    else error("invalid \\u escape");
  }
  return v;
}

// The length of the UTF-8 sequence at pos_, checked (no overlong forms, no surrogates).
size_t JsonReader::utf8_length() const {
  const auto b0 = static_cast<unsigned char>(s_[pos_]);
  size_t len;
  uint32_t cp, min;
  if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, cp = b0 & 0x1F, min = 0x80;
  else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, cp = b0 & 0x0F, min = 0x800;
  else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, cp = b0 & 0x07, min = 0x10000;
  else error("invalid UTF-8");
  if (pos_ + len > s_.size()) error("truncated UTF-8");
  for (size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(s_[pos_ + i]);
    if ((b & 0xC0) != 0x80) error("invalid UTF-8");
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) error("invalid UTF-8");
  return len;
}

// A string literal's value: a view of the text itself unless it has escapes
// (most have none), else decoded into storage of its own.
std::string_view JsonReader::string() {
  const size_t start = ++pos_;  // past the opening quote
  for (;;) {
    pos_ = plain_end(s_.data(), pos_, s_.size());
    if (pos_ >= s_.size()) error("unterminated string");
    const auto c = static_cast<unsigned char>(s_[pos_]);
    if (c == '"') return s_.substr(start, pos_++ - start);
    if (c == '\\') break;
    if (c < 0x20) error("control character in string");
    pos_ += utf8_length();
  }
  std::string& out = decoded_.emplace_back(s_.substr(start, pos_ - start));
  unescape(out);
  return out;
}

// The rest of a string literal from its first escape, appended to `out`.
void JsonReader::unescape(std::string& out) {
  for (;;) {
    if (pos_ >= s_.size()) error("unterminated string");
    const auto c = static_cast<unsigned char>(s_[pos_]);
    if (c == '"') {
      ++pos_;
      return;
    }
    if (c < 0x20) error("control character in string");
    if (c >= 0x80) {
      const size_t len = utf8_length();
      out.append(s_.substr(pos_, len));
      pos_ += len;
      continue;
    }
    ++pos_;
    if (c != '\\') {
      out += static_cast<char>(c);
      continue;
    }
    if (pos_ >= s_.size()) error("unterminated string");
    switch (s_[pos_++]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp = hex4();
        if (cp >= 0xDC00 && cp <= 0xDFFF) error("lone surrogate in \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (!eat('\\') || !eat('u')) error("lone surrogate in \\u escape");
          const uint32_t lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF) error("lone surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(out, cp);
        break;
      }
      default: error("invalid escape");
    }
  }
}

Json parse_json(std::string_view text, const char* op, const char* what) {
  JsonReader r(text, op, what);
  Json v = build(r, 0);
  r.finish();
  return v;
}

void append_json_string(std::string& out, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

}  // namespace ctensor::core
