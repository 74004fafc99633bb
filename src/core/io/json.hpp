// A small strict JSON parser (RFC 8259) for file headers such as safetensors'.
// Objects keep their members in file order and reject duplicate keys; strings
// must be valid UTF-8 and are unescaped; numbers keep their literal text.
//
// JsonReader is the one grammar: a pull reader that hands out values in file
// order without building anything. parse_json builds a Json tree with it;
// readers of big headers (safetensors) build their own structures with it
// directly, skipping the tree's allocations.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ctensor::core {

struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;  // a string's value, or a number's literal
  std::vector<Json> items;                           // Array
  std::vector<std::pair<std::string, Json>> members;  // Object, in file order

  // The number as a non-negative integer; false if it is not one or exceeds UINT64_MAX.
  bool as_uint64(uint64_t* out) const;
};

// A number literal (as JsonReader::text gives it) as a non-negative integer;
// false for a sign, fraction or exponent, or a value above UINT64_MAX.
inline bool json_uint64(std::string_view literal, uint64_t* out) {
  if (literal.empty() || literal[0] == '-') return false;
  const bool may_overflow = literal.size() > 19;  // 19 digits stay below 10^19
  uint64_t v = 0;
  for (const char c : literal) {
    if (c < '0' || c > '9') return false;  // fraction or exponent: not an integer
    const auto d = static_cast<uint64_t>(c - '0');
    if (may_overflow && v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

// An insert-only set of string views (the text they view must outlive it) that
// remembers insertion order: a scan while small (an object's few fields), an
// open-addressing table beyond (a header's many names).
class KeySet {
 public:
  // Adds `key`; false if it is already there.
  bool insert(std::string_view key);
  // The insertion index of `key`, or -1.
  int64_t find(std::string_view key) const;
  // Empties it for the next object (cheaper than a new one in a hot loop).
  void clear() noexcept {
    size_ = 0;
    large_.clear();
    slots_.clear();
  }

 private:
  static constexpr size_t kScan = 8;
  std::string_view at(size_t i) const { return i < kScan ? small_[i] : large_[i - kScan]; }
  // Eight bytes a step (a multiply-xor mix), seeded per process so that a
  // file cannot be written to collide on purpose (collisions cost probes,
  // never a wrong answer; a flood of them would make inserts quadratic).
  static uint32_t hash(std::string_view key) {
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15;
    uint64_t h = (key.size() ^ seed_) * kMul;
    size_t i = 0;
    for (; i + 8 <= key.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, key.data() + i, 8);
      h = (h ^ w) * kMul;
      h ^= h >> 29;
    }
    if (i < key.size()) {
      uint64_t w = 0;
      std::memcpy(&w, key.data() + i, key.size() - i);
      h = (h ^ w) * kMul;
    }
    h ^= h >> 32;
    return static_cast<uint32_t>(h * kMul >> 32);
  }
  // The slot holding `key`, or the empty one it would take.
  size_t slot_of(std::string_view key, uint32_t h) const;
  void rehash(size_t slots);

  static const uint64_t seed_;
  std::array<std::string_view, kScan> small_;  // inline: a small object allocates nothing
  std::vector<std::string_view> large_;        // keys from kScan on
  // (hash << 32) | (index + 1), 0 when empty; none while scanning. The stored
  // hash spares most key compares and rehashing the keys when the table grows.
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

// Reads one JSON value from `text` in file order. Errors are Error(Format)
// "`op`: `what`: <reason> at byte N". Nesting deeper than 64 levels is refused.
class JsonReader {
 public:
  JsonReader(std::string_view text, const char* op, const char* what) : s_(text), op_(op), what_(what) {}

  // Starts the next value, `depth` containers deep. A scalar is read whole (see
  // text() and boolean()); of an object or array only the opening bracket:
  // continue with next_key / next_item, or skip().
  Json::Kind value(int depth) {
    if (depth > kMaxDepth) error("nesting too deep");
    skip_space();
    if (pos_ >= s_.size()) error("unexpected end");
    switch (s_[pos_]) {
      case '{': ++pos_; return Json::Kind::Object;
      case '[': ++pos_; return Json::Kind::Array;
      case '"': text_ = string(); return Json::Kind::String;
      case 't': expect_word("true"); boolean_ = true; return Json::Kind::Bool;
      case 'f': expect_word("false"); boolean_ = false; return Json::Kind::Bool;
      case 'n': expect_word("null"); return Json::Kind::Null;
      default: text_ = number(); return Json::Kind::Number;
    }
  }
  // The last string's value (escapes decoded) or number's literal. Views stay
  // valid as long as the text and this reader (or release_decoded's result) do.
  std::string_view text() const { return text_; }
  bool boolean() const { return boolean_; }

  // The next member of the object being read: its key (added to `keys`; a
  // duplicate is an error) and the ':' after it; false at the closing '}'.
  // `first` starts true for each object.
  bool next_key(bool& first, KeySet& keys, std::string_view& key) {
    return next_key(first, key, [&keys](std::string_view k) { return keys.insert(k); });
  }
  // The same with the caller's own record of the keys: `unique(key)` notes a
  // key and says whether it is new.
  template <typename Unique>
  bool next_key(bool& first, std::string_view& key, Unique&& unique) {
    skip_space();
    if (eat('}')) return false;
    if (!first && !eat(',')) error("expected ',' or '}'");
    first = false;
    skip_space();
    if (pos_ >= s_.size() || s_[pos_] != '"') error("expected a string key");
    key = string();
    if (!unique(key)) duplicate(key);
    skip_space();
    if (!eat(':')) error("expected ':'");
    return true;
  }
  // Whether the array being read has another item; false at the closing ']'.
  bool next_item(bool& first) {
    skip_space();
    if (eat(']')) return false;
    if (!first && !eat(',')) error("expected ',' or ']'");
    first = false;
    return true;
  }
  // Reads (and checks) the rest of a value that value(depth) started.
  void skip(Json::Kind kind, int depth) {
    if (kind == Json::Kind::Object || kind == Json::Kind::Array) skip_container(kind, depth);
  }
  // After the top-level value: nothing but whitespace may follow.
  void finish();

  [[noreturn]] void error(const char* reason) const;
  // The storage of the decoded strings (those that had escapes), for views
  // that must outlive the reader.
  std::deque<std::string> release_decoded() { return std::move(decoded_); }

 private:
  // The hot steps are inline here (the callers are in other files); they read
  // through locals where a char read could otherwise alias pos_.
  static constexpr int kMaxDepth = 64;
  void skip_space() {
    const char* s = s_.data();
    const size_t n = s_.size();
    size_t p = pos_;
    while (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')) ++p;
    pos_ = p;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  [[noreturn]] void duplicate(std::string_view key) const;
  void skip_container(Json::Kind kind, int depth);
  void expect_word(std::string_view w);
  std::string_view number();
  std::string_view string();
  void unescape(std::string& out);
  unsigned hex4();
  size_t utf8_length() const;

  std::string_view s_;
  const char* op_;
  const char* what_;
  size_t pos_ = 0;
  std::string_view text_;
  bool boolean_ = false;
  std::deque<std::string> decoded_;  // a deque: growing it moves no string
};

// Parses one JSON value followed by nothing but whitespace into a tree (see
// JsonReader for the errors).
Json parse_json(std::string_view text, const char* op, const char* what);

// Appends `s` to `out` as a JSON string literal (quotes and escapes included).
void append_json_string(std::string& out, std::string_view s);

}  // namespace ctensor::core
