"""Typed use of ctensor, checked by `mypy --strict` (test_typing.py): the stubs
must accept ordinary code and give precise types back."""
import pickle

import numpy as np

import ctensor


def shapes(t: ctensor.Tensor) -> tuple[int, ...]:
    size: ctensor.Size = t.shape
    return tuple(size) + t.stride()


def main() -> None:
    buf = bytearray(16)
    t: ctensor.Tensor = ctensor.frombuffer(buf, dtype=ctensor.float32)
    a = ctensor.asarray(np.arange(6.0), dtype=ctensor.float64, copy=False)
    v = a.view(2, 3).t()[0, 1:]
    n: int = v.numel() + v.size(0) + v.dim() + t.stride(0)
    parts: tuple[ctensor.Tensor, ...] = ctensor.arange(10).split(3)
    d: ctensor.dtype = ctensor.promote_types(t.dtype, ctensor.int64)
    dev: ctensor.device = t.device
    flag: bool = t.is_contiguous() and d.is_floating_point and dev.type == "cpu"
    with ctensor.no_grad():
        w = t.clone(memory_format=ctensor.preserve_format).reshape(2, 2)
    w.t_().unsqueeze_(0)
    x = ctensor.from_numpy(np.zeros((2, 3))).repeat(2, 1).ravel()
    y = ctensor.broadcast_tensors(w, x[:2])[0].mT
    cap = y.__dlpack__(max_version=(1, 0))
    z = ctensor.from_dlpack(cap) if flag else ctensor.utils.dlpack.from_dlpack(y)
    s: ctensor.UntypedStorage = z.untyped_storage()
    data = pickle.dumps(z, protocol=5)
    print(n, len(parts), shapes(z), s.nbytes(), len(data), isinstance(z, ctensor.FloatTensor))
    ctensor.set_printoptions(precision=2)
    print(ctensor.zeros(2, 3, dtype=ctensor.bfloat16).tolist(), ctensor.tensor([1, 2])[1].item())


if __name__ == "__main__":
    main()
