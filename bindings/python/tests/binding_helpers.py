"""Small helpers shared by the tests."""
import ctensor
import torch


def dtype_name(dtype):
    """'float32' for ctensor.float32 or torch.float32."""
    return repr(dtype).split(".")[-1]


def same_as_torch(c, t):
    """Same shape, dtype and values as the torch tensor t."""
    assert isinstance(c, ctensor.Tensor)
    assert tuple(c.shape) == tuple(t.shape)
    assert dtype_name(c.dtype) == dtype_name(t.dtype)
    assert c.tolist() == t.tolist()
    return True


def torch_repr(t):
    return repr(t).replace("torch.", "ctensor.")
