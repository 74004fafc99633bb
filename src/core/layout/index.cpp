// Basic indexing (t[1, ::2, None, ...]) applied in one pass: every item updates
// one stack layout through the same steps as select/slice/unsqueeze, and only
// the result is made a tensor.
#include "layout/view_layout.hpp"
#include "layout/views.hpp"

namespace ctensor::core {

using detail::Layout;

Ref<Tensor> index(const char* op, const Tensor& t, int64_t n, const IndexKind* kinds, const int64_t* values) {
  if (n < 0) fail(Status::Invalid, op, ": negative number of indices ", n);
  if (n > 0 && (kinds == nullptr || values == nullptr))
    fail(Status::Invalid, op, ": kinds or values is NULL with ", n, " indices");
  // As PyTorch: integers and slices name a dim each, None/bools/ellipses none;
  // more named dims than the tensor has is refused before any item applies.
  int64_t named = 0;
  for (int64_t i = 0; i < n; ++i) {
    switch (kinds[i]) {
      case IndexKind::Int:
      case IndexKind::Slice: ++named; break;
      case IndexKind::NewAxis:
      case IndexKind::Ellipsis: break;
      case IndexKind::Bool:
        if (values[3 * i] != 0 && values[3 * i] != 1)
          fail(Status::Invalid, op, ": bool index ", i, " has value ", values[3 * i], " (expected 0 or 1)");
        break;
    }
  }
  const int64_t ndim = t.ndim();
  if (named > ndim) fail(Status::Invalid, op, ": too many indices for tensor of dimension ", ndim, " (", named, " given)");

  Layout l = detail::layout_of(t);
  int64_t dim = 0;  // the result's dim the next item applies to
  for (int64_t i = 0; i < n; ++i) {
    const int64_t* v = values + 3 * i;
    switch (kinds[i]) {
      case IndexKind::Int: detail::select_dim(op, l, dim, v[0]); break;
      case IndexKind::Slice: detail::slice_dim(op, l, dim++, v[0], v[1], v[2]); break;
      case IndexKind::NewAxis: detail::insert_dim(op, l, dim++); break;
      case IndexKind::Bool:  // a new dim of size 1 (true) or 0 (false)
        detail::insert_dim(op, l, dim);
        if (v[0] == 0) detail::slice_dim(op, l, dim, 0, 0, 1);
        ++dim;
        break;
      case IndexKind::Ellipsis: dim += ndim - named; break;  // each one, as PyTorch
    }
  }
  return detail::alias(t, l);
}

}  // namespace ctensor::core
