"""ctensor: PyTorch's storage and strided-view memory model on libctensor.

frombuffer, asarray, from_numpy, from_dlpack, zero-copy views, indexing and
PyTorch's repr, so code written for those parts of PyTorch runs with
``import ctensor as torch``. The work is done by the C extension module
ctensor._C over the library's C API; this package is what users import.
"""
from ctensor._C import *  # noqa: F401,F403 - the public surface is _C's
from ctensor._C import __version__, _rebuild_storage, _rebuild_tensor, _release_in_native_thread  # noqa: F401
