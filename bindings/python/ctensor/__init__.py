"""ctensor: PyTorch's storage and strided-view memory model on libctensor.

frombuffer, asarray, from_numpy, from_dlpack, zero-copy views, indexing and
PyTorch's repr, so code written for those parts of PyTorch runs with
``import ctensor as torch``. The C extension module ctensor._C holds the tensor
type and everything that touches memory (over the library's C API); this
package adds the compatibility surface written in Python.
"""
from ctensor import _C
from ctensor._C import *  # noqa: F401,F403 - the public surface is _C's and the modules below
from ctensor._C import __version__, _release_in_native_thread  # noqa: F401
from ctensor._values import ALIASES as _ALIASES  # first: the dtypes' attributes, Tensor's complex() and format()
from ctensor._asarray import FUNCTIONS as _ASARRAY
from ctensor._arrow import METHODS as _ARROW_METHODS, from_arrow, from_arrow_variable_shape  # noqa: F401
from ctensor._dlpack import METHODS as _DLPACK_METHODS, from_dlpack  # noqa: F401
from ctensor._factories import FUNCTIONS as _FACTORIES
from ctensor._files import _rebuild_shared, _reduce_shared, from_file, load, load_file, safe_open, save, save_file  # noqa: F401
from ctensor._tensor_methods import FUNCTIONS as _TENSOR_FUNCTIONS
from ctensor._device import channels_last, channels_last_3d, contiguous_format, device, preserve_format  # noqa: F401
from ctensor._forward import FUNCTIONS as _FORWARDED
from ctensor._functions import FUNCTIONS as _COMPOSED
from ctensor._grad import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from ctensor._legacy import TYPES as _LEGACY
from ctensor._numpy import FUNCTIONS as _NUMPY, METHODS as _NUMPY_METHODS
from ctensor._size import Size
from ctensor._storage import METHODS as _STORAGE_METHODS, TypedStorage, UntypedStorage, _rebuild_storage, _rebuild_tensor  # noqa: F401
from ctensor._tensor_str import set_printoptions, tensor_repr as _tensor_repr  # noqa: F401
from ctensor._unary import FUNCTIONS as _UNARY, METHODS as _UNARY_METHODS

_C._set_size_type(Size)
_C._set_device_type(device)
_C._set_repr(_tensor_repr)
_C._set_tensor_methods(_UNARY_METHODS)
_C._set_tensor_methods(_NUMPY_METHODS)
_C._set_tensor_methods(_DLPACK_METHODS)
_C._set_tensor_methods(_ARROW_METHODS)
_C._set_tensor_methods(_STORAGE_METHODS)

globals().update(_FORWARDED)
globals().update(_COMPOSED)
globals().update(_LEGACY)
globals().update(_ALIASES)
globals().update(_UNARY)
globals().update(_TENSOR_FUNCTIONS)
globals().update(_NUMPY)
globals().update(_FACTORIES)
globals().update(_ASARRAY)
del _ALIASES, _FORWARDED, _COMPOSED, _LEGACY, _UNARY, _UNARY_METHODS, _TENSOR_FUNCTIONS, _NUMPY, _NUMPY_METHODS, _DLPACK_METHODS
del _ARROW_METHODS, _ASARRAY, _FACTORIES, _STORAGE_METHODS
from ctensor import utils  # noqa: E402,F401 - ctensor.utils.dlpack, as torch.utils.dlpack
