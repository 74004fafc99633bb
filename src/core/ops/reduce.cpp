#include "ops/reduce.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "cpu.hpp"
#include "engine/parallel.hpp"
#include "engine/tensor_iterator.hpp"
#include "layout/shape.hpp"
#include "ops/elements.hpp"

namespace ctensor::core {

namespace {

// ---- what each reduction accumulates -------------------------------------------

template <class T>
constexpr bool kIntegerInput = std::is_integral_v<compute_t<T>>;  // bool included

template <class C>
bool is_nan(C x) noexcept {
  if constexpr (std::is_floating_point_v<C>) return x != x;
  return false;
}

// Acc: the accumulator type; Out: the result's storage type.
template <ReduceOp Op, class T>
struct Reduction {
  static constexpr ReduceOp kOp = Op;
  static constexpr bool kSumLike = Op == ReduceOp::Sum || Op == ReduceOp::Mean || Op == ReduceOp::Prod;
  using Acc = std::conditional_t<kSumLike && kIntegerInput<T>, int64_t, compute_t<T>>;
  using Out = std::conditional_t<kSumLike && kIntegerInput<T>, int64_t, T>;

  static Acc identity() noexcept {
    if constexpr (Op == ReduceOp::Prod) {
      return Acc(1);
    } else if constexpr (Op == ReduceOp::Amax || Op == ReduceOp::Amin) {
      constexpr bool max = Op == ReduceOp::Amax;
      if constexpr (std::is_same_v<Acc, bool>) return !max;
      else if constexpr (std::is_floating_point_v<Acc>)
        return max ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
      else return max ? std::numeric_limits<Acc>::lowest() : std::numeric_limits<Acc>::max();
    } else {
      return Acc{};
    }
  }

  static Acc combine(Acc a, Acc b) noexcept {
    if constexpr (Op == ReduceOp::Prod) {
      if constexpr (std::is_integral_v<Acc>) return wrapping_mul(a, b);
      else return a * b;
    } else if constexpr (Op == ReduceOp::Amax) {
      if constexpr (std::is_same_v<Acc, bool>) return a || b;
      else return is_nan(a) ? a : is_nan(b) ? b : (b > a ? b : a);
    } else if constexpr (Op == ReduceOp::Amin) {
      if constexpr (std::is_same_v<Acc, bool>) return a && b;
      else return is_nan(a) ? a : is_nan(b) ? b : (b < a ? b : a);
    } else {
      if constexpr (std::is_integral_v<Acc>) return wrapping_add(a, b);
      else return a + b;
    }
  }

  static Acc read(const char* p) noexcept { return static_cast<Acc>(read_element<T>(p)); }
};

// ---- pairwise kernels --------------------------------------------------------------

// Elements a base block reduces with kLanes independent accumulators, which the
// compiler keeps in vector registers; blocks combine pairwise, lane by lane.
// An element meets at most kBlock / kLanes roundings in its lane, one per
// pairwise level, four in the lanes' tree and one into the result: the
// (ceil(log2 n) + 32) eps bound of ctensor.h's tensor_sum.
constexpr int64_t kBlock = 512;
constexpr int kLanes = 16;
// Rows a column block reduces in one pass, as a tree, before combining pairwise.
constexpr int64_t kRowBlock = 8;
// Columns reduced together when the kept dim is the dense one.
constexpr int64_t kColumnBytes = 16384;

// Adds the n <= kBlock elements at p (stride bytes apart) into kLanes partial
// results: element i goes to lane i % kLanes.
template <class R>
inline void block(const char* p, int64_t stride, int64_t n, typename R::Acc* out) noexcept {
  using Acc = typename R::Acc;
  Acc lane[kLanes];  // local, so that the lanes live in (vector) registers
  for (int k = 0; k < kLanes; ++k) lane[k] = R::identity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
#pragma GCC unroll 16
    for (int k = 0; k < kLanes; ++k) lane[k] = R::combine(lane[k], R::read(p + (i + k) * stride));
  }
  for (int k = 0; i < n; ++i, ++k) lane[k] = R::combine(lane[k], R::read(p + i * stride));
  std::copy(lane, lane + kLanes, out);
}

#if defined(__x86_64__)
// The dense block compiled for AVX2 as well (block inlines into it), chosen at
// run time: sums read memory at the speed of a vectorised plain loop.
template <class R, class T>
__attribute__((target("avx2"))) void dense_block_avx2(const char* p, int64_t n, typename R::Acc* out) noexcept {
  block<R>(p, static_cast<int64_t>(sizeof(T)), n, out);
}
#endif

// A dense block: a constant stride, so that its loads vectorise.
template <class R, class T>
void dense_block(const char* p, int64_t n, typename R::Acc* out) noexcept {
#if defined(__x86_64__)
  if (cpu_has_avx2()) return dense_block_avx2<R, T>(p, n, out);
#endif
  block<R>(p, static_cast<int64_t>(sizeof(T)), n, out);
}

// ---- sums that read several streams ----------------------------------------------
//
// A sum reads memory faster from a few places at once than from one: the
// memory system works on several streams in parallel (on the development VM
// four streams read ~1.4x as fast as one). The blocks of a run are
// independent until they combine, so they may be reduced in any order:
// floating-point sums take up to kWideBlocks full blocks at a time (of one
// run, or of several short runs), reduce them kStreams at a time, one block
// from each part of the list, and then combine them as the pairwise tree does.
// Each block's lanes see the same additions in the same order as in block():
// the same bits.

// Sums whose lanes vectors can hold: floating-point accumulators read from
// their own type, combined by IEEE addition (vectors add lane by lane).
template <class R, class T>
constexpr bool kVectorSum = (R::kOp == ReduceOp::Sum || R::kOp == ReduceOp::Mean) &&
                            std::is_floating_point_v<typename R::Acc> && std::is_same_v<T, typename R::Acc>;

constexpr int kWideBlocks = 32;
constexpr int64_t kWideElements = kWideBlocks * kBlock;

// A block's lanes as vectors.
template <class Acc>
struct VectorLanes {
  typedef Acc Vec __attribute__((vector_size(32)));
  static constexpr int kWidth = static_cast<int>(sizeof(Vec) / sizeof(Acc));
  static constexpr int kRegs = kLanes / kWidth;  // vectors per block
  static constexpr int kStreams = 8 / kRegs;     // blocks at once: 8 vectors of accumulators
};

// The lanes of the K full blocks at p[0..K) into out[0..K). (Always inlined,
// as stream_blocks: their AVX2 clone must get AVX2 code.)
template <int K, class Acc>
[[gnu::always_inline]] inline void full_blocks(const char* const* p, Acc* const* out) noexcept {
  using L = VectorLanes<Acc>;
  using Vec = typename L::Vec;
  constexpr auto t = static_cast<int64_t>(sizeof(Acc));
  Vec acc[K][L::kRegs] = {};  // the identity, +0
  for (int64_t i = 0; i < kBlock; i += kLanes)
    for (int b = 0; b < K; ++b)
      for (int r = 0; r < L::kRegs; ++r) {
        Vec x;
        std::memcpy(&x, p[b] + (i + r * L::kWidth) * t, sizeof x);
        acc[b][r] += x;
      }
  for (int b = 0; b < K; ++b) std::memcpy(out[b], acc[b], sizeof acc[b]);
}

// The lanes of `count` <= kWideBlocks full blocks: block j starts at first[j],
// its lanes go to out[j]. The list is cut into kStreams parts read side by side.
template <class Acc>
[[gnu::always_inline]] inline void stream_blocks(const char* const* first, Acc* const* out, int count) noexcept {
  constexpr int K = VectorLanes<Acc>::kStreams;
  int begin[K + 1];
  for (int s = 0; s <= K; ++s) begin[s] = s * count / K;
  const int rounds = count / K;  // every part has at least this many blocks
  for (int j = 0; j < rounds; ++j) {
    const char* p[K];
    Acc* o[K];
    for (int s = 0; s < K; ++s) {
      p[s] = first[begin[s] + j];
      o[s] = out[begin[s] + j];
    }
    full_blocks<K>(p, o);
  }
  for (int s = 0; s < K; ++s)
    for (int j = begin[s] + rounds; j < begin[s + 1]; ++j) full_blocks<1>(first + j, out + j);
}

#if defined(__x86_64__)
template <class Acc>
__attribute__((target("avx2"))) void stream_blocks_avx2(const char* const* first, Acc* const* out,
                                                        int count) noexcept {
  stream_blocks<Acc>(first, out, count);
}
#endif

template <class Acc>
void read_blocks(const char* const* first, Acc* const* out, int count) noexcept {
#if defined(__x86_64__)
  if (cpu_has_avx2()) return stream_blocks_avx2<Acc>(first, out, count);
#endif
  stream_blocks<Acc>(first, out, count);
}

// Column sums out[w] over kRowBlock rows (s_row bytes apart) of w dense
// elements: one pass, each column summed as a tree.
template <class R, class T>
inline void row_block_generic(const char* p, int64_t s_row, int64_t w, typename R::Acc* out) noexcept {
  static_assert(kRowBlock == 8, "the tree below adds 8 rows");
  constexpr auto t = static_cast<int64_t>(sizeof(T));
  const char* q[kRowBlock];
  for (int64_t r = 0; r < kRowBlock; ++r) q[r] = p + r * s_row;
  for (int64_t c = 0; c < w; ++c) {
    const int64_t o = c * t;
    out[c] = R::combine(R::combine(R::combine(R::read(q[0] + o), R::read(q[1] + o)),
                                   R::combine(R::read(q[2] + o), R::read(q[3] + o))),
                        R::combine(R::combine(R::read(q[4] + o), R::read(q[5] + o)),
                                   R::combine(R::read(q[6] + o), R::read(q[7] + o))));
  }
}

#if defined(__x86_64__)
template <class R, class T>
__attribute__((target("avx2"))) void row_block_avx2(const char* p, int64_t s_row, int64_t w,
                                                    typename R::Acc* out) noexcept {
  row_block_generic<R, T>(p, s_row, w, out);
}
#endif

template <class R, class T>
void row_block(const char* p, int64_t s_row, int64_t w, typename R::Acc* out) noexcept {
#if defined(__x86_64__)
  if (cpu_has_avx2()) return row_block_avx2<R, T>(p, s_row, w, out);
#endif
  row_block_generic<R, T>(p, s_row, w, out);
}

// out[k] = out[k] (+) right[k] for every lane.
template <class R>
void combine_lanes(typename R::Acc* out, const typename R::Acc* right) noexcept {
  for (int k = 0; k < kLanes; ++k) out[k] = R::combine(out[k], right[k]);
}

// Where a run of n > kBlock elements splits: a whole number of blocks first.
constexpr int64_t block_half(int64_t n) noexcept { return (n / 2 + kBlock - 1) / kBlock * kBlock; }

// The lanes of a run of n elements whose blocks' lanes are leaf[0], leaf[1],
// ...: blocks combined pairwise, lane by lane, as run_lanes combines them.
template <class R>
void tree_lanes(typename R::Acc (*leaf)[kLanes], int64_t n, typename R::Acc* out) noexcept {
  if (n <= kBlock) {
    std::copy(leaf[0], leaf[0] + kLanes, out);
    return;
  }
  const int64_t half = block_half(n);
  typename R::Acc right[kLanes];
  tree_lanes<R>(leaf, half, out);
  tree_lanes<R>(leaf + half / kBlock, n - half, right);
  combine_lanes<R>(out, right);
}

// The runs of n0 <= kWideElements dense elements at p + j * s1, j in [0, n1),
// reduced into done(j, lanes of run j) (lanes it may change): their full
// blocks read as streams, up to kWideBlocks at a time.
template <class R, class T, class Done>
void short_runs(const char* p, int64_t n0, int64_t s1, int64_t n1, const Done& done) noexcept {
  using Acc = typename R::Acc;
  constexpr auto t = static_cast<int64_t>(sizeof(T));
  const int full = static_cast<int>(n0 / kBlock);
  const int leaves = static_cast<int>((n0 + kBlock - 1) / kBlock);
  const int64_t group = std::max(kWideBlocks / std::max(full, 1), 1);  // runs read together
  Acc leaf[kWideBlocks + kWideBlocks][kLanes];  // a group's leaves, run after run
  const char* first[kWideBlocks];
  Acc* out[kWideBlocks];
  for (int64_t j0 = 0; j0 < n1; j0 += group) {
    const int64_t runs = std::min(group, n1 - j0);
    int count = 0;
    for (int64_t j = 0; j < runs; ++j)
      for (int b = 0; b < full; ++b, ++count) {
        first[count] = p + (j0 + j) * s1 + b * kBlock * t;
        out[count] = leaf[j * leaves + b];
      }
    read_blocks<Acc>(first, out, count);
    for (int64_t j = 0; j < runs; ++j) {
      const char* run = p + (j0 + j) * s1;
      if (leaves > full) dense_block<R, T>(run + full * kBlock * t, n0 - full * kBlock, leaf[j * leaves + full]);
      Acc lanes[kLanes];
      tree_lanes<R>(leaf + j * leaves, n0, lanes);
      done(j0 + j, lanes);
    }
  }
}

// The lanes of a run of n elements: blocks combined pairwise, lane by lane.
template <class R, class T>
void run_lanes(const char* p, int64_t stride, int64_t n, typename R::Acc* out) noexcept {
  constexpr auto t = static_cast<int64_t>(sizeof(T));
  if (n <= kBlock) return stride == t ? dense_block<R, T>(p, n, out) : block<R>(p, stride, n, out);
  if constexpr (kVectorSum<R, T>)
    if (stride == t && n <= kWideElements)
      return short_runs<R, T>(p, n, 0, 1, [&](int64_t, typename R::Acc* lanes) {
        std::copy(lanes, lanes + kLanes, out);
      });
  const int64_t half = block_half(n);
  typename R::Acc right[kLanes];
  run_lanes<R, T>(p, stride, half, out);
  run_lanes<R, T>(p + half * stride, stride, n - half, right);
  combine_lanes<R>(out, right);
}

// The lanes combined pairwise into one result.
template <class R>
typename R::Acc fold_lanes(typename R::Acc* lane) noexcept {
  for (int width = kLanes / 2; width > 0; width /= 2)
    for (int k = 0; k < width; ++k) lane[k] = R::combine(lane[k], lane[k + width]);
  return lane[0];
}

// A run of n elements reduced: pairwise over blocks, then over the lanes.
template <class R, class T>
typename R::Acc run(const char* p, int64_t stride, int64_t n) noexcept {
  typename R::Acc lane[kLanes];
  run_lanes<R, T>(p, stride, n, lane);
  return fold_lanes<R>(lane);
}

// Runs j in [lo, hi) of dim 1, each a run along dim 0, combined pairwise.
template <class R, class T>
typename R::Acc runs(const char* p, int64_t s0, int64_t n0, int64_t s1, int64_t lo, int64_t hi) noexcept {
  if (hi - lo == 1) return run<R, T>(p + lo * s1, s0, n0);
  const int64_t mid = lo + (hi - lo) / 2;
  return R::combine(runs<R, T>(p, s0, n0, s1, lo, mid), runs<R, T>(p, s0, n0, s1, mid, hi));
}

// ---- threads ----------------------------------------------------------------------

// A reduction into one element is cut along its own pairwise tree into pieces
// (the subtrees kPieceDepth levels down, or smaller ones where the tree stops
// splitting sooner), which threads reduce independently; the pieces' results
// then combine as the tree combines them on one thread. A subtree reduced on
// its own is the same recursion as inside the whole, so every thread count
// gives the same result, bit for bit, and the same error bound.
constexpr int kPieceDepth = 6;
// At most 64 pieces: their results fit on the stack (nothing is allocated, so
// the split cannot fail), and up to 16 threads still get 4 pieces each.
constexpr size_t kMaxPieces = size_t{1} << kPieceDepth;
// Input bytes per thread below which a reduction stays on the calling thread.
constexpr int64_t kBytesPerThread = int64_t{1} << 21;

int32_t threads_for(int64_t bytes) noexcept {
  return static_cast<int32_t>(std::min<int64_t>(num_threads(), bytes / kBytesPerThread + 1));
}

// The pairwise tree over [0, n) that splits `count` > base items at
// half(count), reduced by leaf(first, count) on its pieces (on up to `threads`
// threads) and combine(left, right) above them.
template <class V, class Half, class Leaf, class Combine>
V parallel_tree(int64_t n, int64_t base, int32_t threads, const Half& half, const Leaf& leaf,
                const Combine& combine) noexcept {
  const auto is_piece = [&](int64_t count, int depth) { return count <= base || depth == kPieceDepth; };
  struct Piece {
    int64_t first, count;
  };
  std::array<Piece, kMaxPieces> pieces;
  size_t npieces = 0;
  const auto cut = [&](const auto& self, int64_t first, int64_t count, int depth) -> void {
    if (is_piece(count, depth)) {
      pieces[npieces++] = {first, count};
      return;
    }
    const int64_t h = half(count);
    self(self, first, h, depth + 1);
    self(self, first + h, count - h, depth + 1);
  };
  cut(cut, 0, n, 0);
  std::array<V, kMaxPieces> value;
  std::atomic<size_t> claimed{0};  // pieces go to whichever thread is free
  parallel_run(static_cast<int32_t>(std::min<size_t>(static_cast<size_t>(threads), npieces)), [&](int32_t) {
    for (size_t i; (i = claimed.fetch_add(1, std::memory_order_relaxed)) < npieces;)
      value[i] = leaf(pieces[i].first, pieces[i].count);
  });
  size_t next = 0;  // the pieces' results, in the tree's order
  const auto tree = [&](const auto& self, int64_t count, int depth) -> V {
    if (is_piece(count, depth)) return value[next++];
    const int64_t h = half(count);
    V left = self(self, h, depth + 1);
    return combine(left, self(self, count - h, depth + 1));
  };
  return tree(tree, n, 0);
}

// Everything in the n0 x n1 elements at p (s0, s1 bytes apart) reduced into
// one: as runs(), on the pool when the work is large.
template <class R, class T>
typename R::Acc reduce_all(const char* p, int64_t s0, int64_t n0, int64_t s1, int64_t n1) noexcept {
  const int32_t threads = threads_for(n0 * n1 * static_cast<int64_t>(sizeof(T)));
  if (threads <= 1) return runs<R, T>(p, s0, n0, s1, 0, n1);
  if (n1 == 1) {
    using Lanes = std::array<typename R::Acc, kLanes>;
    const auto leaf = [&](int64_t first, int64_t count) {
      Lanes lanes;
      run_lanes<R, T>(p + first * s0, s0, count, lanes.data());
      return lanes;
    };
    const auto combine = [](Lanes left, const Lanes& right) {
      combine_lanes<R>(left.data(), right.data());
      return left;
    };
    Lanes lanes = parallel_tree<Lanes>(n0, kBlock, threads, block_half, leaf, combine);
    return fold_lanes<R>(lanes.data());
  }
  const auto half = [](int64_t count) { return count / 2; };
  const auto leaf = [&](int64_t first, int64_t count) { return runs<R, T>(p, s0, n0, s1, first, first + count); };
  return parallel_tree<typename R::Acc>(n1, 1, threads, half, leaf, R::combine);
}

// Column sums out[w] over `rows` rows (s_row bytes apart) of w columns of dense
// elements: rows in blocks of kRowBlock, blocks combined pairwise. `scratch`
// holds one row of partial results per level of the recursion.
template <class R, class T>
void column_block(const char* p, int64_t s_row, int64_t rows, int64_t w, typename R::Acc* out,
                  typename R::Acc* scratch) noexcept {
  constexpr auto t = static_cast<int64_t>(sizeof(T));
  if (rows == kRowBlock) return row_block<R, T>(p, s_row, w, out);
  if (rows < kRowBlock) {
    for (int64_t c = 0; c < w; ++c) out[c] = R::read(p + c * t);
    for (int64_t r = 1; r < rows; ++r)
      for (int64_t c = 0; c < w; ++c) out[c] = R::combine(out[c], R::read(p + r * s_row + c * t));
    return;
  }
  const int64_t half = (rows / 2 + kRowBlock - 1) / kRowBlock * kRowBlock;
  column_block<R, T>(p, s_row, half, w, out, scratch);
  column_block<R, T>(p + half * s_row, s_row, rows - half, w, scratch, scratch + w);
  for (int64_t c = 0; c < w; ++c) out[c] = R::combine(out[c], scratch[c]);
}

int levels(int64_t rows) noexcept {
  int n = 1;
  for (; rows > kRowBlock; rows = (rows / 2 + kRowBlock - 1) / kRowBlock * kRowBlock) ++n;
  return n + 1;
}

// Columns a column block reduces at once, of n1.
template <class Acc>
int64_t column_width(int64_t n1) noexcept {
  return std::clamp<int64_t>(kColumnBytes / static_cast<int64_t>(sizeof(Acc)), 1, std::max<int64_t>(n1, 1));
}

// The accumulators column_block needs for n0 rows of up to n1 columns: the
// result row and one per level of its recursion.
template <class Acc>
int64_t column_scratch(int64_t n0, int64_t n1) noexcept {
  return column_width<Acc>(n1) * (levels(n0) + 1);
}

// The 2-D loop over (accumulator, input): dims 0 and 1 of the iterator;
// `scratch` holds column_scratch(n0, n1) accumulators when the input is dense
// along a kept dim 1 (the iterator's column case).
template <class R, class T>
void reduce_loop(char** data, const int64_t* s, int64_t n0, int64_t n1, typename R::Acc* scratch) noexcept {
  using Acc = typename R::Acc;
  constexpr auto t = static_cast<int64_t>(sizeof(T)), a = static_cast<int64_t>(sizeof(Acc));
  const int64_t so0 = s[0], si0 = s[1], so1 = s[2], si1 = s[3];
  char* acc = data[0];
  const char* in = data[1];
  const auto update = [](char* p, Acc v) {
    Acc x;
    std::memcpy(&x, p, sizeof x);
    x = R::combine(x, v);
    std::memcpy(p, &x, sizeof x);
  };
  if (so0 != 0) {  // nothing reduced here (only size-1 dims were)
    for (int64_t j = 0; j < n1; ++j)
      for (int64_t i = 0; i < n0; ++i) update(acc + i * so0 + j * so1, R::read(in + i * si0 + j * si1));
  } else if (so1 == 0) {  // everything here reduces into one element
    update(acc, reduce_all<R, T>(in, si0, n0, si1, n1));
  } else if (si1 == t && so1 == a) {  // dense along the kept dim: reduce whole rows of columns
    const int64_t width = column_width<Acc>(n1);
    for (int64_t c0 = 0; c0 < n1; c0 += width) {
      const int64_t w = std::min(width, n1 - c0);
      column_block<R, T>(in + c0 * t, si0, n0, w, scratch, scratch + width);
      for (int64_t c = 0; c < w; ++c) update(acc + (c0 + c) * a, scratch[c]);
    }
  } else {
    if constexpr (kVectorSum<R, T>)
      if (si0 == t && n0 > kBlock && n0 <= kWideElements)  // several rows' blocks read side by side
        return short_runs<R, T>(in, n0, si1, n1,
                                [&](int64_t j, Acc* lanes) { update(acc + j * so1, fold_lanes<R>(lanes)); });
    for (int64_t j = 0; j < n1; ++j) update(acc + j * so1, run<R, T>(in + j * si1, si0, n0));
  }
}

// ---- driver ----------------------------------------------------------------------

DType result_dtype(ReduceOp op, DType input) {
  const DTypeKind c = category(input);
  switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Prod: return c <= DTypeKind::Int ? dtype::Int64 : input;
    case ReduceOp::Mean:
      if (c <= DTypeKind::Int)
        fail(Status::DType, "mean: could not infer output dtype: the input dtype must be a floating point or complex "
                            "dtype, got ", dtype_name(input));
      return input;
    default:
      if (c == DTypeKind::Complex) fail(Status::DType, reduce_op_name(op), ": not implemented for complex tensors");
      return input;
  }
}

template <ReduceOp Op, class T>
Ref<Tensor> reduce_typed(const Tensor& t, const bool* reduced, bool keepdim, DType out_dtype) {
  using R = Reduction<Op, T>;
  using Acc = typename R::Acc;
  const char* name = reduce_op_name(Op);
  const int64_t nd = t.ndim();
  int64_t kept_shape[kMaxDims], out_shape[kMaxDims], acc_strides[kMaxDims];
  int64_t out_nd = 0, count = 1;
  for (int64_t i = 0; i < nd; ++i) {
    kept_shape[i] = reduced[i] ? 1 : t.size(i);
    if (reduced[i]) count *= t.size(i);
    if (!reduced[i] || keepdim) out_shape[out_nd++] = kept_shape[i];
  }
  if (t.numel() == 0) count = 0;  // count is only used for the mean
  contiguous_strides(nd, kept_shape, acc_strides);
  const int64_t out_numel = checked_numel(name, nd, kept_shape);
  const auto acc = std::make_unique<Acc[]>(static_cast<size_t>(out_numel));
  std::fill(acc.get(), acc.get() + out_numel, R::identity());
  if (t.numel() > 0) {
    const TensorIterator it = TensorIteratorConfig()
                                  .add_output(reinterpret_cast<char*>(acc.get()), nd, kept_shape, acc_strides, sizeof(Acc))
                                  .add_input(t)
                                  .allow_reduction()
                                  .build(name);
    const bool columns = it.ndim() > 1 && it.stride(0, 0) == 0 && it.stride(0, 1) == static_cast<int64_t>(sizeof(Acc)) &&
                         it.stride(1, 1) == static_cast<int64_t>(sizeof(T));
    const int64_t scratch = columns ? column_scratch<Acc>(it.size(0), it.size(1)) : 0;
    Split split;  // a thread per kBytesPerThread of input (the iterator counts accumulators)
    split.min_bytes = kBytesPerThread * static_cast<int64_t>(sizeof(Acc)) / static_cast<int64_t>(sizeof(T));
    it.for_each(
        [](char** data, const int64_t* strides, int64_t n0, int64_t n1, char* scratch_bytes) {
          reduce_loop<R, T>(data, strides, n0, n1, reinterpret_cast<Acc*>(scratch_bytes));
        },
        static_cast<size_t>(scratch) * sizeof(Acc), split);
  }
  Ref<Tensor> out = Tensor::allocate(name, out_dtype, out_nd, out_shape, false);
  using Out = typename R::Out;
  char* dst = out->data();
  for (int64_t i = 0; i < out_numel; ++i) {
    compute_t<Out> v;
    if constexpr (Op == ReduceOp::Mean) v = acc[i] / static_cast<Acc>(count);
    else v = static_cast<compute_t<Out>>(acc[i]);
    write_element<Out>(dst + i * static_cast<int64_t>(sizeof(Out)), v);
  }
  return out;
}

template <ReduceOp Op>
Ref<Tensor> reduce_op(const Tensor& t, const bool* reduced, bool keepdim, DType out_dtype) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr bool supported = Op == ReduceOp::Mean ? !kIntegerInput<T>
                               : (Op == ReduceOp::Amax || Op == ReduceOp::Amin) ? !is_complex<T>::value
                                                                                 : true;
    if constexpr (supported) return reduce_typed<Op, T>(t, reduced, keepdim, out_dtype);
    else return Ref<Tensor>();  // refused by result_dtype
  });
}

}  // namespace

const char* reduce_op_name(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Mean: return "mean";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Amax: return "amax";
    default: return "amin";
  }
}

Ref<Tensor> reduce(ReduceOp op, const Tensor& t, int64_t ndims, const int64_t* dims, bool keepdim) {
  const char* name = reduce_op_name(op);
  if (ndims < 0 || ndims > kMaxDims) fail(Status::Invalid, name, ": ndims is ", ndims, ", expected 0 to ", kMaxDims);
  if (ndims > 0 && !dims) fail(Status::Invalid, name, ": dims is NULL with ndims ", ndims);
  const int64_t nd = t.ndim();
  bool reduced[kMaxDims] = {};
  bool seen[kMaxDims] = {};
  for (int64_t i = 0; i < ndims; ++i) {
    const int64_t d = wrap_dim(name, dims[i], nd);
    if (seen[d]) fail(Status::Invalid, name, ": dim ", d, " appears multiple times in the list of dims");
    seen[d] = reduced[d] = true;
  }
  if (ndims == 0) std::fill(reduced, reduced + nd, true);
  const DType out_dtype = result_dtype(op, t.dtype());
  if (op == ReduceOp::Amax || op == ReduceOp::Amin) {
    if (t.numel() == 0 && ndims == 0)
      fail(Status::Shape, name, ": an empty tensor has no ", op == ReduceOp::Amax ? "maximum" : "minimum",
           " (specify dims that are not empty)");
    for (int64_t i = 0; i < nd; ++i)
      if (reduced[i] && t.size(i) == 0)
        fail(Status::Shape, name, ": reduction dim ", i, " has size 0 (an empty reduction has no ",
             op == ReduceOp::Amax ? "maximum" : "minimum", ")");
  }
  t.require_readable(name);
  switch (op) {
    case ReduceOp::Sum: return reduce_op<ReduceOp::Sum>(t, reduced, keepdim, out_dtype);
    case ReduceOp::Mean: return reduce_op<ReduceOp::Mean>(t, reduced, keepdim, out_dtype);
    case ReduceOp::Prod: return reduce_op<ReduceOp::Prod>(t, reduced, keepdim, out_dtype);
    case ReduceOp::Amax: return reduce_op<ReduceOp::Amax>(t, reduced, keepdim, out_dtype);
    default: return reduce_op<ReduceOp::Amin>(t, reduced, keepdim, out_dtype);
  }
}

}  // namespace ctensor::core
