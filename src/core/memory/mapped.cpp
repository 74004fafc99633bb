#include "memory/mapped.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "error.hpp"

namespace ctensor::core {

namespace {

// What a mapped storage's release callback undoes.
struct Mapping {
  void* base = nullptr;  // page-aligned start of the mapping (nullptr: nothing mapped)
  size_t length = 0;
  int fd = -1;  // kept descriptor, or -1
  bool writes_reach_file = false;  // MapMode::Write
};

void release_mapping(void* ctx) {
  std::unique_ptr<Mapping> m(static_cast<Mapping*>(ctx));
  if (m->base) munmap(m->base, m->length);
  if (m->fd >= 0) close(m->fd);
}

// Wraps a mapping in a storage; on failure undoes the mapping.
Ref<Storage> adopt_mapping(std::unique_ptr<Mapping> m, void* data, size_t nbytes, bool readonly) {
  Mapping* raw = m.get();
  try {
    auto s = Storage::wrap(data, nbytes, readonly, release_mapping, raw);
    m.release();
    return s;
  } catch (...) {
    release_mapping(m.release());
    throw;
  }
}

int duplicate_fd(const char* op, int fd) {
  const int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (dup < 0) fail(Status::IO, op, ": cannot duplicate descriptor ", fd, ": ", system_error_text(errno));
  return dup;
}

}  // namespace

std::string system_error_text(int err) { return std::strerror(err); }

File File::open(const char* op, const char* path, bool writable) {
  if (!path) fail(Status::Invalid, op, ": path is NULL");
  const int fd = ::open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) fail(Status::IO, op, ": cannot open '", path, "': ", system_error_text(errno));
  return File(fd);
}

File::~File() {
  if (fd_ >= 0) close(fd_);
}

uint64_t File::size(const char* op) const {
  struct stat st;
  if (fstat(fd_, &st) != 0) fail(Status::IO, op, ": fstat: ", system_error_text(errno));
  if (!S_ISREG(st.st_mode))
    fail(Status::IO, op, ": ", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file",
         " cannot be mapped or read as a file");
  return static_cast<uint64_t>(st.st_size);
}

void File::read_at(const char* op, void* buf, size_t n, uint64_t offset, const char* what) const {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    // Linux transfers at most 0x7ffff000 bytes per call.
    const size_t chunk = n < (size_t{1} << 30) ? n : (size_t{1} << 30);
    const ssize_t got = pread(fd_, p, chunk, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(Status::IO, op, ": reading ", what, ": ", system_error_text(errno));
    }
    if (got == 0) fail(Status::Format, op, ": file ends inside ", what);
    p += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
}

Ref<Storage> map_descriptor(const char* op, const File& file, uint64_t offset, size_t nbytes,
                            MapMode mode, File* keep) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t start = offset - offset % page;
  const size_t delta = static_cast<size_t>(offset - start);
  if (nbytes > SIZE_MAX - delta) fail(Status::Overflow, op, ": mapping length overflows");
  auto m = std::make_unique<Mapping>();
  m->length = nbytes + delta;
  const int prot = mode == MapMode::Read ? PROT_READ : PROT_READ | PROT_WRITE;
  const int kind = mode == MapMode::Private ? MAP_PRIVATE : MAP_SHARED;
  void* base = nbytes ? mmap(nullptr, m->length, prot, kind, file.fd(), static_cast<off_t>(start)) : nullptr;
  if (base == MAP_FAILED)
    fail(errno == ENOMEM ? Status::NoMem : Status::IO, op, ": mmap of ", nbytes, " bytes at offset ",
         offset, ": ", system_error_text(errno));
  m->base = base;
  m->writes_reach_file = mode == MapMode::Write;
  if (keep) m->fd = keep->release();
  return adopt_mapping(std::move(m), base ? static_cast<char*>(base) + delta : nullptr, nbytes,
                       mode == MapMode::Read);
}

Ref<Storage> map_file(const char* op, const char* path, uint64_t offset, uint64_t nbytes,
                      MapMode mode) {
  const File file = File::open(op, path, mode == MapMode::Write);
  const uint64_t size = file.size(op);
  if (offset > size)
    fail(Status::Bounds, op, ": offset ", offset, " is past the end of '", path, "' (", size, " bytes)");
  if (nbytes == 0) nbytes = size - offset;
  if (nbytes == 0)
    fail(Status::Bounds, op, ": nothing to map: '", path, "' has ", size, " bytes and offset is ", offset);
  if (nbytes > size - offset)
    fail(Status::Bounds, op, ": bytes [", offset, ", ", offset, " + ", nbytes, ") pass the end of '",
         path, "' (", size, " bytes)");
  if (nbytes > SIZE_MAX) fail(Status::Overflow, op, ": ", nbytes, " bytes do not fit in size_t");
  return map_descriptor(op, file, offset, static_cast<size_t>(nbytes), mode, nullptr);
}

Ref<Storage> new_shared(size_t nbytes) {
  constexpr const char* op = "storage_new_shared";
  if (nbytes > static_cast<uint64_t>(INT64_MAX))
    fail(Status::Overflow, op, ": ", ByteCount{nbytes}, " bytes exceed the largest file size");
  File file(memfd_create("ctensor", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (file.fd() < 0) fail(Status::IO, op, ": memfd_create: ", system_error_text(errno));
  if (ftruncate(file.fd(), static_cast<off_t>(nbytes)) != 0)
    fail(errno == ENOSPC || errno == EFBIG ? Status::NoMem : Status::IO, op, ": ftruncate to ", nbytes,
         " bytes: ", system_error_text(errno));
  // Nobody (receivers of the descriptor included) can shrink it under a mapping.
  if (fcntl(file.fd(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) != 0)
    fail(Status::IO, op, ": sealing the shared memory: ", system_error_text(errno));
  return map_descriptor(op, file, 0, nbytes, MapMode::Write, &file);
}

Ref<Storage> from_descriptor(int fd, size_t nbytes, MapMode mode) {
  constexpr const char* op = "storage_from_fd";
  if (fd < 0) fail(Status::Invalid, op, ": fd ", fd, " is negative");
  File file(duplicate_fd(op, fd));
  const uint64_t size = file.size(op);
  if (nbytes == 0) nbytes = static_cast<size_t>(size);
  if (nbytes > size)
    fail(Status::Bounds, op, ": nbytes ", ByteCount{nbytes}, " is more than the ", size, " bytes of descriptor ",
         fd, " (nbytes 0 maps them all)");
  return map_descriptor(op, file, 0, nbytes, mode, &file);
}

int storage_fd(const Storage& s) noexcept {
  if (s.release_fn() != release_mapping) return -1;
  return static_cast<const Mapping*>(s.release_context())->fd;
}

void move_to_shared(const char* op, Storage& s) {
  if (storage_fd(s) >= 0) return;
  if (s.device().type != Device{}.type)
    fail(Status::Device, op, ": the storage's memory is not on the CPU (DLPack device type ", s.device().type, ")");
  if (s.pinned())
    fail(Status::Invalid, op,
         ": the storage's memory is exported (DLPack, Arrow, a buffer or array view) and its consumers "
         "hold its address; release those exports first");
  if (s.release_fn() == release_mapping && static_cast<const Mapping*>(s.release_context())->writes_reach_file)
    fail(Status::Unsupported, op,
         ": the storage maps a file read-write; in shared memory its writes would no longer reach the file");
  const size_t nbytes = s.nbytes();
  Ref<Storage> fresh = new_shared(nbytes);
  if (nbytes) {
    std::memcpy(fresh->data(), s.data(), nbytes);
    if (s.readonly() && mprotect(fresh->data(), nbytes, PROT_READ) != 0)
      fail(Status::IO, op, ": making the shared copy read-only: ", system_error_text(errno));
  }
  s.swap_memory(*fresh);
}  // fresh now holds the old memory and releases it

}  // namespace ctensor::core
