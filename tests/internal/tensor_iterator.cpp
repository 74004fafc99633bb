// The strided iterator against naive index loops: element-wise ops over
// broadcast inputs and outputs of every layout, reductions with keepdim
// outputs, thread splits (same results, reduced dims never split), empty
// shapes and the shape errors.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>
#include <vector>

#include "engine/parallel.hpp"
#include "engine/tensor_iterator.hpp"

using namespace ctensor::core;

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

// A dense buffer of floats viewed with arbitrary strides (in elements) and a
// base offset, so that permuted and negative-stride layouts can be made.
struct View {
  std::vector<float> buffer;
  int64_t ndim;
  int64_t sizes[4];
  int64_t strides[4];
  int64_t offset;

  // sizes in C order; `order` lists dims from outermost to innermost in
  // memory; `flip` negates the stride of dim `flip` (-1: none).
  View(std::initializer_list<int64_t> shape, std::initializer_list<int> order, int flip = -1)
      : ndim(static_cast<int64_t>(shape.size())), offset(0) {
    std::copy(shape.begin(), shape.end(), sizes);
    int64_t step = 1;
    for (auto it = order.end(); it != order.begin();) {
      const int d = *--it;
      strides[d] = step;
      step *= sizes[d];
    }
    buffer.assign(static_cast<size_t>(step), 0.0f);
    if (flip >= 0) {
      offset += (sizes[flip] - 1) * strides[flip];
      strides[flip] = -strides[flip];
    }
  }
  float* data() { return buffer.data() + offset; }
  // Element at index (right-aligned broadcast: size-1 dims read index 0).
  float& at(const int64_t* index, int64_t index_ndim) {
    int64_t off = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t i = index[index_ndim - ndim + d];
      off += (sizes[d] == 1 ? 0 : i) * strides[d];
    }
    return data()[off];
  }
  void randomize(std::mt19937& rng) {
    std::uniform_int_distribution<int> values(-50, 50);
    for (float& x : buffer) x = static_cast<float>(values(rng));
  }
};

template <class F>
void for_index(const int64_t* sizes, int64_t ndim, F f) {
  int64_t index[4] = {};
  int64_t numel = 1;
  for (int64_t d = 0; d < ndim; ++d) numel *= sizes[d];
  for (int64_t n = 0; n < numel; ++n) {
    f(index);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
}

TensorIteratorConfig& add(TensorIteratorConfig& c, View& v, bool output) {
  if (output) return c.add_output(reinterpret_cast<char*>(v.data()), v.ndim, v.sizes, v.strides, 4);
  return c.add_input(reinterpret_cast<const char*>(v.data()), v.ndim, v.sizes, v.strides, 4);
}

// out = a * b + c over every layout of out, with a and b broadcast.
void elementwise(std::mt19937& rng) {
  for (int flip = -1; flip < 3; ++flip) {
    for (auto order : {std::initializer_list<int>{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}}) {
      View out({5, 6, 7}, order, flip);
      View a({6, 1}, {0, 1}), b({5, 1, 7}, {2, 1, 0}), c({5, 6, 7}, {0, 1, 2}, 1);
      a.randomize(rng);
      b.randomize(rng);
      c.randomize(rng);
      TensorIteratorConfig config;
      add(config, out, true);
      add(config, a, false);
      add(config, b, false);
      add(config, c, false);
      const TensorIterator it = config.build("test");
      check(it.ntensors() == 4 && it.noutputs() == 1 && it.numel() == 5 * 6 * 7, "operand counts");
      check(it.stride(0, 0) == 4, "dim 0 is output 0's densest dim, walked forwards");
      it.for_each([](char** data, const int64_t* strides, int64_t n) {
        for (int64_t j = 0; j < n; ++j) {
          const auto x = [&](int k) { return *reinterpret_cast<float*>(data[k] + j * strides[k]); };
          *reinterpret_cast<float*>(data[0] + j * strides[0]) = x(1) * x(2) + x(3);
        }
      });
      bool ok = true;
      for_index(out.sizes, 3,
                [&](const int64_t* i) { ok &= out.at(i, 3) == a.at(i, 3) * b.at(i, 3) + c.at(i, 3); });
      check(ok, "element-wise result");
    }
  }
}

// Identically laid out operands merge into one run; the 2-D loop sees
// [inner strides..., outer strides...].
void merging() {
  View out({4, 8, 16}, {0, 1, 2}), in({4, 8, 16}, {0, 1, 2});
  TensorIteratorConfig config;
  add(config, out, true);
  const TensorIterator one = add(config, in, false).build("test");
  check(one.ndim() == 1 && one.size(0) == 512 && one.stride(1, 0) == 4, "contiguous operands merge");

  View t({16, 32}, {1, 0}), o({16, 32}, {0, 1});
  TensorIteratorConfig transposed;
  add(transposed, o, true);
  const TensorIterator two = add(transposed, t, false).build("test");
  int calls = 0;
  two.serial_for_each([&](char**, const int64_t* strides, int64_t size0, int64_t size1) {
    ++calls;
    check(size0 == 32 && size1 == 16, "2-D loop sizes");
    check(strides[0] == 4 && strides[1] == 16 * 4 && strides[2] == 32 * 4 && strides[3] == 4,
          "2-D loop strides: inner then outer, outputs first");
  });
  check(calls == 1, "one 2-D call for a 2-D iterator");
}

// out (keepdim) = sum of in over the dims where out has size 1.
void reductions(std::mt19937& rng) {
  for (auto out_shape :
       {std::initializer_list<int64_t>{3, 1, 5}, {1, 4, 5}, {3, 4, 1}, {1, 1, 1}, {1, 4, 1}}) {
    for (auto order : {std::initializer_list<int>{0, 1, 2}, {2, 1, 0}, {1, 2, 0}}) {
      View in({3, 4, 5}, order), out(out_shape, {0, 1, 2});
      in.randomize(rng);
      TensorIteratorConfig config;
      add(config, out, true);
      add(config, in, false);
      const TensorIterator it = config.allow_reduction().build("test");
      // Reduced dims are innermost.
      bool seen_kept = false, inner_first = true;
      for (int d = 0; d < it.ndim(); ++d) {
        if (!it.is_reduced(d)) seen_kept = true;
        else if (seen_kept) inner_first = false;
      }
      check(inner_first, "reduced dims are ordered inside the kept ones");
      it.for_each([](char** data, const int64_t* strides, int64_t n) {
        for (int64_t j = 0; j < n; ++j)
          *reinterpret_cast<float*>(data[0] + j * strides[0]) +=
              *reinterpret_cast<float*>(data[1] + j * strides[1]);
      });
      View want(out_shape, {0, 1, 2});
      for_index(in.sizes, 3, [&](const int64_t* i) { want.at(i, 3) += in.at(i, 3); });
      check(want.buffer == out.buffer, "reduction result");
    }
  }
}

// Large iterators split over two threads give the same results; a reduction
// splits only its kept dims.
void threads(std::mt19937& rng) {
  const int32_t before = num_threads();
  set_num_threads("test", 2);
  View in({64, 96, 128}, {2, 0, 1});  // 3 MiB: split over both threads
  in.randomize(rng);
  View out({64, 96, 128}, {0, 1, 2});
  TensorIteratorConfig copy;
  add(copy, out, true);
  const TensorIterator it = add(copy, in, false).build("test");
  std::atomic<int> chunks{0};
  it.parallel_chunks([&](const TensorIterator& chunk) {
    ++chunks;
    chunk.serial_for_each([](char** data, const int64_t* strides, int64_t n) {
      for (int64_t j = 0; j < n; ++j)
        *reinterpret_cast<float*>(data[0] + j * strides[0]) =
            *reinterpret_cast<float*>(data[1] + j * strides[1]);
    });
  });
  check(chunks == 2, "a 3 MiB iterator is split in two");
  bool ok = true;
  for_index(out.sizes, 3, [&](const int64_t* i) { ok &= out.at(i, 3) == in.at(i, 3); });
  check(ok, "copy split over threads");

  View sum({64, 1, 128}, {0, 1, 2});
  TensorIteratorConfig reduce;
  add(reduce, sum, true);
  add(reduce, in, false);
  reduce.allow_reduction().build("test").for_each(
      [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        for (int64_t r = 0; r < size1; ++r)
          for (int64_t j = 0; j < size0; ++j)
            *reinterpret_cast<float*>(data[0] + j * strides[0] + r * strides[2]) +=
                *reinterpret_cast<float*>(data[1] + j * strides[1] + r * strides[3]);
      },
      Split{1, 1});  // as many threads as the kept dims allow
  View want({64, 1, 128}, {0, 1, 2});
  for_index(in.sizes, 3, [&](const int64_t* i) { want.at(i, 3) += in.at(i, 3); });
  check(want.buffer == sum.buffer, "reduction split over threads");

  // Scratch loops: each chunk has its own 64-byte aligned buffer (rows go
  // through it, so two chunks sharing one would mix their rows).
  View through({64, 96, 128}, {0, 1, 2});
  TensorIteratorConfig buffered;
  add(buffered, through, true);
  std::atomic<int> misfits{0};  // a buffer not aligned, or rows longer than it
  std::mutex seen_lock;
  std::set<char*> seen;
  add(buffered, in, false)
      .build("test")
      .for_each(
          [&](char** data, const int64_t* strides, int64_t size0, int64_t size1, char* scratch) {
            if (reinterpret_cast<uintptr_t>(scratch) % 64 != 0 || size0 > 128) ++misfits;
            {
              std::lock_guard<std::mutex> lock(seen_lock);
              seen.insert(scratch);
            }
            auto* row = reinterpret_cast<float*>(scratch);
            for (int64_t r = 0; r < size1; ++r) {
              for (int64_t j = 0; j < size0; ++j)
                row[j] = *reinterpret_cast<float*>(data[1] + j * strides[1] + r * strides[3]);
              for (int64_t j = 0; j < size0; ++j)
                *reinterpret_cast<float*>(data[0] + j * strides[0] + r * strides[2]) = row[j];
            }
          },
          sizeof(float) * 128);
  check(misfits == 0 && seen.size() == 2, "two chunks, two aligned scratch buffers");
  ok = true;
  for_index(out.sizes, 3, [&](const int64_t* i) { ok &= through.at(i, 3) == in.at(i, 3); });
  check(ok, "copy through scratch split over threads");
  set_num_threads("test", before);
}

void empty_and_errors() {
  View out({3, 0, 2}, {0, 1, 2}), in({1, 0, 2}, {0, 1, 2});
  TensorIteratorConfig config;
  add(config, out, true);
  const TensorIterator it = add(config, in, false).build("test");
  bool called = false;
  it.for_each([&](char**, const int64_t*, int64_t) { called = true; });
  check(it.numel() == 0 && !called, "an empty shape calls no loop");

  const auto status = [](auto build) {
    try {
      build();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Ok;
  };
  View small({3, 1}, {0, 1}), big({3, 4}, {0, 1}), other({5}, {0});
  check(status([&] {
          TensorIteratorConfig c;
          add(c, small, true);
          add(c, big, false).build("test");
        }) == Status::Shape,
        "an output smaller than the shape needs allow_reduction");
  check(status([&] {
          TensorIteratorConfig c;
          add(c, big, true);
          add(c, other, false).build("test");
        }) == Status::Shape,
        "inputs that do not broadcast");
  check(status([&] {
          TensorIteratorConfig c;
          add(c, big, false).build("test");
        }) == Status::Invalid,
        "no output");
  check(status([&] {
          TensorIteratorConfig c;
          add(c, big, true);
          for (int k = 0; k < kMaxOperands; ++k) add(c, big, false);
          c.build("test");
        }) == Status::Invalid,
        "too many operands");
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  elementwise(rng);
  merging();
  reductions(rng);
  threads(rng);
  empty_and_errors();
  return failures == 0 ? 0 : 1;
}
