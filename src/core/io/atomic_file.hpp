// Writing a file atomically: the bytes go to a temporary file beside the target
// (created with mode 0666 less the umask, as open() does), which is flushed to
// disk and renamed over the target on commit(). Readers see the old file or the
// whole new one, never a partial write; on failure the temporary is removed.
#pragma once

#include <cstddef>
#include <string>

#include "layout/tensor.hpp"

namespace ctensor::core {

class AtomicFile {
 public:
  AtomicFile(const char* op, const char* path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  // Error(IO) with the system's reason (ENOSPC: "No space left on device").
  void write(const void* data, size_t n);
  // The elements of t in C order (t is copied first if it is not contiguous).
  void write_elements(const Tensor& t);
  void commit();

 private:
  const char* op_;
  std::string path_, temp_;
  int fd_ = -1;
};

}  // namespace ctensor::core
