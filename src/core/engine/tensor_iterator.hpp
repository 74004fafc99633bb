// The N-operand strided iterator (PyTorch's TensorIterator): outputs and
// inputs walked together over one broadcast shape, with dims merged and
// ordered by the output's strides, split into chunks for the thread pool, and
// handed to a kernel as inner loops.
//
// How a kernel plugs in:
//
//   TensorIterator it = TensorIteratorConfig()
//                           .add_output(out)      // outputs first: operand 0, 1, ...
//                           .add_input(a)         // then inputs: operand noutputs(), ...
//                           .add_input(b)
//                           .build("add");        // broadcasts a and b to out's shape
//   it.for_each([](char** data, const int64_t* strides, int64_t n) {
//     // n elements: operand k's element j is at data[k] + j * strides[k]
//     // (bytes). strides[k] == itemsize(k) means contiguous, 0 means broadcast.
//     for (int64_t j = 0; j < n; ++j) ... data[0] + j * strides[0] ...
//   });
//
// A kernel that wants two dims at once (to block, or to vectorise across the
// outer dim) takes the 2-D loop instead:
//
//   it.for_each([](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
//     // strides[k] steps operand k along dim 0 (the inner dim, size0);
//     // strides[ntensors + k] steps it along dim 1 (size1).
//   });
//
// Dims are numbered inner to outer: dim 0 is the one with the smallest output
// stride, the inner loop. Size-1 dims are dropped, dims along which output 0
// has a negative stride are walked backwards (each operand's pointer starts
// at that dim's last element and its stride is negated), and neighbouring
// dims that continue each other in every operand are merged, so a contiguous
// (or identically laid out) set of operands becomes one run, ndim() == 1.
// Kernels must not assume any visiting order: every output element must be
// computed from the input elements at the same index only.
//
// Reductions: call allow_reduction() and give each output the input's shape
// with size 1 on the reduced dims (keepdim). Along a reduced dim the output's
// stride is 0, so a kernel sees an inner loop whose output stride is 0 and
// accumulates into data[0]. Reduced dims are ordered innermost (dims 0, 1, ...
// before any kept dim), is_reduced(d) says which, and threads never split a
// reduced dim, so each output element is written by one thread only, in one
// call sequence. A kernel that reduces along dim 1 while vectorising along a
// kept dim 0 can use move_dim() first; the iterator's order is only a default.
//
// Threads: for_each splits the outermost kept (not reduced) dim into up to num_threads()
// chunks (engine/parallel.hpp) when the work is large enough (Split); the
// loop must then be safe to run concurrently on disjoint chunks. A reduced
// dim is never split, so each output element sees the same sequence of loop
// steps, and the same result, for every thread count. serial_for_each never
// uses threads.
//
// Buffered inputs (NumPy's buffered iterator): an input added with a compute
// dtype other than its own is converted as the iterator goes. Loops then get
// a few KiB of it at a time (kBufferBytes in the .cpp), as a dense run of the compute dtype in
// a buffer on the running thread's stack (converted with dtype/convert.hpp's
// cast kernels), and 1-D blocks (size1 == 1): what the loop sees is what it
// would see for an input of the compute dtype, without a whole converted copy
// being written and read back. Such a loop reads every buffered input before
// it writes an element, so an output may share exactly the elements of a
// buffered input (in place); any other overlap is the caller's to snapshot.
//
// Operand data is char* for outputs and inputs alike (as PyTorch's loops);
// kernels must never write through an input's pointer. Writability, devices,
// dtypes and overlap between outputs and inputs are the caller's to check
// (engine/copy.cpp shows the copy's rules): the iterator visits elements in
// whatever order its dims give.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dtype/convert.hpp"
#include "dtype/dtype.hpp"
#include "engine/function_ref.hpp"
#include "layout/shape.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// Outputs + inputs of one iterator.
constexpr int kMaxOperands = 8;

// How many inputs of one iterator may be converted through buffers.
constexpr int kMaxBuffered = 3;

// Chunking for threads. A chunk of the split dim is a multiple of `grain`
// elements (0: 64 when the split dim is dim 0, so that threads do not write
// the same cache lines, else 1). One thread is used per `min_bytes` of
// numel() * itemsize(0).
struct Split {
  int64_t min_bytes = int64_t{1} << 21;
  int64_t grain = 0;
};

class TensorIterator {
 public:
  // n elements; see the header's comment.
  using Loop1d = FunctionRef<void(char** data, const int64_t* strides, int64_t n)>;
  // size0 x size1 elements; strides holds 2 * ntensors() entries.
  using Loop2d = FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;
  // A 2-D loop with `scratch`: memory (64-byte aligned) that no loop running
  // at the same time uses.
  using Loop2dScratch =
      FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1, char* scratch)>;

  int ntensors() const noexcept { return ntensors_; }
  int noutputs() const noexcept { return noutputs_; }
  int ninputs() const noexcept { return ntensors_ - noutputs_; }

  // Merged dims, inner (0) to outer; at least 1 unless numel() == 0.
  int ndim() const noexcept { return ndim_; }
  int64_t size(int d) const noexcept { return size_[d]; }
  // Byte stride of operand k along dim d; strides(d) are all ntensors() of them.
  int64_t stride(int k, int d) const noexcept { return stride_[d * ntensors_ + k]; }
  const int64_t* strides(int d) const noexcept { return stride_ + d * ntensors_; }
  // Operand k's first visited element (element [0, ..., 0] after flips).
  char* data(int k) const noexcept { return data_[k]; }
  // Operand k's element size in memory (a buffered input's own dtype's).
  size_t itemsize(int k) const noexcept { return itemsize_[k]; }
  // Whether some input is converted through a buffer.
  bool buffered() const noexcept { return nbuffered_ > 0; }
  int64_t numel() const noexcept { return numel_; }
  // Some output has stride 0 along dim d (only with allow_reduction()).
  bool is_reduced(int d) const noexcept;

  // Moves dim `from` to position `to`, shifting the dims between (the copy
  // engine makes a transposed pair dims 0 and 1 this way).
  void move_dim(int from, int to) noexcept;
  // Restricts dim d to [begin, end) (0 <= begin <= end <= size(d)).
  void restrict_dim(int d, int64_t begin, int64_t end) noexcept;

  // Runs the loop over every element; loops get dims 0 (and 1), every dim
  // outside them is walked here. Loops must not throw, nor allocate (a worker
  // thread has nowhere to report the failure): a loop that needs a buffer
  // takes the scratch loop below.
  void for_each(Loop1d loop, Split split = {}) const;
  void for_each(Loop2d loop, Split split = {}) const;
  void serial_for_each(Loop1d loop) const;
  void serial_for_each(Loop2d loop) const;
  // As for_each, for loops that need a buffer: scratch_bytes for each chunk,
  // allocated here on the calling thread before any chunk runs, so that a
  // failure is std::bad_alloc from here and loops never allocate.
  void for_each(Loop2dScratch loop, size_t scratch_bytes, Split split = {}) const;

  // The split of for_each, for kernels that need each thread's whole share:
  // runs body(chunk) on disjoint sub-iterators that together cover this one
  // (one per thread; this iterator itself when it is not split). A kernel
  // calls chunk.serial_for_each and then, e.g., fences its streaming stores
  // or folds a per-thread partial result. body must not throw.
  void parallel_chunks(FunctionRef<void(const TensorIterator& chunk)> body, Split split = {}) const;

 private:
  friend class TensorIteratorConfig;

  // How a split cuts dim `dim`: `threads` chunks of `length` (threads <= 1: not split).
  struct Chunks {
    int dim = 0;
    int32_t threads = 1;
    int64_t length = 0;
  };
  Chunks chunks(Split split) const noexcept;
  // body(chunk, part) for each chunk, part in [0, threads).
  void run_chunks(const Chunks& c, FunctionRef<void(const TensorIterator& chunk, int32_t part)> body) const;
  // loop over an n0 x n1 block (ptr, strides as Loop2d's) with the buffered
  // inputs converted into buffers first.
  void run_buffered(Loop2d loop, char* const* ptr, const int64_t* strides, int64_t n0, int64_t n1) const;

  int ntensors_ = 0;
  int noutputs_ = 0;
  int ndim_ = 0;
  int64_t numel_ = 0;
  char* data_[kMaxOperands] = {};
  size_t itemsize_[kMaxOperands] = {};
  int64_t size_[kMaxDims];
  int64_t stride_[kMaxDims * kMaxOperands];  // [dim][operand]
  // Buffered inputs: operand index, cast kernel into the compute dtype and its element size.
  int nbuffered_ = 0;
  int buffered_operand_[kMaxBuffered] = {};
  CastKernel cast_[kMaxBuffered] = {};
  int64_t compute_size_[kMaxBuffered] = {};
};

// Collects operands, then build() checks shapes and lays out the dims.
class TensorIteratorConfig {
 public:
  // A tensor operand (sizes, strides, element size and address of element
  // [0, ..., 0] are read; the tensor must outlive the iterator's use).
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  // An input that loops see in dtype `compute`: when it is not t's, t is
  // converted through buffers as the iterator goes (see the header's comment;
  // build() throws Invalid for more than kMaxBuffered such inputs).
  TensorIteratorConfig& add_input(const Tensor& t, DType compute);
  // A raw operand: strides in elements of `itemsize` bytes (e.g. a scalar
  // input: ndim 0). The arrays are read by build() only.
  TensorIteratorConfig& add_output(char* data, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                                   size_t itemsize);
  TensorIteratorConfig& add_input(const char* data, int64_t ndim, const int64_t* sizes,
                                  const int64_t* strides, size_t itemsize);
  // Outputs may have size 1 where the shape is larger: they are reduced
  // along those dims (stride 0).
  TensorIteratorConfig& allow_reduction() noexcept;

  // The shape is broadcast_shapes() of every operand; inputs broadcast to it
  // (stride 0 on broadcast dims). Throws Shape when operands do not broadcast
  // or an output does not have the shape (outside allowed reductions),
  // Invalid for more than kMaxOperands operands or no output.
  TensorIterator build(const char* op) const;

 private:
  struct Operand {
    char* data;
    int64_t ndim;
    const int64_t* sizes;
    const int64_t* strides;
    size_t itemsize;
    DType dtype = 0;    // with compute: the input's own dtype
    DType compute = 0;  // the dtype loops see (equal to dtype: not buffered)
  };
  TensorIteratorConfig& add(const Operand& operand, bool output);

  Operand outputs_[kMaxOperands];
  Operand inputs_[kMaxOperands];
  int noutputs_ = 0;
  int ninputs_ = 0;
  bool too_many_ = false;
  bool reduction_ = false;
};

}  // namespace ctensor::core
