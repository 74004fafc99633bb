"""Module functions of torch's that only compose Tensor methods: broadcast_shapes,
the *_copy variants of the view functions, and out= of the reductions and joins."""
from ctensor import Tensor, empty
from ctensor._tensor_methods import cat, stack
from ctensor._size import Size


def broadcast_shapes(*shapes):
    """torch.broadcast_shapes: the shape that tensors of these shapes broadcast to
    (each an int or a sequence of ints), as a Size; RuntimeError if they do not."""
    result = []
    for shape in shapes:
        if isinstance(shape, int):
            shape = (shape,)
        elif not isinstance(shape, (tuple, list, Size)) or not all(isinstance(s, int) for s in shape):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape!r}")
        for size in shape:
            if size < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension ({size}): ({size})")
        shape = list(shape)
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for i, size in enumerate(shape, start=len(result) - len(shape)):
            if result[i] == 1:
                result[i] = size
            elif size != 1 and size != result[i]:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
    # the same validation as torch.Size (and a Size back)
    return empty(result).shape


def _copy_variant(view_name, view_of, *, many=False):
    """torch.<view>_copy(input, ..., out=None): the view's elements in new memory
    laid out as clone() lays them (PyTorch's preserve_format); out= copies into
    `out` (broadcasting, as torch 1.13 does) and returns it."""

    def copy_variant(input, *args, out=None, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{view_name}_copy(): argument 'input' must be Tensor, not {type(input).__name__}")
        view = view_of(input, *args, **kwargs)
        if many:
            if out is not None:
                raise TypeError(f"{view_name}_copy(): out= takes no list of tensors in ctensor")
            return tuple(v.clone() for v in view)
        if out is None:
            return view.clone()
        out.copy_(view)
        return out

    copy_variant.__name__ = copy_variant.__qualname__ = f"{view_name}_copy"
    copy_variant.__module__ = "ctensor"
    copy_variant.__doc__ = (f"torch.{view_name}_copy: Tensor.{view_name}(...) with its elements in new memory"
                            " (a tuple of copies for splits).")
    return copy_variant


def _method(name):
    return lambda input, *args, **kwargs: getattr(input, name)(*args, **kwargs)


def _slice(input, dim=0, start=None, end=None, step=1):
    index = [slice(None)] * input.dim()
    index[dim] = slice(start, end, step)
    return input[tuple(index)]


_VIEWS = ("as_strided", "detach", "diagonal", "expand", "narrow", "permute", "select", "squeeze", "t",
          "transpose", "unfold", "unsqueeze", "view")
FUNCTIONS = {f"{name}_copy": _copy_variant(name, _method(name)) for name in _VIEWS}
FUNCTIONS.update({f"{name}_copy": _copy_variant(name, _method(name), many=True) for name in ("split", "unbind")})
FUNCTIONS["split_with_sizes_copy"] = _copy_variant("split_with_sizes", _method("split"), many=True)
FUNCTIONS["slice_copy"] = _copy_variant("slice", _slice)
FUNCTIONS["alias_copy"] = _copy_variant("alias", lambda input: input[...])
FUNCTIONS["broadcast_shapes"] = broadcast_shapes


def _into_out(out, result, name, same_dtype):
    """torch's out= of a reduction or join: the result copied into `out`, which must
    have the result's shape (ctensor tensors never change shape, so where torch would
    resize `out` this refuses); amax/amin want out's dtype to be the result's, the
    others convert into it."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if out.shape != result.shape:
        raise RuntimeError(f"{name}(): out= has shape {list(out.shape)} but the result has shape "
                           f"{list(result.shape)} (ctensor never resizes out=)")
    if same_dtype and out.dtype != result.dtype:
        raise RuntimeError(f"{name}(): expected the dtype for input and out to match, but got "
                           f"{result.dtype} for the result and {out.dtype} for out")
    return out.copy_(result)


def _reduction(name):
    same_dtype = name in ("amax", "amin")

    def reduction(input, *args, out=None, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        result = getattr(input, name)(*args, **kwargs)
        return result if out is None else _into_out(out, result, name, same_dtype)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__module__ = "ctensor"
    reduction.__doc__ = f"torch.{name}(input, ..., out=None): Tensor.{name}(...), or computed into out."
    return reduction


def _join(name, join):
    def joined(tensors, dim=0, *, out=None):
        result = join(tensors, dim)
        return result if out is None else _into_out(out, result, name, False)

    joined.__name__ = joined.__qualname__ = name
    joined.__module__ = "ctensor"
    joined.__doc__ = join.__doc__.replace("dim=0)", "dim=0, *, out=None)", 1)
    return joined


FUNCTIONS.update({name: _reduction(name) for name in ("sum", "mean", "prod", "amax", "amin")})
FUNCTIONS.update({"cat": _join("cat", cat), "concat": _join("concat", cat), "stack": _join("stack", stack)})
