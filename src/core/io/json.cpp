#include "io/json.hpp"

#include <unordered_set>

#include "error.hpp"

namespace ctensor::core {

namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  Parser(std::string_view text, const char* op, const char* what) : s_(text), op_(op), what_(what) {}

  Json document() {
    Json v = value(0);
    skip_space();
    if (pos_ != s_.size()) error("unexpected text after the value");
    return v;
  }

 private:
  [[noreturn]] void error(const char* reason) const {
    fail(Status::Format, op_, ": ", what_, ": ", reason, " at byte ", pos_);
  }

  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect_word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) error("invalid literal");
    pos_ += w.size();
  }

  Json value(int depth) {
    if (depth > kMaxDepth) error("nesting too deep");
    skip_space();
    if (pos_ >= s_.size()) error("unexpected end");
    Json v;
    switch (s_[pos_]) {
      case '{': object(v, depth); break;
      case '[': array(v, depth); break;
      case '"':
        v.kind = Json::Kind::String;
        v.text = string();
        break;
      case 't':
        expect_word("true");
        v.kind = Json::Kind::Bool;
        v.boolean = true;
        break;
      case 'f':
        expect_word("false");
        v.kind = Json::Kind::Bool;
        break;
      case 'n': expect_word("null"); break;
      default:
        v.kind = Json::Kind::Number;
        v.text = number();
    }
    return v;
  }

  void object(Json& v, int depth) {
    v.kind = Json::Kind::Object;
    v.members.reserve(4);  // a tensor's three fields without reallocation
    ++pos_;
    skip_space();
    if (eat('}')) return;
    // Small objects (a tensor's fields) are checked for duplicates by a scan;
    // a hash set takes over for large ones (a header's tensor names).
    constexpr size_t kScanLimit = 8;
    std::unordered_set<std::string> seen;  // copies: members move as the vector grows
    for (;;) {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') error("expected a string key");
      std::string key = string();
      bool duplicate = false;
      if (v.members.size() < kScanLimit) {
        for (const auto& m : v.members) duplicate = duplicate || m.first == key;
      } else {
        if (seen.empty())
          for (const auto& m : v.members) seen.insert(m.first);
        duplicate = seen.count(key) != 0;
      }
      if (duplicate) error(("duplicate key \"" + key + "\"").c_str());
      skip_space();
      if (!eat(':')) error("expected ':'");
      Json member = value(depth + 1);
      v.members.emplace_back(std::move(key), std::move(member));
      if (!seen.empty()) seen.insert(v.members.back().first);
      skip_space();
      if (eat('}')) return;
      if (!eat(',')) error("expected ',' or '}'");
    }
  }

  void array(Json& v, int depth) {
    v.kind = Json::Kind::Array;
    v.items.reserve(4);
    ++pos_;
    skip_space();
    if (eat(']')) return;
    for (;;) {
      v.items.push_back(value(depth + 1));
      skip_space();
      if (eat(']')) return;
      if (!eat(',')) error("expected ',' or ']'");
    }
  }

  bool digit() const { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; }

  std::string number() {
    const size_t start = pos_;
    eat('-');
    if (!digit()) error("invalid value");
    if (!eat('0'))
      while (digit()) ++pos_;
    if (eat('.')) {
      if (!digit()) error("invalid number");
      while (digit()) ++pos_;
    }
    if (eat('e') || eat('E')) {
      if (!eat('+')) eat('-');
      if (!digit()) error("invalid number");
      while (digit()) ++pos_;
    }
    return std::string(s_.substr(start, pos_ - start));
  }

  unsigned hex4() {
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

  static void put_utf8(std::string& out, uint32_t cp) {
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

  // One UTF-8 sequence starting at pos_, checked (no overlong forms, no surrogates).
  void utf8_sequence(std::string& out) {
    const auto b0 = static_cast<unsigned char>(s_[pos_]);
    int len;
    uint32_t cp, min;
    if (b0 >= 0xC2 && b0 <= 0xDF) len = 2, cp = b0 & 0x1F, min = 0x80;
    else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, cp = b0 & 0x0F, min = 0x800;
    else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, cp = b0 & 0x07, min = 0x10000;
    else error("invalid UTF-8");
    if (pos_ + static_cast<size_t>(len) > s_.size()) error("truncated UTF-8");
    for (int i = 1; i < len; ++i) {
      const auto b = static_cast<unsigned char>(s_[pos_ + static_cast<size_t>(i)]);
      if ((b & 0xC0) != 0x80) error("invalid UTF-8");
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) error("invalid UTF-8");
    out.append(s_.substr(pos_, static_cast<size_t>(len)));
    pos_ += static_cast<size_t>(len);
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) error("unterminated string");
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) error("control character in string");
      if (c >= 0x80) {
        utf8_sequence(out);
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

  std::string_view s_;
  const char* op_;
  const char* what_;
  size_t pos_ = 0;
};

}  // namespace

bool Json::as_uint64(uint64_t* out) const {
  if (kind != Kind::Number || text.empty() || text[0] == '-') return false;
  uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;  // fraction or exponent: not an integer
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

Json parse_json(std::string_view text, const char* op, const char* what) {
  return Parser(text, op, what).document();
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
