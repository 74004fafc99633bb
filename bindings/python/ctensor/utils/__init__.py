"""ctensor.utils, as torch.utils: the dlpack module."""
from ctensor.utils import dlpack  # noqa: F401
