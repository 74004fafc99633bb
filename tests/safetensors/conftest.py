"""The safetensors interoperability tests run in build-test/venv-safetensors
(scripts/safetensors-venv.sh). They reach the C API through tests/differential's
ctypes helper and the Python binding through its build directory."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
_build = os.environ.get("CTENSOR_PYTHON_BUILD", os.path.join("build-test", "bindings", "python"))
_build = _build if os.path.isabs(_build) else os.path.join(ROOT, _build)
if os.path.isdir(_build):
    sys.path.insert(0, _build)
