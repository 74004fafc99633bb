// From a run-time dtype to a template: the switch over the dtype list
// (dtype_list.hpp's ElementType column), generated, never written by hand.
#pragma once

#include "dtype/cast_rules.hpp"
#include "dtype/dtype.hpp"
#include "error.hpp"

namespace ctensor::core {

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with T the element type d is stored as; Error(Invalid) for
// a dtype that is not in the list.
template <class F>
decltype(auto) dispatch(DType d, F&& f) {
  switch (d) {
#define CTENSOR_DISPATCH_CASE(Name, value, macro, T, ...) \
  case dtype::Name:                                       \
    return f(Tag<T>{});
    CTENSOR_FORALL_DTYPES(CTENSOR_DISPATCH_CASE)
#undef CTENSOR_DISPATCH_CASE
    default: fail(Status::Invalid, "unknown dtype ", d);
  }
}

// As dispatch, for the dtypes of kind K only (only those instantiate f);
// Error(Invalid) for any other dtype.
template <DTypeKind K, class F>
decltype(auto) dispatch_kind(DType d, F&& f) {
  switch (d) {
#define CTENSOR_DISPATCH_KIND_CASE(Name, value, macro, T, Kind, ...) \
  case dtype::Name:                                                  \
    if constexpr (DTypeKind::Kind == K) return f(Tag<T>{});          \
    break;
    CTENSOR_FORALL_DTYPES(CTENSOR_DISPATCH_KIND_CASE)
#undef CTENSOR_DISPATCH_KIND_CASE
    default: break;
  }
  fail(Status::Invalid, "unexpected dtype ", d, " (not of the kind this operation takes)");
}

}  // namespace ctensor::core
