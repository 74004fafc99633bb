"""torch.reshape(t, ...) and friends: module functions that call the Tensor
method of the same name on their first argument."""
from ctensor import Tensor  # (already imported from ctensor._C by __init__)

NAMES = (
    "as_strided", "reshape", "transpose", "permute", "t", "squeeze", "unsqueeze", "flatten", "narrow",
    "select", "clone", "numel", "broadcast_to", "is_floating_point", "is_complex", "split", "chunk",
    "unbind", "swapaxes", "swapdims", "movedim", "moveaxis", "tensor_split", "diagonal", "unflatten",
    "ravel", "adjoint", "conj", "conj_physical", "resolve_conj", "is_conj",
)


def _forwarder(name):
    def forward(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' must be Tensor, not {type(input).__name__}")
        return getattr(input, name)(*args, **kwargs)

    forward.__name__ = forward.__qualname__ = name
    forward.__module__ = "ctensor"
    # The method's note that it is built on the experimental C API, if it has one.
    note = (getattr(Tensor, name).__doc__ or "").partition("\n\nNote: experimental")[1:]
    forward.__doc__ = f"Tensor.{name}(...) as a function." + "".join(note)
    return forward


FUNCTIONS = {name: _forwarder(name) for name in NAMES}
