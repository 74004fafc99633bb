"""The unary family (torch.exp, Tensor.exp, Tensor.exp_ ...), generated from
one name -> TENSOR_UOP_* code table; every call goes through _C._unary."""
from ctensor import _C

Tensor = _C.Tensor

# ctensor.h's TENSOR_UOP_* values (the index is the code).
NAMES = (
    "neg", "abs", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil",
    "round", "trunc", "frac", "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logical_not",
    "bitwise_not",
)
CODES = {name: code for code, name in enumerate(NAMES)}
# Ops whose Tensor method has no in-place twin in PyTorch (their results are bool).
NO_IN_PLACE = {"isnan", "isinf", "isfinite"}
# torch.nn.functional-only in PyTorch: no Tensor method.
NO_METHOD = {"gelu"}


def _function(name, code):
    def function(input, *, out=None):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        return _C._unary(code, input, out)

    function.__name__ = function.__qualname__ = name
    function.__module__ = "ctensor"
    function.__doc__ = f"{name}(input, *, out=None): torch.{name}, element-wise."
    return function


def _method(name, code):
    def method(self):
        return _C._unary(code, self, None)

    method.__name__ = name
    method.__qualname__ = "Tensor." + name
    method.__doc__ = f"{name}(): torch.{name}(self)."
    return method


def _in_place(name, code):
    def method(self):
        return _C._unary(code, self, self)

    method.__name__ = name + "_"
    method.__qualname__ = "Tensor." + name + "_"
    method.__doc__ = f"{name}_(): self = torch.{name}(self), in place."
    return method


FUNCTIONS = {name: _function(name, code) for name, code in CODES.items()}
METHODS = {name: _method(name, code) for name, code in CODES.items()
           if name not in NO_METHOD and name not in Tensor.__dict__}
METHODS.update({name + "_": _in_place(name, code) for name, code in CODES.items()
                if name not in NO_IN_PLACE | NO_METHOD})
