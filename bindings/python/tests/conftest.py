"""Chooses the `ctensor` the tests import. CTENSOR_PYTHON_BUILD names a build
directory holding the package (relative paths are taken from the repository
root; the default is build-python/bindings/python), put first on sys.path when
it exists; CTENSOR_PYTHON_BUILD=installed tests the package installed in the
running interpreter (scripts/test.sh: pip install into a venv) and refuses any
other."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_build = os.environ.get("CTENSOR_PYTHON_BUILD", os.path.join("build-python", "bindings", "python"))
if _build == "installed":
    import ctensor

    _where = os.path.dirname(os.path.abspath(ctensor.__file__))
    assert "site-packages" in _where.split(os.sep), f"ctensor imported from {_where}, not an installed package"
else:
    _build = _build if os.path.isabs(_build) else os.path.join(ROOT, _build)
    if os.path.isdir(_build):
        sys.path.insert(0, _build)
