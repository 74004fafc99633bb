// A small strict JSON parser (RFC 8259) for file headers such as safetensors'.
// Objects keep their members in file order and reject duplicate keys; strings
// must be valid UTF-8 and are unescaped; numbers keep their literal text.
#pragma once

#include <cstdint>
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

// Parses one JSON value followed by nothing but whitespace. Nesting deeper than
// 64 levels is refused. Error(Format) "`op`: `what`: <reason> at byte N" otherwise.
Json parse_json(std::string_view text, const char* op, const char* what);

// Appends `s` to `out` as a JSON string literal (quotes and escapes included).
void append_json_string(std::string& out, std::string_view s);

}  // namespace ctensor::core
