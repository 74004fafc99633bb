// The transpose kernels against a scalar transpose, with every kind of 4-byte
// register block this CPU can run (not only the one copy_tile picks for its
// vendor): cache blocks and strips, long strips, rows and columns left over,
// streaming and normal stores, 64-byte aligned, 32-byte aligned and unaligned
// destinations. Each call must write exactly the region it reports as done.
//
// With --traffic (run with CTENSOR_FORCE_COPY_KIND=traffic-<kind>), copy_tile
// and the [:, ::2] / [:, ::3] gathers of copy_run run the benchmarks' traffic
// replays: their output is garbage, but they must still report the same
// region and write nothing outside it (nor read outside the source, which the
// sanitizer builds see).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cpu.hpp"
#include "engine/copy_simd.hpp"

using namespace ctensor::core;

namespace {

int failures = 0, checked = 0;
bool traffic = false;  // --traffic: copy_tile as the environment picks it, values not checked
int replayed = 0;      // --traffic: tiles whose output was not the transpose (the replay ran)

struct Layout {
  int64_t n_outer, n_inner;  // destination rows, elements per destination row
  int64_t s_pad, d_pad;      // bytes after each source / destination row
  int64_t dst_offset;        // bytes from a 64-byte boundary
};

void run(simd::Blocks4 blocks, size_t item, const Layout& l, bool stream) {
  const auto bytes = static_cast<int64_t>(item);
  const int64_t s_inner = l.n_outer * bytes + l.s_pad, d_outer = l.n_inner * bytes + l.d_pad;
  std::vector<unsigned char> src(static_cast<size_t>(l.n_inner * s_inner));
  for (size_t k = 0; k < src.size(); ++k) src[k] = static_cast<unsigned char>(k * 131 + k / 251);
  std::vector<unsigned char> buffer(static_cast<size_t>(l.n_outer * d_outer + l.dst_offset + 64), 0xA5);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  unsigned char* dst = buffer.data() + ((64 - base % 64) % 64) + l.dst_offset;
  const std::vector<unsigned char> before = buffer;

  const simd::TileDone done =
      traffic ? simd::copy_tile(item, reinterpret_cast<char*>(dst), d_outer, bytes,
                                reinterpret_cast<const char*>(src.data()), bytes, s_inner, l.n_outer, l.n_inner, stream)
              : simd::copy_tile_with(blocks, item, reinterpret_cast<char*>(dst), d_outer, bytes,
                                     reinterpret_cast<const char*>(src.data()), bytes, s_inner, l.n_outer, l.n_inner,
                                     stream);
  simd::fence();
  ++checked;
  const int64_t step_o = 32 / bytes, step_i = 64 / bytes;
  const bool has_kernels = cpu_has_avx2();
  const int64_t want_outer = has_kernels ? l.n_outer - l.n_outer % step_o : 0;
  const int64_t want_inner = has_kernels ? l.n_inner - l.n_inner % step_i : 0;
  char what[200];
  std::snprintf(what, sizeof what, "blocks %d, %zu-byte elements, %lld x %lld, pads %lld/%lld, offset %lld, %s",
                static_cast<int>(blocks), item, static_cast<long long>(l.n_outer), static_cast<long long>(l.n_inner),
                static_cast<long long>(l.s_pad), static_cast<long long>(l.d_pad),
                static_cast<long long>(l.dst_offset), stream ? "streaming" : "normal stores");
  if ((want_outer == 0 || want_inner == 0 ? done.outer * done.inner != 0
                                          : done.outer != want_outer || done.inner != want_inner)) {
    std::fprintf(stderr, "FAILED: %s: did %lld x %lld\n", what, static_cast<long long>(done.outer),
                 static_cast<long long>(done.inner));
    ++failures;
    return;
  }
  // Inside the done region: the transpose; everywhere else: untouched.
  const int64_t lead = dst - buffer.data();
  bool differs = false;
  for (int64_t k = 0; k < static_cast<int64_t>(buffer.size()); ++k) {
    const int64_t at = k - lead;
    const int64_t o = at >= 0 ? at / d_outer : -1, within = at >= 0 ? at % d_outer : -1;
    const bool inside = o >= 0 && o < done.outer && within < done.inner * bytes;
    const unsigned char want =
        inside ? src[static_cast<size_t>((within / bytes) * s_inner + o * bytes + within % bytes)] : before[k];
    differs = differs || buffer[k] != want;
    if (buffer[k] != want && !(traffic && inside)) {
      std::fprintf(stderr, "FAILED: %s: byte %lld of row %lld is %d, expected %d\n", what,
                   static_cast<long long>(within), static_cast<long long>(o), buffer[k], want);
      ++failures;
      return;
    }
  }
  replayed += differs ? 1 : 0;
}

// The gathers' replays: n elements of 4 bytes, `stride` elements apart, into a
// destination `offset` bytes past a line; nothing past the n elements written.
void run_gather(int64_t stride, int64_t n, int64_t offset) {
  std::vector<unsigned char> src(static_cast<size_t>(4 * stride * n), 7);
  std::vector<unsigned char> buffer(static_cast<size_t>(4 * n + offset + 128), 0xA5);
  const auto base = reinterpret_cast<uintptr_t>(buffer.data());
  unsigned char* dst = buffer.data() + ((64 - base % 64) % 64) + offset;
  const std::vector<unsigned char> before = buffer;
  ++checked;
  const auto s = static_cast<long long>(stride), count = static_cast<long long>(n);
  if (!simd::copy_run(4, reinterpret_cast<char*>(dst), 4, reinterpret_cast<const char*>(src.data()), 4 * stride, n,
                      true)) {
    if (cpu_has_avx2()) {
      std::fprintf(stderr, "FAILED: gather of stride %lld not handled\n", s);
      ++failures;
    }
    return;
  }
  simd::fence();
  for (size_t k = 0; k < buffer.size(); ++k) {
    const int64_t at = static_cast<int64_t>(k) - (dst - buffer.data());
    if ((at < 0 || at >= 4 * n) && buffer[k] != before[k]) {
      std::fprintf(stderr, "FAILED: gather of stride %lld, %lld elements, offset %lld: byte %lld written\n", s,
                   count, static_cast<long long>(offset), static_cast<long long>(at));
      ++failures;
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  traffic = argc > 1 && std::strcmp(argv[1], "--traffic") == 0;
  // Cache blocks (destination rows over 1 KiB) and strips (at most 1 KiB), for
  // 4-byte elements: several cache blocks with 8 columns over whole 16 x 16
  // blocks, long strips (64 KiB of source row or more; one, or two and some
  // rows, read along the diagonal), short source rows,
  // sizes that leave rows and columns to the caller.
  const Layout layouts[] = {
      {1048, 272, 0, 0, 0},  {1048, 272, 4, 32, 32}, {40, 528, 64, 0, 0},   {43, 50, 0, 4, 4},
      {24, 256, 0, 0, 0},    {40, 48, 12, 32, 0},    {16392, 48, 0, 0, 0}, {16392, 32, 64, 32, 32},
      {16400, 80, 0, 0, 0},  {8, 16, 0, 0, 0},       {7, 100, 0, 0, 0},    {100, 15, 0, 0, 0},
  };
  std::vector<simd::Blocks4> kinds{simd::Blocks4::avx2};
  if (traffic) {
    for (const int64_t stride : {2, 3})
      for (const int64_t n : {8, 9, 17, 1000, 4099})
        for (const int64_t offset : {0, 4, 20}) run_gather(stride, n, offset);
  } else if (cpu_has_avx512()) kinds.insert(kinds.end(), {simd::Blocks4::halves512, simd::Blocks4::lines512});
  for (const size_t item : {size_t{2}, size_t{4}, size_t{8}})
    for (const simd::Blocks4 blocks : kinds) {
      if (item != 4 && blocks != simd::Blocks4::avx2) continue;  // the kinds differ for 4-byte elements only
      for (const Layout& base : layouts) {
        // the same shape in bytes of rows for 2- and 8-byte elements
        Layout l = base;
        l.n_outer = base.n_outer * 4 / static_cast<int64_t>(item);
        l.n_inner = base.n_inner * 4 / static_cast<int64_t>(item);
        for (const bool stream : {false, true}) run(blocks, item, l, stream);
      }
    }
  const char* kind = std::getenv("CTENSOR_FORCE_COPY_KIND");
  if (traffic && cpu_has_avx2() && replayed == 0) {
    std::fprintf(stderr, "FAILED: every tile was a transpose: CTENSOR_FORCE_COPY_KIND=%s ran no replay\n",
                 kind ? kind : "(unset)");
    ++failures;
  }
  if (traffic)
    std::printf("%d layouts checked (the replays of %s, %d tiles not transposed), %d failed\n", checked,
                kind ? kind : "(unset)", replayed, failures);
  else
    std::printf("%d layouts checked (%s), %d failed\n", checked,
                cpu_has_avx512() ? "AVX2 and both AVX-512 blocks" : cpu_has_avx2() ? "AVX2" : "no vector kernels",
                failures);
  return failures == 0 ? 0 : 1;
}
