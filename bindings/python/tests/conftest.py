"""Makes the freshly built extension importable: CTENSOR_PYTHON_BUILD names its
build directory (relative paths are taken from the repository root); the default
is build-python/bindings/python. An installed ctensor is used only if no build
directory exists."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_build = os.environ.get("CTENSOR_PYTHON_BUILD", os.path.join("build-python", "bindings", "python"))
_build = _build if os.path.isabs(_build) else os.path.join(ROOT, _build)
if os.path.isdir(_build):
    sys.path.insert(0, _build)
