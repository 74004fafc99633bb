"""ctensor.utils.dlpack, as torch.utils.dlpack: to_dlpack, from_dlpack, DLDeviceType."""
from ctensor._dlpack import DLDeviceType, from_dlpack, to_dlpack  # noqa: F401
