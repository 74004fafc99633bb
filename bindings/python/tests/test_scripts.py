"""PyTorch-style snippets run twice, with `torch` bound to PyTorch and to ctensor:
the printed output must be the same, "torch." read as "ctensor." (how scripts
written against PyTorch are checked)."""
import contextlib
import io
import warnings

import numpy
import pytest
import torch

import ctensor

SNIPPETS = [
    r'''
import array
a = array.array('i', [1, 2, 3])
t = torch.frombuffer(a, dtype=torch.int32)
print(t, t.dtype, t.shape, t.stride(), t.storage_offset(), t.is_contiguous())
t[0] = -1
print(a)
''',
    r'''
b = bytearray(b'\x00' * 16)
t = torch.frombuffer(b, dtype=torch.float32, count=2, offset=8)
print(t, t.numel(), t.element_size())
t.fill_(2.5)
print(list(b))
''',
    r'''
x = torch.arange(12).view(3, 4)
print(x)
print(x.t(), x.t().is_contiguous(), x.t().stride())
print(x[1:, ::2], x[:, 1], x[..., None].shape, x[None].shape)
print(x.reshape(2, 6), x.view(-1), x.flatten(), x.permute(1, 0).contiguous().stride())
''',
    r'''
x = torch.zeros(2, 3)
y = x[0]
y[1] = 5
print(x, y.data_ptr() - x.data_ptr())
print(torch.ones(2, 2, dtype=torch.int64), torch.full((2, 3), 7), torch.full((1,), 2.5), torch.empty(0, 2))
''',
    r'''
a = np.arange(6, dtype=np.float64).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
print(t, t.dtype)
print(t.numpy(), type(t.numpy()).__name__)
print(t.data_ptr() == a.__array_interface__['data'][0])
''',
    r'''
t = torch.asarray([1, 2, 3])
print(t, t.dtype)
print(torch.asarray([1.5, 2]), torch.asarray([[True], [False]]), torch.asarray(3.0), torch.asarray([1j, 2]))
print(torch.asarray([1, 2], dtype=torch.float64))
''',
    r'''
t = torch.tensor([1, 2, 3])
u = torch.asarray(t)
print(u is t, u.data_ptr() == t.data_ptr())
v = torch.asarray(t, copy=True)
print(v.data_ptr() == t.data_ptr())
w = torch.asarray(t, dtype=torch.float32)
print(w, w.data_ptr() == t.data_ptr())
try:
    torch.asarray(t, dtype=torch.float32, copy=False)
except ValueError:
    print("ValueError")
''',
    r'''
print(torch.tensor([1e-10, 1e10]))
print(torch.tensor([0.1, 0.25, 123.456]))
print(torch.tensor([[1.0, float('nan')], [float('inf'), -2.0]]))
print(torch.tensor(3.14159, dtype=torch.float64))
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([1, 2], dtype=torch.int16))
print(torch.tensor([1.5, 2.5], dtype=torch.float16), torch.tensor([1.5, 2.5], dtype=torch.bfloat16))
print(torch.tensor([[1+2j, 3-1j]]), torch.tensor([1+2j], dtype=torch.complex128))
print(torch.arange(2000))
print(torch.arange(2000, dtype=torch.float32).view(40, 50))
print(torch.zeros(3, 0), torch.tensor([], dtype=torch.int64), torch.ones(0, dtype=torch.bool))
''',
    r'''
x = torch.arange(10)
print(x.split(3), x.chunk(3), x.unbind(0)[:2], x.narrow(0, 2, 3), x.unfold(0, 4, 3))
print(x.expand(2, 10).stride(), x.view(2, 5).expand(3, 2, 5).shape)
''',
    r'''
x = torch.arange(6).view(2, 3)
print(x.tolist(), x[1, 2].item(), len(x), [r.tolist() for r in x], x.size(1), x.dim(), x.ndim)
print(x == 2, x != 2, 2 in x)
print(x.to(torch.float32), x.double(), x.float().dtype, x.bool())
print(x.clone().data_ptr() == x.data_ptr(), x.contiguous() is x)
''',
    r'''
x = torch.arange(12).view(3, 4)
print(x[[0, 2]], x[:, [1, 3]], x[x == 5], x[torch.tensor([True, False, True])])
x[x == 5] = 0
x[[1]] = 9
print(x)
''',
    r'''
x = torch.arange(6)
for bad in [lambda: x.view(4), lambda: x[10], lambda: x.transpose(0, 3), lambda: x.item(), lambda: torch.zeros(-1), lambda: x.expand(3, 4), lambda: torch.frombuffer(b'', dtype=torch.int32), lambda: x.view(2, 3).view(-1, -1), lambda: x.narrow(0, 5, 3), lambda: x.squeeze(2), lambda: torch.arange(0, 1, 0)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__)
''',
    r'''
t = torch.tensor([[1, 2], [3, 4]])
s = t.storage()
print(s.size(), s.nbytes(), s.element_size(), s.tolist(), t[1].storage().data_ptr() == s.data_ptr())
print(s)
''',
    r'''
print(torch.float32, torch.int64, torch.float32.is_floating_point, torch.int32.is_signed, torch.bool.is_floating_point)
print(torch.Size([2, 3]), torch.arange(6).view(2, 3).shape, torch.tensor(5).shape)
''',
    r'''
import gc, weakref
class E(bytearray): pass
e = E(b'\x01\x00\x00\x00\x02\x00\x00\x00')
r = weakref.ref(e)
t = torch.frombuffer(e, dtype=torch.int32)
del e; gc.collect()
print(r() is not None, t)
v = t[1:]
del t; gc.collect()
print(r() is not None, v)
''',
    r'''
a = np.arange(10, dtype=np.int16)[::2]
t = torch.from_numpy(a)
print(t, t.stride(), t.storage_offset())
print(torch.from_numpy(np.zeros((2, 3), order='F')).stride())
print(torch.from_numpy(np.array(5.0)).shape, torch.from_numpy(np.array([True, False])))
''',
    r'''
x = torch.arange(8).view(2, 4)
y = x.as_strided((2, 2), (1, 2), 1)
print(y, y.storage_offset(), y.is_contiguous())
z = torch.as_strided(x, (3,), (2,))
print(z)
''',
    r'''
print(torch.zeros(2, 3).dtype, torch.zeros(2, dtype=torch.float64), torch.ones(3, dtype=torch.bool))
print(torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.2), torch.arange(5.0), torch.arange(-3, 3, 2))
print(torch.zeros_like(torch.ones(2, 2)), torch.ones_like(torch.zeros(3, dtype=torch.int32)), torch.full_like(torch.zeros(2), 3))
''',
    r'''
x = torch.tensor([[0.001, 12345.6789], [1.0, 2.0]])
print(x)
print(torch.tensor([123456789.0]), torch.tensor([1e8]), torch.tensor([0.0001]), torch.tensor([0.00001]))
print(torch.tensor([1.0, 2.0, 3.0]) , torch.tensor([-1.0, 0.5]))
print(torch.tensor([[1e-5, 1e5], [1.0, -2.0]], dtype=torch.float64))
print(torch.tensor(float('nan')), torch.tensor([float('inf')]), torch.tensor([-0.0]))
''',
    r'''
x = torch.arange(4, dtype=torch.float32)
print(x.view(torch.int32), x.view(torch.uint8).shape)
print(x.numpy().dtype, memoryview(x.numpy()).format)
''',
    r'''
x = torch.zeros(3)
x[1] = 2
x[2:] = torch.tensor([7.0])
x[:1] = 1
print(x)
y = torch.zeros(2, 3, dtype=torch.int64)
y[0] = torch.tensor([1, 2, 3])
y[:, 1] = 9
y[1, ...] = 4
print(y)
''',
    r'''
x = torch.arange(6).view(2, 3)
print(x.T, x.mT if hasattr(x, 'mT') else None)
''',
    r'''
x = torch.tensor([3.5])
print(int(x), float(x), bool(x), x.item(), f"{x.item():.2f}", x.tolist())
print(torch.tensor(7).item(), type(torch.tensor(7).item()).__name__, type(torch.tensor(True).item()).__name__)
''',
    r'''
print(torch.is_tensor(torch.zeros(1)), torch.numel(torch.zeros(2, 3)), torch.get_default_dtype())
with torch.no_grad():
    print(torch.ones(1))
''',
    r'''
x = torch.arange(6, dtype=torch.float64).view(2, 3)
y = torch.from_dlpack(x)
print(y.data_ptr() == x.data_ptr(), y)
''',
    r'''
mv = memoryview(bytearray(16))[::2]
try:
    torch.frombuffer(mv, dtype=torch.uint8)
except Exception as e:
    print(type(e).__name__)
''',
    r'''
try:
    torch.frombuffer(bytearray(7), dtype=torch.int32)
except Exception as e:
    print(type(e).__name__)
''',
    r'''
try:
    torch.asarray({'a': 1})
except Exception as e:
    print(type(e).__name__)
''',
    r'''
try:
    torch.tensor([[1, 2], [3]])
except Exception as e:
    print(type(e).__name__)
''',
    r'''
x = torch.arange(6)
try:
    x.view(3, 3)
except Exception as e:
    print(type(e).__name__)
try:
    torch.zeros(2, 3).view(torch.complex128)
except Exception as e:
    print(type(e).__name__)
''',
    r'''
t = torch.tensor([1, 2, 3], dtype=torch.int8)
print(t, t.to(torch.uint8), t.to(torch.float16), t.to(torch.bool), t.to(torch.complex64))
print(torch.tensor([300, -1]).to(torch.uint8), torch.tensor([2.7, -2.7]).to(torch.int32))
''',
    r'''
x = torch.zeros(2, 2)
x.copy_(torch.tensor([1, 2]))
print(x)
x.copy_(torch.tensor([[5], [6]], dtype=torch.int64))
print(x)
try:
    x.copy_(torch.zeros(3))
except Exception as e:
    print(type(e).__name__)
''',
    r'''
x = torch.arange(4).view(2, 2)
e = x[0].expand(2, 2)
try:
    e.copy_(torch.ones(2, 2, dtype=torch.int64))
    print("ok")
except Exception as err:
    print(type(err).__name__)
try:
    e.fill_(1)
    print("ok")
except Exception as err:
    print(type(err).__name__)
''',
    r'''
print(f"{torch.tensor(3)}", f"{torch.tensor(2.5):.3f}", f"{torch.arange(2)}", str(torch.tensor([1.0])))
print([torch.tensor(1), torch.tensor([1.5])])
''',
    r'''
print(torch.tensor([1, 2]).dtype == torch.int64, torch.tensor([1.0]).dtype is torch.float32, torch.float == torch.float32)
''',
    r'''
x = torch.empty(2, 3)
print(x.shape, x.dtype, x.is_contiguous())
print(torch.empty((2, 3), dtype=torch.int32).stride())
''',
    r'''
x = torch.arange(12).view(3, 4)
print(x[-1], x[-1, -1], x[::2, ::3], x[1:1], x[5:], x[:, -2:])
print(x[1, None, ..., None].shape, x[True].shape, x[False].shape)
''',
    r'''
a = np.arange(12, dtype=np.float32).reshape(3, 4)
t = torch.asarray(a)
print(t.data_ptr() == a.ctypes.data, t.dtype, t.stride())
t2 = torch.asarray(a.T)
print(t2.stride(), t2.is_contiguous(), t2.data_ptr() == a.ctypes.data)
t3 = torch.asarray(a, dtype=torch.float64)
print(t3.stride(), t3.dtype)
t4 = torch.tensor(a.T)
print(t4.stride(), t4.data_ptr() == a.ctypes.data)
''',
    r'''
b = bytearray(8)
t = torch.asarray(b, dtype=torch.int16)
print(t, t.dtype, t.shape)
t[0] = 258
print(list(b))
''',
    r'''
x = torch.arange(24).view(2, 3, 4)
print(x.permute(2, 0, 1).clone().stride(), x.transpose(0, 1).contiguous().stride(), x[:, ::2].clone().stride())
print(x.permute(2, 0, 1).to(torch.float32).stride(), torch.empty_like(x.transpose(1, 2)).stride())
''',
    r'''
x = torch.arange(6).view(2, 3)
print(x.reshape(3, 2).data_ptr() == x.data_ptr(), x.t().reshape(6).data_ptr() == x.data_ptr(), x.t().flatten().is_contiguous())
try:
    x.t().view(6)
except RuntimeError:
    print("RuntimeError")
''',
    r'''
x = torch.arange(4.)
n = x.numpy()
n[0] = 10
print(x)
del x
print(n)
''',
]


def run(source, module):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about read-only buffers
        try:
            exec(source, {"torch": module, "np": numpy, "numpy": numpy})
        except Exception as e:  # the exception type is part of the output
            print("raised", type(e).__name__)
    return out.getvalue()


@pytest.mark.parametrize("source", SNIPPETS)
def test_prints_like_torch(source):
    assert run(source, ctensor) == run(source, torch).replace("torch.", "ctensor.")
