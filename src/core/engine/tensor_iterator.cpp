#include "engine/tensor_iterator.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "engine/parallel.hpp"

namespace ctensor::core {

namespace {

// Bytes of each buffered input converted at a time: the buffers and the
// block of the other operands they meet stay in L1.
constexpr int64_t kBufferBytes = 4096;

}  // namespace

bool TensorIterator::is_reduced(int d) const noexcept {
  for (int k = 0; k < noutputs_; ++k)
    if (stride(k, d) == 0 && size_[d] > 1) return true;
  return false;
}

void TensorIterator::move_dim(int from, int to) noexcept {
  const int step = from < to ? 1 : -1;
  for (int d = from; d != to; d += step) {
    std::swap(size_[d], size_[d + step]);
    int64_t* here = stride_ + d * ntensors_;
    std::swap_ranges(here, here + ntensors_, here + step * ntensors_);
  }
}

void TensorIterator::restrict_dim(int d, int64_t begin, int64_t end) noexcept {
  for (int k = 0; k < ntensors_; ++k) data_[k] += begin * stride(k, d);
  numel_ = numel_ / size_[d] * (end - begin);
  size_[d] = end - begin;
}

void TensorIterator::serial_for_each(Loop2d loop) const {
  if (numel_ == 0) return;
  const int n = ntensors_;
  // Dims 0 and 1 go to the loop (dim 1 of size 1 when there is none).
  int64_t inner[2 * kMaxOperands] = {};
  std::copy(strides(0), strides(0) + n, inner);
  if (ndim_ > 1) std::copy(strides(1), strides(1) + n, inner + n);
  const int64_t size1 = ndim_ > 1 ? size_[1] : 1;
  char* ptr[kMaxOperands];
  std::copy(data_, data_ + n, ptr);
  // The dims outside them: an odometer that moves every pointer incrementally.
  int64_t index[kMaxDims] = {};
  for (;;) {
    if (nbuffered_ > 0) run_buffered(loop, ptr, inner, size_[0], size1);
    else loop(ptr, inner, size_[0], size1);
    int d = 2;
    for (; d < ndim_; ++d) {
      const int64_t* s = strides(d);
      if (++index[d] < size_[d]) {
        for (int k = 0; k < n; ++k) ptr[k] += s[k];
        break;
      }
      for (int k = 0; k < n; ++k) ptr[k] -= (size_[d] - 1) * s[k];
      index[d] = 0;
    }
    if (d >= ndim_) break;
  }
}

void TensorIterator::run_buffered(Loop2d loop, char* const* ptr, const int64_t* strides, int64_t n0,
                                  int64_t n1) const {
  const int n = ntensors_;
  alignas(64) char buffers[kMaxBuffered][kBufferBytes];
  int64_t widest = 1;
  for (int b = 0; b < nbuffered_; ++b) widest = std::max(widest, compute_size_[b]);
  const int64_t step = kBufferBytes / widest;
  // What the loop sees: buffered inputs dense (or still broadcast), one row.
  int64_t inner[2 * kMaxOperands] = {};
  std::copy(strides, strides + n, inner);
  for (int b = 0; b < nbuffered_; ++b) {
    const int k = buffered_operand_[b];
    if (strides[k] != 0) inner[k] = compute_size_[b];
  }
  char* p[kMaxOperands];
  for (int64_t r = 0; r < n1; ++r) {
    for (int64_t j = 0; j < n0; j += step) {
      const int64_t m = std::min(step, n0 - j);
      for (int k = 0; k < n; ++k) p[k] = ptr[k] + r * strides[n + k] + j * strides[k];
      for (int b = 0; b < nbuffered_; ++b) {
        const int k = buffered_operand_[b];
        cast_[b](p[k], strides[k], buffers[b], compute_size_[b], inner[k] == 0 ? 1 : m);
        p[k] = buffers[b];
      }
      loop(p, inner, m, 1);
    }
  }
}

void TensorIterator::serial_for_each(Loop1d loop) const {
  const int n = ntensors_;
  serial_for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    char* row[kMaxOperands];
    std::copy(data, data + n, row);
    for (int64_t r = 0; r < size1; ++r) {
      loop(row, strides, size0);
      for (int k = 0; k < n; ++k) row[k] += strides[n + k];
    }
  });
}

TensorIterator::Chunks TensorIterator::chunks(Split split) const noexcept {
  int d = ndim_ - 1;  // the outermost dim that no output reduces over
  while (d >= 0 && is_reduced(d)) --d;
  if (d < 0) return {};
  const int64_t bytes = numel_ * static_cast<int64_t>(itemsize_[0]);
  const int64_t grain = split.grain > 0 ? split.grain : d == 0 ? 64 : 1;
  const int64_t size = size_[d];
  const int64_t by_bytes = bytes / std::max<int64_t>(split.min_bytes, 1) + 1;
  const int64_t threads = std::min<int64_t>({num_threads(), by_bytes, (size + grain - 1) / grain});
  if (threads <= 1) return {};
  const int64_t per_thread = (size + threads - 1) / threads;
  return {d, static_cast<int32_t>(threads), (per_thread + grain - 1) / grain * grain};
}

void TensorIterator::run_chunks(const Chunks& c, FunctionRef<void(const TensorIterator& chunk, int32_t part)> body) const {
  if (c.threads <= 1) return body(*this, 0);
  const int64_t size = size_[c.dim];
  parallel_run(c.threads, [&](int32_t part) {
    const int64_t begin = std::min(size, part * c.length);
    const int64_t end = std::min(size, begin + c.length);
    if (begin == end) return;
    TensorIterator sub = *this;
    sub.restrict_dim(c.dim, begin, end);
    body(sub, part);
  });
}

void TensorIterator::parallel_chunks(FunctionRef<void(const TensorIterator& chunk)> body, Split split) const {
  if (numel_ == 0) return;
  run_chunks(chunks(split), [&](const TensorIterator& chunk, int32_t) { body(chunk); });
}

void TensorIterator::for_each(Loop1d loop, Split split) const {
  parallel_chunks([&](const TensorIterator& chunk) { chunk.serial_for_each(loop); }, split);
}

void TensorIterator::for_each(Loop2d loop, Split split) const {
  parallel_chunks([&](const TensorIterator& chunk) { chunk.serial_for_each(loop); }, split);
}

void TensorIterator::for_each(Loop2dScratch loop, size_t scratch_bytes, Split split) const {
  if (numel_ == 0) return;
  const Chunks c = chunks(split);
  struct alignas(64) Line {
    char bytes[64];
  };
  const size_t lines = (scratch_bytes + sizeof(Line) - 1) / sizeof(Line);
  const auto scratch = lines ? std::make_unique<Line[]>(lines * static_cast<size_t>(c.threads)) : nullptr;
  run_chunks(c, [&](const TensorIterator& chunk, int32_t part) {
    char* own = lines ? scratch[static_cast<size_t>(part) * lines].bytes : nullptr;
    chunk.serial_for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
      loop(data, strides, size0, size1, own);
    });
  });
}

TensorIteratorConfig& TensorIteratorConfig::add(const Operand& operand, bool output) {
  if (noutputs_ + ninputs_ == kMaxOperands) {
    too_many_ = true;
  } else if (output) {
    outputs_[noutputs_++] = operand;
  } else {
    inputs_[ninputs_++] = operand;
  }
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t) {
  return add({t.data(), t.ndim(), t.sizes(), t.strides(), t.itemsize()}, true);
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t) {
  return add({t.data(), t.ndim(), t.sizes(), t.strides(), t.itemsize()}, false);
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t, DType compute) {
  Operand operand{t.data(), t.ndim(), t.sizes(), t.strides(), t.itemsize()};
  operand.dtype = t.dtype();
  operand.compute = compute;
  return add(operand, false);
}

TensorIteratorConfig& TensorIteratorConfig::add_output(char* data, int64_t ndim, const int64_t* sizes,
                                                       const int64_t* strides, size_t itemsize) {
  return add({data, ndim, sizes, strides, itemsize}, true);
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const char* data, int64_t ndim, const int64_t* sizes,
                                                      const int64_t* strides, size_t itemsize) {
  // Inputs are only read; the pointer is char* as every operand's.
  return add({const_cast<char*>(data), ndim, sizes, strides, itemsize}, false);
}

TensorIteratorConfig& TensorIteratorConfig::allow_reduction() noexcept {
  reduction_ = true;
  return *this;
}

namespace {

// -1 when dim a goes inside dim b, 1 when outside, 0 when no operand decides
// (PyTorch's reorder_dimensions): the first operand, outputs first, whose
// strides differ decides; an output's reduced dims go inside its kept ones;
// broadcast (stride 0) dims of inputs do not decide.
int compare_dims(const TensorIterator& it, const int64_t* size, int a, int b, bool reduction) {
  for (int k = 0; k < it.ntensors(); ++k) {
    const int64_t sa = std::llabs(it.stride(k, a)), sb = std::llabs(it.stride(k, b));
    if (reduction && k < it.noutputs() && (sa == 0) != (sb == 0)) return sa == 0 ? -1 : 1;
    if (sa == 0 || sb == 0) continue;
    if (sa != sb) return sa < sb ? -1 : 1;
    if (size[a] != size[b]) return size[a] < size[b] ? -1 : 1;
  }
  return 0;
}

}  // namespace

TensorIterator TensorIteratorConfig::build(const char* op) const {
  if (too_many_) fail(Status::Invalid, op, ": an iterator takes at most ", kMaxOperands, " operands");
  if (noutputs_ == 0) fail(Status::Invalid, op, ": an iterator needs an output");
  const int n = noutputs_ + ninputs_;
  Operand operands[kMaxOperands];
  std::copy(outputs_, outputs_ + noutputs_, operands);
  std::copy(inputs_, inputs_ + ninputs_, operands + noutputs_);

  ShapeRef shapes[kMaxOperands] = {};
  for (int k = 0; k < n; ++k) shapes[k] = {operands[k].ndim, operands[k].sizes};
  int64_t shape[kMaxDims];
  const int64_t ndim = broadcast_shapes(op, shapes, n, shape);

  // Element strides broadcast to the shape, [operand][dim] in the shape's order.
  int64_t broadcast[kMaxOperands][kMaxDims];
  for (int k = 0; k < n; ++k) {
    const Operand& o = operands[k];
    broadcast_strides(o.ndim, o.sizes, o.strides, ndim, shape, broadcast[k]);  // cannot fail: shape covers o
    if (k >= noutputs_ || reduction_) continue;
    for (int64_t i = 0; i < ndim; ++i) {
      const int64_t j = i - (ndim - o.ndim);
      if (j < 0 || o.sizes[j] != shape[i])
        fail(Status::Shape, op, ": output of shape ", DimList{o.sizes, o.ndim},
             " does not match the broadcast shape ", DimList{shape, ndim});
    }
  }

  TensorIterator it;
  it.ntensors_ = n;
  it.noutputs_ = noutputs_;
  it.numel_ = checked_numel(op, ndim, shape);
  for (int k = 0; k < n; ++k) {
    it.data_[k] = operands[k].data;
    it.itemsize_[k] = operands[k].itemsize;
    if (operands[k].dtype == operands[k].compute) continue;
    if (it.nbuffered_ == kMaxBuffered)
      fail(Status::Invalid, op, ": an iterator converts at most ", kMaxBuffered, " inputs through buffers");
    const int b = it.nbuffered_++;
    it.buffered_operand_[b] = k;
    it.cast_[b] = cast_kernel(operands[k].dtype, operands[k].compute);
    it.compute_size_[b] = static_cast<int64_t>(dtype_size(operands[k].compute));
  }
  if (it.numel_ == 0) return it;

  // Dims inner to outer (the shape's last dim first), size-1 dims dropped,
  // output 0's negative strides flipped, strides in bytes.
  int m = 0;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    const bool flip = broadcast[0][i] < 0;
    for (int k = 0; k < n; ++k) {
      int64_t s = broadcast[k][i] * static_cast<int64_t>(operands[k].itemsize);
      if (flip) {
        it.data_[k] += (shape[i] - 1) * s;
        s = -s;
      }
      it.stride_[m * n + k] = s;
    }
    it.size_[m++] = shape[i];
  }
  it.ndim_ = m;

  // Order by strides: an insertion sort that, like PyTorch's, moves a dim
  // inwards past dims it ties with as long as a later one says it belongs inside.
  for (int i = 1; i < m; ++i) {
    int at = i;
    for (int j = i - 1; j >= 0; --j) {
      const int c = compare_dims(it, it.size_, at, j, reduction_);
      if (c < 0) {
        it.move_dim(at, j);
        at = j;
      } else if (c > 0) {
        break;
      }
    }
  }

  // Merge each dim into the one inside it where it continues it in every operand.
  int merged = 0;
  for (int d = 1; d < m; ++d) {
    bool continues = true;
    for (int k = 0; k < n && continues; ++k)
      continues = it.stride(k, d) == it.stride(k, merged) * it.size_[merged];
    if (continues) {
      it.size_[merged] *= it.size_[d];
      continue;
    }
    ++merged;
    it.size_[merged] = it.size_[d];
    std::copy(it.strides(d), it.strides(d) + n, it.stride_ + merged * n);
  }
  it.ndim_ = m == 0 ? 1 : merged + 1;
  if (m == 0) {  // a single element
    it.size_[0] = 1;
    for (int k = 0; k < n; ++k) it.stride_[k] = static_cast<int64_t>(operands[k].itemsize);
  }
  return it;
}

}  // namespace ctensor::core
