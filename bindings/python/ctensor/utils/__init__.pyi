from . import dlpack as dlpack
