// Advanced indexing in two steps: the index tensors become one byte offset
// into t per broadcast position (checked and wrapped once), then every
// position's block (t's elements along the dims no index tensor names) moves
// between t and the result. Blocks of one element or a few rows move in the
// loops here; large blocks go through the copy engine. Serial moves take the
// positions in tiles whose offsets stay in L1 (a put checks every index in a
// first pass, before any write); when the index tensors' dims sit inside the
// result (dims before them reuse each offset) or threads split a gather, every
// offset is computed first.
#include "ops/gather.hpp"

#include <algorithm>
#include <type_traits>

#include "dtype/dispatch.hpp"
#include "engine/copy.hpp"
#include "engine/copy_exec.hpp"
#include "engine/copy_kernels.hpp"
#include "engine/parallel.hpp"
#include "engine/tensor_iterator.hpp"
#include "layout/overlap.hpp"
#include "layout/shape.hpp"
#include "memory/unaligned.hpp"

namespace ctensor::core {

namespace {

// From this many bytes on, a block is moved by the copy engine (tiling,
// vector kernels, threads), whose per-call set-up is then negligible.
constexpr int64_t kEngineBlockBytes = int64_t{32} << 10;
// A gather of at least this many bytes per thread is split over the pool.
constexpr int64_t kParallelBytes = int64_t{1} << 21;
// Positions per tile of offsets (16 KiB of them).
constexpr int64_t kTile = 2048;

// Some result dims, in C order, with byte strides on t's side and on the
// result's (the gathered tensor, or the values put).
struct Dims {
  int64_t ndim = 0;
  int64_t size[kMaxDims];
  int64_t t[kMaxDims];
  int64_t r[kMaxDims];

  void add(int64_t s, int64_t t_stride, int64_t r_stride) noexcept {
    size[ndim] = s;
    t[ndim] = t_stride;
    r[ndim++] = r_stride;
  }
  // Drops size-1 dims and merges neighbours that continue each other on both sides.
  void merge() noexcept {
    int64_t kept = 0;
    for (int64_t i = 0; i < ndim; ++i) {
      if (size[i] == 1) continue;
      if (kept > 0 && t[kept - 1] == t[i] * size[i] && r[kept - 1] == r[i] * size[i]) {
        size[kept - 1] *= size[i];
        t[kept - 1] = t[i];
        r[kept - 1] = r[i];
        continue;
      }
      size[kept] = size[i];
      t[kept] = t[i];
      r[kept++] = r[i];
    }
    ndim = kept;
  }
  int64_t numel() const noexcept {
    int64_t n = 1;
    for (int64_t i = 0; i < ndim; ++i) n *= size[i];
    return n;
  }
};

// A C-order walk over the first `ndim` dims of `d`, tracking both sides' offsets.
struct Odometer {
  const Dims& d;
  int64_t ndim;
  int64_t index[kMaxDims] = {};
  int64_t t = 0, r = 0;

  void seek(int64_t flat) noexcept {
    for (int64_t i = ndim - 1; i >= 0; --i) {
      index[i] = flat % d.size[i];
      flat /= d.size[i];
      t += index[i] * d.t[i];
      r += index[i] * d.r[i];
    }
  }
  void next() noexcept {
    for (int64_t i = ndim - 1; i >= 0; --i) {
      t += d.t[i];
      r += d.r[i];
      if (++index[i] < d.size[i]) return;
      t -= d.size[i] * d.t[i];
      r -= d.size[i] * d.r[i];
      index[i] = 0;
    }
  }
};

// One index tensor as the offsets need it: its elements' strides broadcast to
// the index shape, the dim it indexes (size) and that dim's byte stride in t.
struct IndexOperand {
  const char* data;
  DType dtype;
  int64_t strides[kMaxDims];
  int64_t dim, size, step;
};

// f(T{}) for the element type T of an integer dtype.
template <typename F>
auto with_index_type(DType d, F&& f) {
  return dispatch_kind<DTypeKind::Int>(d, [&](auto tag) { return f(typename decltype(tag)::type{}); });
}

// Walks index tensor x's elements for positions [p0, p1) (C order over the
// broadcast shape b) as runs along b's last dim: run(at, step, m, p) for m
// elements from address `at`, `step` bytes apart, the first at position p.
template <typename Run>
void for_each_run(const IndexOperand& x, int64_t nb, const int64_t* b, int64_t p0, int64_t p1, Run&& run) {
  if (p0 >= p1) return;  // (an empty b has a size 0 to divide by)
  const int64_t item = static_cast<int64_t>(dtype_size(x.dtype));
  const int64_t last = nb - 1, inner = nb > 0 ? b[last] : 1, step = nb > 0 ? x.strides[last] * item : 0;
  int64_t index[kMaxDims], element = 0, rest = p0 / inner;  // an odometer over b's outer dims
  for (int64_t i = last - 1; i >= 0; --i) {
    index[i] = rest % b[i];
    rest /= b[i];
    element += index[i] * x.strides[i];
  }
  for (int64_t p = p0, j = p0 % inner; p < p1; j = 0) {
    const int64_t m = std::min(p1 - p, inner - j);
    run(x.data + element * item + j * step, step, m, p);
    p += m;
    for (int64_t i = last - 1; i >= 0; --i) {
      element += x.strides[i];
      if (++index[i] < b[i]) break;
      element -= b[i] * x.strides[i];
      index[i] = 0;
    }
  }
}

// An index as a position along a dim of `size`: negative values wrap; the
// result is outside [0, size) for an index outside [-size, size).
template <typename T>
int64_t wrapped(T v, int64_t size) noexcept {
  if constexpr (std::is_signed_v<T>) return static_cast<int64_t>(v) + (v < 0 ? size : 0);
  return static_cast<int64_t>(v);  // (above INT64_MAX: negative, so outside too)
}

bool outside(int64_t i, int64_t size) noexcept { return static_cast<uint64_t>(i) >= static_cast<uint64_t>(size); }

// Index tensor x's share of the offsets of positions [p0, p1), added into out
// (stored, for the first index tensor); false if an index is outside its dim
// (out then holds garbage for it).
template <typename T>
bool add_offsets(const IndexOperand& x, int64_t nb, const int64_t* b, int64_t p0, int64_t p1, bool first,
                 int64_t* out) noexcept {
  bool bad = false;
  for_each_run(x, nb, b, p0, p1, [&](const char* at, int64_t step, int64_t m, int64_t p) {
    int64_t* o = out + (p - p0);
    for (int64_t q = 0; q < m; ++q, at += step) {
      const int64_t i = wrapped(load<T>(at), x.size);
      bad |= outside(i, x.size);
      // Unsigned: a bad index's product may overflow (its offset is never used).
      const uint64_t here = first ? 0 : static_cast<uint64_t>(o[q]);
      o[q] = static_cast<int64_t>(here + static_cast<uint64_t>(i) * static_cast<uint64_t>(x.step));
    }
  });
  return !bad;
}

// Whether every index of x for positions [p0, p1) is inside its dim; a plain
// loop over contiguous runs, which the compiler vectorises.
template <typename T>
bool inside(const IndexOperand& x, int64_t nb, const int64_t* b, int64_t p0, int64_t p1) noexcept {
  bool bad = false;
  for_each_run(x, nb, b, p0, p1, [&](const char* at, int64_t step, int64_t m, int64_t) {
    if (step == static_cast<int64_t>(sizeof(T))) {
      for (int64_t q = 0; q < m; ++q) bad |= outside(wrapped(load<T>(at + q * step), x.size), x.size);
    } else {
      for (int64_t q = 0; q < m; ++q, at += step) bad |= outside(wrapped(load<T>(at), x.size), x.size);
    }
  });
  return !bad;
}

// What the index tensors select, before any result exists.
struct Geometry {
  int64_t nb = 0;  // the broadcast shape of the index tensors
  int64_t b[kMaxDims];
  int64_t positions = 1;  // its element count
  int64_t ndim = 0;       // the result's shape
  int64_t sizes[kMaxDims];
  // Per result dim: t's byte stride, and which group it is in.
  int64_t t_stride[kMaxDims];
  enum Group : uint8_t { Pre, Position, Post } group[kMaxDims];
  int64_t n = 0;
  IndexOperand index[kMaxDims];

  // The byte offsets into t of positions [p0, p1), C order. Throws Bounds naming
  // the first position with a bad index (its first bad one).
  void offsets(const char* op, int64_t p0, int64_t p1, int64_t* out) const {
    bool ok = true;
    for (int64_t k = 0; k < n; ++k)
      ok &= with_index_type(index[k].dtype, [&](auto zero) {
        return add_offsets<decltype(zero)>(index[k], nb, b, p0, p1, k == 0, out);
      });
    if (!ok) report_bad(op, p0, p1);
  }

  // Checks every index, as offsets() does, without computing any.
  void check(const char* op) const {
    bool ok = true;
    for (int64_t k = 0; k < n; ++k)
      ok &= with_index_type(index[k].dtype, [&](auto zero) {
        return inside<decltype(zero)>(index[k], nb, b, 0, positions);
      });
    if (!ok) report_bad(op, 0, positions);
  }

 private:
  // The slow path: position by position, naming the first bad index found.
  [[noreturn]] void report_bad(const char* op, int64_t p0, int64_t p1) const {
    for (int64_t p = p0; p < p1; ++p)
      for (int64_t k = 0; k < n; ++k) {
        const IndexOperand& x = index[k];
        if (with_index_type(x.dtype, [&](auto zero) { return inside<decltype(zero)>(x, nb, b, p, p + 1); }))
          continue;
        int64_t element = 0;
        for (int64_t i = nb - 1, rest = p; i >= 0; --i) {
          element += rest % b[i] * x.strides[i];
          rest /= b[i];
        }
        with_index_type(x.dtype, [&](auto zero) {
          using T = decltype(zero);
          const T v = load<T>(x.data + element * static_cast<int64_t>(sizeof(T)));
          using Printed = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
          fail(Status::Bounds, op, ": index ", static_cast<Printed>(v), " is out of bounds for dimension ", x.dim,
               " with size ", x.size);
          return false;
        });
      }
    fail(Status::Internal, op, ": a bad index was reported but none was found");
  }
};

// The one-element blocks of gathers and puts: m positions, t's element j at
// t + off[j], the result's at r + j * rs.
struct Element16 {
  uint64_t lo, hi;
};
template <typename T, bool kGather>
void element_run(char* t, const int64_t* off, int64_t m, char* r, int64_t rs) noexcept {
  for (int64_t j = 0; j < m; ++j, r += rs) {
    if constexpr (kGather)
      store(r, load<T>(t + off[j]));
    else
      store(t + off[j], load<T>(r));
  }
}
using ElementRun = void (*)(char* t, const int64_t* off, int64_t m, char* r, int64_t rs) noexcept;
template <bool kGather>
ElementRun element_run_for(size_t item) noexcept {
  switch (item) {
    case 1: return element_run<uint8_t, kGather>;
    case 2: return element_run<uint16_t, kGather>;
    case 4: return element_run<uint32_t, kGather>;
    case 8: return element_run<uint64_t, kGather>;
    default: return element_run<Element16, kGather>;
  }
}

// How blocks move: single elements, rows (copy_run along the inner block dim),
// or the copy engine.
enum class BlockKind { Element, Rows, Engine };

struct Mover {
  const char* op = nullptr;
  bool gather = true;  // t -> result; else result -> t
  size_t item = 0;
  Dims pre, pos, post;  // the result's dims by group, merged
  int64_t positions = 0;
  BlockKind kind = BlockKind::Element;
  ElementRun element = nullptr;
  int64_t post_elements[2][kMaxDims] = {};  // post's t and r strides in elements (the engine's unit)

  // One block: t's at t, the result's at r.
  void block(char* t, char* r) const {
    char* dst = gather ? r : t;
    const char* src = gather ? t : r;
    const int64_t* ds = gather ? post.r : post.t;
    const int64_t* ss = gather ? post.t : post.r;
    if (kind == BlockKind::Engine) {
      const int64_t* dse = post_elements[gather ? 1 : 0];
      const int64_t* sse = post_elements[gather ? 0 : 1];
      execute(TensorIteratorConfig()
                  .add_output(dst, post.ndim, post.size, dse, item)
                  .add_input(src, post.ndim, post.size, sse, item)
                  .build(op),
              nullptr, nullptr);
      return;
    }
    const int64_t inner = post.ndim - 1;
    if (inner == 0) return copy_run(item, dst, ds[0], src, ss[0], post.size[0], false);
    Odometer rows{post, inner};
    const int64_t nrows = post.numel() / post.size[inner];
    for (int64_t row = 0; row < nrows; ++row, rows.next()) {
      const int64_t d_off = gather ? rows.r : rows.t, s_off = gather ? rows.t : rows.r;
      copy_run(item, dst + d_off, ds[inner], src + s_off, ss[inner], post.size[inner], false);
    }
  }

  // Units [u0, u1) of the (pre, position) grid, in C order; position p's
  // offset is off[p - base].
  void run(char* t, char* r, int64_t u0, int64_t u1, const int64_t* off, int64_t base) const {
    Odometer outer{pre, pre.ndim};
    outer.seek(u0 / positions);
    const int64_t last = pos.ndim - 1;
    for (int64_t u = u0, first = u0 % positions; u < u1; first = 0, outer.next()) {
      const int64_t end = std::min(positions, first + (u1 - u));
      char* tb = t + outer.t;
      // The positions [first, end): runs along the last position dim.
      Odometer at{pos, last};
      at.seek(first / pos.size[last]);
      int64_t p = first, in_run = first % pos.size[last];
      while (p < end) {
        const int64_t m = std::min(end - p, pos.size[last] - in_run);
        char* rb = r + outer.r + at.r + in_run * pos.r[last];
        if (kind == BlockKind::Element) {
          element(tb, off + (p - base), m, rb, pos.r[last]);
        } else {
          for (int64_t j = 0; j < m; ++j) block(tb + off[p - base + j], rb + j * pos.r[last]);
        }
        p += m;
        in_run = 0;
        at.next();
      }
      u += end - first;
    }
  }
};

}  // namespace

void check_index_count(const char* op, const Tensor& t, int64_t n) {
  if (n < 1) fail(Status::Invalid, op, ": expected at least one index tensor, got n = ", n);
  if (n > t.ndim()) fail(Status::Invalid, op, ": too many indices for tensor of dimension ", t.ndim(), " (got ", n, ")");
}

namespace {

// Checks the arguments and lays out the result.
Geometry geometry(const char* op, const Tensor& t, int64_t n, const int64_t* dims, const Tensor* const* indices) {
  const int64_t nd = t.ndim();
  check_index_count(op, t, n);
  if (!dims) fail(Status::Invalid, op, ": dims is NULL");
  int64_t wrapped[kMaxDims];
  for (int64_t k = 0; k < n; ++k) {
    wrapped[k] = wrap_dim(op, dims[k], nd);
    if (k > 0 && wrapped[k] <= wrapped[k - 1])
      fail(Status::Invalid, op, ": dims must be ascending and distinct, got ", DimList{dims, n});
  }
  t.require_readable(op);
  ShapeRef shapes[kMaxDims];
  for (int64_t k = 0; k < n; ++k) {
    const Tensor& index = *indices[k];
    const DTypeInfo* info = dtype_info(index.dtype());
    if (info->kind != DTypeKind::Int)
      fail(Status::DType, op, ": index tensor ", k, " has dtype ", info->name,
           "; index tensors must have an integer dtype (a bool mask indexes through nonzero)");
    index.require_readable(op);
    shapes[k] = {index.ndim(), index.sizes()};
  }
  Geometry g;
  g.nb = broadcast_shapes(op, shapes, n, g.b);
  g.positions = checked_numel(op, g.nb, g.b);
  g.n = n;
  for (int64_t k = 0; k < n; ++k) {
    const Tensor& index = *indices[k];
    IndexOperand& x = g.index[k];
    x.data = index.data();
    x.dtype = index.dtype();
    broadcast_strides(index.ndim(), index.sizes(), index.strides(), g.nb, g.b, x.strides);
    x.dim = wrapped[k];
    x.size = t.size(x.dim);
    x.step = t.stride(x.dim) * static_cast<int64_t>(t.itemsize());
  }
  if (nd - n + g.nb > kMaxDims)
    fail(Status::Invalid, op, ": the result would have ", nd - n + g.nb, " dims (at most ", kMaxDims, ")");
  bool adjacent = true;
  for (int64_t k = 1; k < n; ++k) adjacent = adjacent && wrapped[k] == wrapped[k - 1] + 1;
  const int64_t first = adjacent ? wrapped[0] : 0;  // where the broadcast dims go
  const auto item = static_cast<int64_t>(t.itemsize());
  for (int64_t d = 0, k = 0; d <= nd; ++d) {
    if (d == first)
      for (int64_t i = 0; i < g.nb; ++i) {
        g.sizes[g.ndim] = g.b[i];
        g.t_stride[g.ndim] = 0;
        g.group[g.ndim++] = Geometry::Position;
      }
    if (d == nd) break;
    if (k < n && wrapped[k] == d) {
      ++k;
      continue;
    }
    g.sizes[g.ndim] = t.size(d);
    g.t_stride[g.ndim] = t.stride(d) * item;
    g.group[g.ndim++] = d < first ? Geometry::Pre : Geometry::Post;
  }
  checked_numel(op, g.ndim, g.sizes);
  return g;
}

// Moves every block between t and the result, whose byte strides are r_strides.
void move(const char* op, const Geometry& g, bool gather, const Tensor& t, char* r, const int64_t* r_strides) {
  Mover m;
  m.op = op;
  m.gather = gather;
  m.item = t.itemsize();
  m.positions = g.positions;
  for (int64_t i = 0; i < g.ndim; ++i) {
    Dims& group = g.group[i] == Geometry::Pre ? m.pre : g.group[i] == Geometry::Position ? m.pos : m.post;
    group.add(g.sizes[i], g.t_stride[i], r_strides[i]);
  }
  m.pre.merge();
  m.pos.merge();
  m.post.merge();
  if (m.pos.ndim == 0) m.pos.add(1, 0, 0);  // one position: 0-dim index tensors
  const int64_t block_bytes = m.post.numel() * static_cast<int64_t>(m.item);
  if (m.post.ndim == 0) {
    m.element = gather ? element_run_for<true>(m.item) : element_run_for<false>(m.item);
  } else if (block_bytes >= kEngineBlockBytes) {
    m.kind = BlockKind::Engine;
    for (int64_t i = 0; i < m.post.ndim; ++i) {
      m.post_elements[0][i] = m.post.t[i] / static_cast<int64_t>(m.item);
      m.post_elements[1][i] = m.post.r[i] / static_cast<int64_t>(m.item);
    }
  } else {
    m.kind = BlockKind::Rows;
  }
  const int64_t units = m.pre.numel() * m.positions;
  // Gathers write disjoint result elements per unit, so threads may split
  // them; puts stay serial, which makes repeated indices write in order.
  const int64_t threads = gather && m.kind != BlockKind::Engine
                              ? std::min<int64_t>({num_threads(), units * block_bytes / kParallelBytes + 1, units})
                              : 1;
  if (threads <= 1 && m.pre.ndim == 0) {  // one pass over tiles of positions
    if (!gather) g.check(op);              // every index before the first write
    int64_t tile[kTile];
    for (int64_t p0 = 0; p0 < m.positions; p0 += kTile) {
      const int64_t p1 = std::min(m.positions, p0 + kTile);
      g.offsets(op, p0, p1, tile);
      m.run(t.data(), r, p0, p1, tile, p0);
    }
    return;
  }
  // Every offset first: the pre dims reuse them, threads share them.
  const Ref<Tensor> all = Tensor::allocate(op, dtype::Int64, 1, &m.positions, false);
  auto* off = reinterpret_cast<int64_t*>(all->data());
  g.offsets(op, 0, m.positions, off);
  if (threads <= 1) return m.run(t.data(), r, 0, units, off, 0);
  const int64_t chunk = (units + threads - 1) / threads;
  parallel_run(static_cast<int32_t>(threads), [&](int32_t part) {
    const int64_t begin = std::min(units, part * chunk), end = std::min(units, begin + chunk);
    if (begin < end) m.run(t.data(), r, begin, end, off, 0);
  });
}

}  // namespace

Ref<Tensor> index_gather(const char* op, const Tensor& t, int64_t n, const int64_t* dims,
                         const Tensor* const* indices) {
  const Geometry g = geometry(op, t, n, dims, indices);
  Ref<Tensor> out = Tensor::allocate(op, t.dtype(), g.ndim, g.sizes, false);
  if (out->numel() == 0) {
    g.check(op);
    return out;
  }
  int64_t strides[kMaxDims];
  for (int64_t i = 0; i < g.ndim; ++i) strides[i] = out->stride(i) * static_cast<int64_t>(t.itemsize());
  move(op, g, true, t, out->data(), strides);
  if (t.dtype() == dtype::Bool) {  // stored as copies store bools: any non-zero byte becomes 1
    char* bytes = out->data();
    for (int64_t i = 0; i < out->numel(); ++i) bytes[i] = bytes[i] != 0;
  }
  return out;
}

void index_put(const char* op, const Tensor& t, int64_t n, const int64_t* dims, const Tensor* const* indices,
               const Tensor& values) {
  Geometry g = geometry(op, t, n, dims, indices);
  // Index tensors sharing t's memory are read from snapshots: the writes must
  // not move the positions still to come (nor those checked before the first write).
  const Tensor* unaliased[kMaxDims];
  Ref<Tensor> snapshots[kMaxDims];
  bool aliased = false;
  for (int64_t k = 0; k < n; ++k) {
    unaliased[k] = indices[k];
    if (may_overlap(t, *indices[k])) {
      snapshots[k] = contiguous_copy(op, *indices[k], indices[k]->dtype());
      unaliased[k] = snapshots[k].get();
      aliased = true;
    }
  }
  if (aliased) g = geometry(op, t, n, dims, unaliased);
  int64_t strides[kMaxDims];
  if (broadcast_strides(values.ndim(), values.sizes(), values.strides(), g.ndim, g.sizes, strides) >= 0)
    fail(Status::Shape, op, ": values of shape ", DimList{values.sizes(), values.ndim()},
         " cannot be broadcast to the indexing result of shape ", DimList{g.sizes, g.ndim});
  if (checked_numel(op, g.ndim, g.sizes) == 0) return g.check(op);  // as copy_into an empty tensor
  t.require_writable(op);
  require_no_internal_overlap(op, t);
  values.require_readable(op);
  // Values of another dtype, bools (stored as 0/1) and values sharing t's memory
  // are converted or snapshotted first, by the copy engine's rules.
  const Tensor* source = &values;
  Ref<Tensor> converted;
  if (values.dtype() != t.dtype() || values.dtype() == dtype::Bool || may_overlap(t, values)) {
    converted = contiguous_copy(op, values, t.dtype());
    source = converted.get();
    broadcast_strides(source->ndim(), source->sizes(), source->strides(), g.ndim, g.sizes, strides);
  }
  for (int64_t i = 0; i < g.ndim; ++i) strides[i] *= static_cast<int64_t>(t.itemsize());
  move(op, g, false, t, source->data(), strides);
}

Ref<Tensor> nonzero(const char* op, const Tensor& t) {
  const Ref<Tensor> mask = contiguous_copy(op, t, dtype::Bool);  // x != 0, stored as 0/1
  const auto* bits = reinterpret_cast<const uint8_t*>(mask->data());
  const int64_t numel = mask->numel(), nd = t.ndim();
  int64_t count = 0;
  for (int64_t i = 0; i < numel; ++i) count += bits[i];
  const int64_t shape[2] = {count, nd};
  Ref<Tensor> out = Tensor::allocate(op, dtype::Int64, 2, shape, false);
  if (count == 0 || nd == 0) return out;
  auto* row = reinterpret_cast<int64_t*>(out->data());
  // Rows of t's last dim, with the coordinates of the dims before it.
  const int64_t inner = t.size(nd - 1);
  int64_t coord[kMaxDims] = {};
  for (int64_t base = 0; base < numel; base += inner) {
    for (int64_t j = 0; j < inner; ++j) {
      if (!bits[base + j]) continue;
      std::copy(coord, coord + nd - 1, row);
      row[nd - 1] = j;
      row += nd;
    }
    for (int64_t d = nd - 2; d >= 0 && ++coord[d] == t.size(d); --d) coord[d] = 0;
  }
  return out;
}

}  // namespace ctensor::core
