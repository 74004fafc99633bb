"""These tests run in a plain venv with NumPy 2.x from PyPI and the installed
ctensor package (scripts/test.sh: build-test/venv-np2); there is no torch."""
import os

import ctensor
import numpy

_where = os.path.dirname(os.path.abspath(ctensor.__file__))
assert "site-packages" in _where.split(os.sep), f"ctensor imported from {_where}, not an installed package"
assert tuple(int(x) for x in numpy.__version__.split(".")[:2]) >= (2, 1), numpy.__version__
