// Element-wise loops over a TensorIterator for the ops: 2-D blocks whose
// inputs laid out across the output's order are read in L1 tiles, and large
// dense outputs stored with streaming stores (the copy engine's staging).
// Shared by the binary ops and clamp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "engine/copy_kernels.hpp"
#include "engine/copy_simd.hpp"
#include "engine/tensor_iterator.hpp"

namespace ctensor::core {

// Tiles for inputs laid out across the output's order (a + b.t()): such an
// input's tile is first transposed into a buffer that stays in L1 (the copy
// engine's tile kernel), then the rows run as dense loops.
constexpr int64_t kTileInner = 128, kTileOuter = 64;

// Whether input k of a 2-D block (strides s along dim 0, s1 along dim 1, n1
// columns of `item`-byte elements) runs across the output's order.
inline bool runs_across(const int64_t* s, const int64_t* s1, int k, int64_t n1, int64_t item) noexcept {
  return n1 > 1 && s1[k] == item && std::llabs(s[k]) > item;
}

// The tile buffers loop_2d needs for `it` (operand 0 the output, then N - 1
// inputs of `item`-byte elements): none when no input runs across, or when
// the iterator converts an input through its buffers.
template <int N>
size_t tile_scratch(const TensorIterator& it, size_t item) noexcept {
  if (it.ndim() < 2 || it.buffered()) return 0;  // buffered: loops get 1-D blocks
  const auto t = static_cast<int64_t>(item);
  for (int k = 1; k < N; ++k)
    if (runs_across(it.strides(0), it.strides(1), k, it.size(1), t))
      return static_cast<size_t>(N * kTileInner * kTileOuter) * item;  // buffer 0: unused
  return 0;
}

// Runs a 1-D loop over a 2-D block of n0 x n1 elements (strides s along dim 0,
// s + N along dim 1; operand 0 is the output, the inputs have `item`-byte
// elements). `buffers` holds tile_scratch's bytes.
template <int N, class Loop>
void loop_2d(char** data, const int64_t* s, int64_t n0, int64_t n1, size_t item, char* buffers, Loop loop) noexcept {
  const int64_t* s1 = s + N;
  const auto t = static_cast<int64_t>(item);
  bool across[N] = {}, any = false;
  for (int k = 1; k < N; ++k) {
    across[k] = runs_across(s, s1, k, n1, t);
    any |= across[k];
  }
  char* p[N];
  if (!any) {
    for (int64_t j = 0; j < n1; ++j) {
      for (int k = 0; k < N; ++k) p[k] = data[k] + j * s1[k];
      loop(p, s, n0);
    }
    return;
  }
  const int64_t tile_bytes = kTileInner * kTileOuter * t;
  int64_t rows[N];  // dim-0 strides the loop sees: buffered inputs are dense
  std::copy(s, s + N, rows);
  for (int k = 1; k < N; ++k)
    if (across[k]) rows[k] = t;
  for (int64_t j0 = 0; j0 < n1; j0 += kTileOuter)
    for (int64_t i0 = 0; i0 < n0; i0 += kTileInner) {
      const int64_t m0 = std::min(kTileInner, n0 - i0), m1 = std::min(kTileOuter, n1 - j0);
      for (int k = 1; k < N; ++k)
        if (across[k])
          copy_tile(item, buffers + k * tile_bytes, m0 * t, t, data[k] + i0 * s[k] + j0 * t, t, s[k], m1, m0, false);
      for (int64_t j = 0; j < m1; ++j) {
        for (int k = 0; k < N; ++k)
          p[k] = across[k] ? buffers + k * tile_bytes + j * m0 * t : data[k] + i0 * s[k] + (j0 + j) * s1[k];
        loop(p, rows, m0);
      }
    }
}

// Runs shorter than this are stored normally even in a streamed output: for
// them a call to stage and store would cost more than the line reads it saves.
constexpr int64_t kStreamRunBytes = 512;

// The 1-D `loop` over n elements whose output (operand 0, dense, of
// `out_item`-byte elements) is stored with streaming stores: an add then moves
// three streams through memory instead of four, as the output's lines are not
// read in first. The caller fences.
template <int N, class Loop>
void loop_streamed(char** data, const int64_t* s, int64_t n, size_t out_item, const Loop& loop) {
  char* p[N];
  store_staged(data[0], out_item, n, [&](char* stage, int64_t j, int64_t m) {
    p[0] = stage;
    for (int k = 1; k < N; ++k) p[k] = data[k] + j * s[k];
    loop(p, s, m);
  });
}

// Runs the 1-D `loop` over every element of `it` (N operands, the inputs of
// `item` bytes, the output of `out_item`) on the pool. Outputs of
// kStreamBytes or more are streamed where their runs are dense and long
// enough, unless an input is read in tiles: the tiles' short rows, streamed,
// took 1.1x as long on one thread (Zen 1). Each thread fences once, after its
// whole share: the iterator hands a loop a few KiB at a time where it converts
// an input through its buffers, and a fence per call then cost more than the
// streaming saved.
//
// `stream_direct(p, s, n)` may store a dense output run itself with streaming
// stores straight from the inputs (a vector form that streams, as the unary
// ops' do) and return true; where it returns false the run is staged.
template <int N, class Loop, class StreamDirect>
void for_each_tiled(const TensorIterator& it, size_t item, size_t out_item, const Loop& loop,
                    const StreamDirect& stream_direct) {
  const size_t scratch = tile_scratch<N>(it, item);
  const auto r = static_cast<int64_t>(out_item);
  if (scratch > 0 || !simd::can_stream() || it.numel() * r < kStreamBytes) {
    return it.for_each(
        [&](char** data, const int64_t* strides, int64_t n0, int64_t n1, char* buffers) {
          loop_2d<N>(data, strides, n0, n1, item, buffers, loop);
        },
        scratch);
  }
  it.parallel_chunks([&](const TensorIterator& chunk) {
    chunk.serial_for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      if (strides[0] != r || n0 * r < kStreamRunBytes) return loop_2d<N>(data, strides, n0, n1, item, nullptr, loop);
      loop_2d<N>(data, strides, n0, n1, item, nullptr, [&](char** p, const int64_t* s, int64_t n) {
        if (!stream_direct(p, s, n)) loop_streamed<N>(p, s, n, out_item, loop);
      });
    });
    simd::fence();
  });
}

template <int N, class Loop>
void for_each_tiled(const TensorIterator& it, size_t item, size_t out_item, const Loop& loop) {
  for_each_tiled<N>(it, item, out_item, loop, [](char**, const int64_t*, int64_t) { return false; });
}

}  // namespace ctensor::core
