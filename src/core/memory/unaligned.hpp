// Element loads and stores through memcpy: views of wrapped memory need not be
// aligned, and memcpy of a fixed size compiles to one move.
#pragma once

#include <cstring>

namespace ctensor::core {

template <class T>
inline T load(const char* p) noexcept {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return x;
}

template <class T>
inline void store(char* p, T x) noexcept {
  std::memcpy(p, &x, sizeof(T));
}

}  // namespace ctensor::core
