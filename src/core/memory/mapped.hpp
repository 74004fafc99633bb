// Storages backed by files and by shared memory: memory mappings that are
// unmapped (and whose descriptor, if kept, is closed) with the last reference.
//
// Every descriptor is opened close-on-exec. A mapping is checked against the
// file's size when it is made, so no page of it lies past the end of the file
// (such pages would raise SIGBUS when touched). Shared-memory descriptors are
// sealed against shrinking, so no process can cut them short later either.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "memory/storage.hpp"

namespace ctensor::core {

// How a mapping may be used (the public TENSOR_MAP_* flags, decoded by the C facade).
enum class MapMode {
  Read,     // read-only, shared
  Write,    // read-write, writes reach the file
  Private,  // read-write, copy-on-write (writes stay in this process)
};

// An open descriptor, closed by the destructor.
class File {
 public:
  // Opens `path` (O_CLOEXEC); Error(IO) naming the path and the system's reason.
  static File open(const char* op, const char* path, bool writable);
  explicit File(int fd) noexcept : fd_(fd) {}
  File(File&& o) noexcept : fd_(o.release()) {}
  File& operator=(File&&) = delete;
  ~File();

  int fd() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Size of a regular file; Error(IO) for directories, pipes and devices.
  uint64_t size(const char* op) const;
  // Reads exactly n bytes at `offset`; Error(IO) on failure, Error(Format) if the
  // file ends first (`what` names the part of the file being read).
  void read_at(const char* op, void* buf, size_t n, uint64_t offset, const char* what) const;

 private:
  int fd_;
};

// Maps nbytes at `offset` of `file`, which the caller has checked lie inside it
// (nbytes 0: an empty storage, nothing mapped). The storage is read-only for
// MapMode::Read. With `keep` (normally &file) the storage takes over that
// descriptor (storage_fd reports it) and closes it when released.
Ref<Storage> map_descriptor(const char* op, const File& file, uint64_t offset, size_t nbytes,
                            MapMode mode, File* keep);

// tensor_storage_map_file: [offset, offset + nbytes) of the file at path (nbytes 0:
// to the end). Error(Bounds) when that range is empty or passes the end of the file.
Ref<Storage> map_file(const char* op, const char* path, uint64_t offset, uint64_t nbytes,
                      MapMode mode);

// Anonymous shared memory (memfd), zero-filled, writable, fd-backed.
Ref<Storage> new_shared(size_t nbytes);

// The first nbytes (0: all) of descriptor `fd`, which is duplicated.
Ref<Storage> from_descriptor(int fd, size_t nbytes, MapMode mode);

// The descriptor an fd-backed storage holds (borrowed), -1 for any other storage.
int storage_fd(const Storage& s) noexcept;

// tensor_storage_move_to_shared: the storage's bytes copied into new shared memory
// (read-only if the storage is), which the storage then holds instead of its old
// memory (released at once), so every tensor viewing it sees the shared copy.
// Nothing happens to an fd-backed storage. Error(Device) off the CPU,
// Error(Invalid) while pinned, Error(Unsupported) for a read-write file mapping.
void move_to_shared(const char* op, Storage& s);

// "strerror(errno)" text for messages.
std::string system_error_text(int err);

}  // namespace ctensor::core
