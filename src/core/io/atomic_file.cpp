#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "engine/copy.hpp"
#include "error.hpp"
#include "memory/mapped.hpp"

namespace ctensor::core {

AtomicFile::AtomicFile(const char* op, const char* path) : op_(op) {
  if (!path) fail(Status::Invalid, op, ": path is NULL");
  path_ = path;
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temp_ = path_ + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100))
      fail(Status::IO, op, ": cannot create a temporary file beside '", path_, "': ", system_error_text(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    close(fd_);
    unlink(temp_.c_str());
  }
}

void AtomicFile::write(const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t put = ::write(fd_, p, n < (size_t{1} << 30) ? n : (size_t{1} << 30));
    if (put < 0) {
      if (errno == EINTR) continue;
      fail(Status::IO, op_, ": writing '", temp_, "': ", system_error_text(errno));
    }
    p += put;
    n -= static_cast<size_t>(put);
  }
}

void AtomicFile::write_elements(const Tensor& t) {
  t.require_readable(op_);
  if (t.numel() == 0) return;
  if (t.is_contiguous()) {
    write(t.data(), static_cast<size_t>(t.numel()) * t.itemsize());
    return;
  }
  const auto dense = contiguous_copy(op_, t, t.dtype());
  write(dense->data(), static_cast<size_t>(dense->numel()) * dense->itemsize());
}

void AtomicFile::commit() {
  if (fsync(fd_) != 0) fail(Status::IO, op_, ": fsync '", temp_, "': ", system_error_text(errno));
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) {
    const int err = errno;
    unlink(temp_.c_str());
    fail(Status::IO, op_, ": closing '", temp_, "': ", system_error_text(err));
  }
  if (rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    unlink(temp_.c_str());
    fail(Status::IO, op_, ": cannot rename '", temp_, "' to '", path_, "': ", system_error_text(err));
  }
}

}  // namespace ctensor::core
