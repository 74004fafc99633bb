/* See failalloc.h. The real allocator is glibc's __libc_* entry points (which
   never call back into these), mmap is the raw system call. */
/* Both mmap and mmap64 are defined below, so the headers must not rename one. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "failalloc.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

enum { kMaxTracked = 8192, kMaxMappings = 256 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int armed;
static long fail_at, counted;
static int fired, overflowed;
static void *blocks[kMaxTracked];
static long n_blocks;
static struct {
  uintptr_t start, end;
} mappings[kMaxMappings];
static long n_mappings;

void failalloc_arm_more(long n) {
  pthread_mutex_lock(&lock);
  armed = 1;
  fail_at = n;
  counted = 0;
  fired = 0;
  pthread_mutex_unlock(&lock);
}

void failalloc_forget(void) {
  pthread_mutex_lock(&lock);
  overflowed = 0;
  n_blocks = n_mappings = 0;
  pthread_mutex_unlock(&lock);
}

void failalloc_arm(long n) {
  failalloc_forget();
  failalloc_arm_more(n);
}

long failalloc_disarm(void) {
  pthread_mutex_lock(&lock);
  armed = 0;
  long n = counted;
  pthread_mutex_unlock(&lock);
  return n;
}

int failalloc_fired(void) {
  pthread_mutex_lock(&lock);
  int f = fired;
  pthread_mutex_unlock(&lock);
  return f;
}

long failalloc_live_blocks(void) {
  pthread_mutex_lock(&lock);
  long n = overflowed ? -1 : n_blocks;
  pthread_mutex_unlock(&lock);
  return n;
}

long failalloc_live_mapped_bytes(void) {
  pthread_mutex_lock(&lock);
  long bytes = 0;
  for (long i = 0; i < n_mappings; ++i) bytes += (long)(mappings[i].end - mappings[i].start);
  if (overflowed) bytes = -1;
  pthread_mutex_unlock(&lock);
  return bytes;
}

/* Counts one allocation; 1 if it is the one that must fail. */
static int should_fail(void) {
  pthread_mutex_lock(&lock);
  int fail = 0;
  if (armed && ++counted == fail_at) fail = fired = 1;
  pthread_mutex_unlock(&lock);
  if (fail) errno = ENOMEM;
  return fail;
}

static void *track(void *p) {
  if (!p) return p;
  pthread_mutex_lock(&lock);
  if (armed) {
    if (n_blocks < kMaxTracked)
      blocks[n_blocks++] = p;
    else
      overflowed = 1;
  }
  pthread_mutex_unlock(&lock);
  return p;
}

static void untrack(void *p) {
  if (!p) return;
  pthread_mutex_lock(&lock);
  for (long i = n_blocks; i-- > 0;) {
    if (blocks[i] == p) {
      blocks[i] = blocks[--n_blocks];
      break;
    }
  }
  pthread_mutex_unlock(&lock);
}

void *malloc(size_t n) { return should_fail() ? NULL : track(__libc_malloc(n)); }

void *calloc(size_t n, size_t size) { return should_fail() ? NULL : track(__libc_calloc(n, size)); }

void *realloc(void *p, size_t n) {
  if (!p) return malloc(n);
  if (n == 0) {
    untrack(p);
    return __libc_realloc(p, 0);
  }
  if (should_fail()) return NULL;
  void *q = __libc_realloc(p, n);
  if (q) {
    untrack(p);
    track(q);
  }
  return q;
}

void free(void *p) {
  untrack(p);
  __libc_free(p);
}

void *memalign(size_t alignment, size_t n) {
  return should_fail() ? NULL : track(__libc_memalign(alignment, n));
}

void *aligned_alloc(size_t alignment, size_t n) { return memalign(alignment, n); }

int posix_memalign(void **out, size_t alignment, size_t n) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void *p = memalign(alignment, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

void *valloc(size_t n) { return memalign((size_t)sysconf(_SC_PAGESIZE), n); }

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  if (should_fail()) return MAP_FAILED;
  long r = syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
  if (r < 0 && r > -4096) {
    errno = (int)-r;
    return MAP_FAILED;
  }
  void *p = (void *)r;
  pthread_mutex_lock(&lock);
  if (armed) {
    if (n_mappings < kMaxMappings) {
      mappings[n_mappings].start = (uintptr_t)p;
      mappings[n_mappings].end = (uintptr_t)p + len;
      ++n_mappings;
    } else {
      overflowed = 1;
    }
  }
  pthread_mutex_unlock(&lock);
  return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t offset) {
  return mmap(addr, len, prot, flags, fd, offset);
}

/* Unmapping part of a tracked mapping trims it; the middle splits it in two. */
int munmap(void *addr, size_t len) {
  const uintptr_t lo = (uintptr_t)addr, hi = lo + len;
  pthread_mutex_lock(&lock);
  for (long i = n_mappings; i-- > 0;) {
    const uintptr_t s = mappings[i].start, e = mappings[i].end;
    if (hi <= s || lo >= e) continue;
    if (lo <= s && hi >= e) {
      mappings[i] = mappings[--n_mappings];
    } else if (lo <= s) {
      mappings[i].start = hi;
    } else if (hi >= e) {
      mappings[i].end = lo;
    } else if (n_mappings < kMaxMappings) {
      mappings[i].end = lo;
      mappings[n_mappings].start = hi;
      mappings[n_mappings].end = e;
      ++n_mappings;
    } else {
      overflowed = 1;
    }
  }
  pthread_mutex_unlock(&lock);
  long r = syscall(SYS_munmap, addr, len);
  if (r < 0) {
    errno = (int)-r;
    return -1;
  }
  return 0;
}
