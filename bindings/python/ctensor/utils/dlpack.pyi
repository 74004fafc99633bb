import enum
from typing import Any

from .. import Tensor

class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLGPU = 2
    kDLCPUPinned = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLExtDev = 12

def to_dlpack(tensor: Tensor, /) -> Any: ...
def from_dlpack(obj: Any, /) -> Tensor: ...
