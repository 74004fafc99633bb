#include "memory/allocator.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

#include "error.hpp"

namespace ctensor::core {

namespace {

constexpr size_t kAlignment = 64;
constexpr size_t kLargeBlock = size_t{1} << 20;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kDefaultCacheBytes = size_t{1} << 30;

size_t mapped_size(size_t nbytes) { return (nbytes + kHugePage - 1) / kHugePage * kHugePage; }

// A fresh mapping of `size` bytes (a multiple of kHugePage) on a huge-page
// boundary: over-map by one huge page and unmap the unaligned ends.
void* map_block(size_t size) {
  void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + size + kHugePage;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);  // advice only: failure just means small pages
#endif
  return p;
}

#ifdef CTENSOR_NO_CACHES
// Sanitizer and allocation-failure builds: every block is unmapped when freed.
size_t cache_limit_from_env() { return 0; }
#else
size_t cache_limit_from_env() {
  const char* env = std::getenv("CTENSOR_ALLOC_CACHE_BYTES");
  if (!env || !*env) return kDefaultCacheBytes;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(env, &end, 10);
  return *end == '\0' ? static_cast<size_t>(v) : kDefaultCacheBytes;
}
#endif

// Freed large blocks, oldest first, holding at most `limit_` bytes and
// kMaxBlocks blocks. Fixed storage: giving back memory never allocates.
class BlockCache {
 public:
  // A cached block of exactly `size` mapped bytes (the most recently freed), or nullptr.
  void* take(size_t size) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = count_; i-- > 0;) {
      if (blocks_[i].size != size) continue;
      void* p = blocks_[i].ptr;
      bytes_ -= size;
      std::copy(blocks_ + i + 1, blocks_ + count_, blocks_ + i);
      --count_;
      return p;
    }
    return nullptr;
  }

  // Keeps the block, unmapping the oldest ones (or this one, if it alone is
  // over the limit) to stay within the bounds.
  void give(void* p, size_t size) noexcept {
    Block evicted[kMaxBlocks + 1];
    size_t n_evicted = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (size > limit_) {
        evicted[n_evicted++] = {p, size};
      } else {
        size_t drop = count_ == kMaxBlocks ? 1 : 0;
        size_t kept = bytes_ + size;
        for (size_t i = 0; i < drop; ++i) kept -= blocks_[i].size;
        while (kept > limit_) kept -= blocks_[drop++].size;
        std::copy(blocks_, blocks_ + drop, evicted);
        n_evicted = drop;
        std::copy(blocks_ + drop, blocks_ + count_, blocks_);
        count_ -= drop;
        blocks_[count_++] = {p, size};
        bytes_ = kept;
      }
    }
    for (size_t i = 0; i < n_evicted; ++i) munmap(evicted[i].ptr, evicted[i].size);  // slow: unlocked
  }

 private:
  static constexpr size_t kMaxBlocks = 64;
  struct Block {
    void* ptr;
    size_t size;
  };
  std::mutex mutex_;
  Block blocks_[kMaxBlocks];
  size_t count_ = 0;
  size_t bytes_ = 0;
  const size_t limit_ = cache_limit_from_env();
};

// Never destroyed: storages may still be freed while the program exits. Built
// in static storage, not on the heap, so a host's leak checker sees no block.
BlockCache& cache() {
  alignas(BlockCache) static unsigned char place[sizeof(BlockCache)];
  static BlockCache* c = ::new (place) BlockCache;
  return *c;
}

}  // namespace

void* allocate_bytes(size_t nbytes, bool zeroed) {
  if (nbytes < kLargeBlock) {
    void* p = nullptr;
    if (posix_memalign(&p, kAlignment, nbytes ? nbytes : kAlignment) != 0)
      fail(Status::NoMem, "cannot allocate ", ByteCount{nbytes}, " bytes");
    if (zeroed) std::memset(p, 0, nbytes);
    return p;
  }
  const size_t size = mapped_size(nbytes);
  if (size < nbytes || size + kHugePage < size) fail(Status::NoMem, "cannot allocate ", ByteCount{nbytes}, " bytes");
  if (void* p = cache().take(size)) {
    if (zeroed) std::memset(p, 0, nbytes);
    return p;
  }
  void* p = map_block(size);  // fresh anonymous memory is already zero
  if (!p) fail(Status::NoMem, "cannot allocate ", nbytes, " bytes (", std::strerror(errno), ")");
  return p;
}

void free_bytes(void* p, size_t nbytes) noexcept {
  if (nbytes < kLargeBlock) return std::free(p);
  cache().give(p, mapped_size(nbytes));
}

}  // namespace ctensor::core
