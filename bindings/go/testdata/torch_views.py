"""Oracle for views_torch_test.go: applies view chains with PyTorch.

Reads a JSON list of {"shape": [...], "ops": [[name, args...], ...]} on stdin
(each chain starts from torch.arange(numel).reshape(shape), int64) and writes
one {"sizes", "strides", "offset", "values"} per chain, or {"error": TYPE}.
"""
import json
import sys

import torch


def apply(t, op, args):
    if op == "view_dtype":
        return t.view(getattr(torch, args[0]))
    if op == "slice":
        dim, start, stop, step = args
        index = [slice(None)] * t.dim()
        index[dim] = slice(start, stop, step)
        return t[tuple(index)]
    if op == "squeeze" and args == [None]:
        return t.squeeze()
    if op == "broadcast_to":
        return torch.broadcast_to(t, args[0])
    if op in ("view", "reshape", "expand", "permute"):
        return getattr(t, op)(*args[0])
    if op == "as_strided":
        return t.as_strided(*args)
    if op == "atleast":
        return [torch.atleast_1d, torch.atleast_2d, torch.atleast_3d][args[0] - 1](t)
    if op == "unflatten":
        return t.unflatten(args[0], args[1])
    if op.endswith("_piece"):  # [split args..., i]: piece i of a split
        split, *split_args, i = op[: -len("_piece")], *args
        if split == "split_with_sizes":
            split = "split"
        pieces = getattr(torch, split)(t, *split_args)
        return pieces[i]
    return getattr(t, op)(*args)


def run(chain):
    t = torch.arange(int(torch.tensor(chain["shape"]).prod())).reshape(chain["shape"])
    try:
        for op, *args in chain["ops"]:
            t = apply(t, op, args)
    except (RuntimeError, IndexError, ValueError) as e:
        return {"error": type(e).__name__}
    values = t.contiguous().reshape(-1)
    return {"sizes": list(t.shape), "strides": list(t.stride()), "offset": t.storage_offset(),
            "dtype": str(t.dtype).replace("torch.", ""), "values": [int(v) for v in values.tolist()]}


print(json.dumps([run(c) for c in json.load(sys.stdin)]))
